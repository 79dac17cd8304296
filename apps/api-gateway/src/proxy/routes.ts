import type { ServiceName } from '@swap/contracts';
import { upstreamVariable, type ApiGatewayConfig } from '../api-gateway.config';

/** The gateway's routing table (ARCHITECTURE.md): path prefix → service. Paths pass unchanged. */
export const ROUTES: readonly { prefix: string; service: ServiceName }[] = [
  { prefix: '/v1/swaps', service: 'swap-gateway' },
  { prefix: '/v1/leverage-yield', service: 'swap-gateway' },
  { prefix: '/v1/be', service: 'oracle-candles' },
  { prefix: '/v1/intent', service: 'quote-builder' },
  { prefix: '/v1/a', service: 'relay-tracker' },
  { prefix: '/v1/sponsorships', service: 'sponsorship-keys' },
  { prefix: '/portal', service: 'partner-portal-api' },
];

/** The configured base URL of a service behind the gateway. */
export function upstreamOf(service: ServiceName, config: ApiGatewayConfig): string {
  return config[upstreamVariable(service)];
}
