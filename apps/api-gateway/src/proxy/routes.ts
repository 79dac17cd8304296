import type { ServiceName } from '@swap/contracts';
import type { ApiGatewayConfig } from '../api-gateway.config';

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

export function upstreamOf(service: ServiceName, config: ApiGatewayConfig): string {
  switch (service) {
    case 'swap-gateway':
      return config.UPSTREAM_SWAP_GATEWAY_URL;
    case 'quote-builder':
      return config.UPSTREAM_QUOTE_BUILDER_URL;
    case 'relay-tracker':
      return config.UPSTREAM_RELAY_TRACKER_URL;
    case 'oracle-candles':
      return config.UPSTREAM_ORACLE_CANDLES_URL;
    case 'sponsorship-keys':
      return config.UPSTREAM_SPONSORSHIP_KEYS_URL;
    case 'partner-portal-api':
      return config.UPSTREAM_PARTNER_PORTAL_API_URL;
    default:
      throw new Error(`${service} is not behind the gateway`);
  }
}
