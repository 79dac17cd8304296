/** Where `npm run ops` finds each service: a variable of its own, else the fixed port of `npm start`. */
export const OPS_SERVICE_URLS = {
  keyRegistry: { variable: 'KEY_REGISTRY_URL', service: 'key-registry', admin: false, fixed: 'http://127.0.0.1:3005' },
  sponsorship: { variable: 'SPONSORSHIP_KEYS_URL', service: 'sponsorship-keys', admin: false, fixed: 'http://127.0.0.1:3006' },
  portal: { variable: 'PORTAL_API_URL', service: 'partner-portal-api', admin: false, fixed: 'http://127.0.0.1:3007' },
  quoteBuilder: { variable: 'QUOTE_BUILDER_URL', service: 'quote-builder', admin: false, fixed: 'http://127.0.0.1:3002' },
  swapGateway: { variable: 'SWAP_GATEWAY_URL', service: 'swap-gateway', admin: false, fixed: 'http://127.0.0.1:3001' },
  swapGatewayAdmin: { variable: 'SWAP_GATEWAY_ADMIN_URL', service: 'swap-gateway', admin: true, fixed: 'http://127.0.0.1:4001' },
  sponsorshipAdmin: { variable: 'SPONSORSHIP_KEYS_ADMIN_URL', service: 'sponsorship-keys', admin: true, fixed: 'http://127.0.0.1:4006' },
} as const;

export function opsServiceUrls(env: NodeJS.ProcessEnv): Record<keyof typeof OPS_SERVICE_URLS, string> {
  const entries = Object.entries(OPS_SERVICE_URLS).map(([key, { variable, fixed }]) => [key, env[variable] ?? fixed]);
  return Object.fromEntries(entries) as Record<keyof typeof OPS_SERVICE_URLS, string>;
}

/** The variables that point the tool at services started elsewhere (`npm start` on ephemeral ports). */
export function opsVariablesFor(services: readonly { name: string; url: string; adminUrl: string }[]): string {
  return Object.values(OPS_SERVICE_URLS)
    .flatMap(({ variable, service, admin }) => {
      const running = services.find((s) => s.name === service);
      return running ? [`${variable}=${admin ? running.adminUrl : running.url}`] : [];
    })
    .join(' ');
}
