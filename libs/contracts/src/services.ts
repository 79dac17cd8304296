/** The deployable services of the platform and their default ports (docs/architecture/services.md#the-services). */
export const ServiceNames = [
  'api-gateway',
  'swap-gateway',
  'quote-builder',
  'relay-tracker',
  'oracle-candles',
  'key-registry',
  'sponsorship-keys',
  'partner-portal-api',
] as const;
export type ServiceName = (typeof ServiceNames)[number];

export const DefaultPorts: Record<ServiceName, number> = {
  'api-gateway': 3000,
  'swap-gateway': 3001,
  'quote-builder': 3002,
  'relay-tracker': 3003,
  'oracle-candles': 3004,
  'key-registry': 3005,
  'sponsorship-keys': 3006,
  'partner-portal-api': 3007,
};

/** Port + 1000, so the services of one machine never collide. */
export const DefaultAdminPorts = Object.fromEntries(Object.entries(DefaultPorts).map(([name, port]) => [name, port + 1000])) as Record<
  ServiceName,
  number
>;

export function schemaNameOf(service: ServiceName): string {
  return service.replace(/-/g, '_');
}
