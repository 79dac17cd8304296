import { solverErrorOf, type ErrorBody, type ServiceName, type SolverErrorBody } from '@swap/contracts';
import { upstreamUrls, upstreamVariable, type ApiGatewayConfig } from '../api-gateway.config';

/**
 * The gateway's routing table (ARCHITECTURE.md): path prefix → service. Paths pass
 * unchanged. `solverErrors`: the gateway's own refusals there (413, 502, 504) are written
 * in the solver API's wire format, like everything else under that prefix.
 */
export const ROUTES: readonly { prefix: string; service: ServiceName; solverErrors?: boolean }[] = [
  { prefix: '/v1/swaps', service: 'swap-gateway' },
  { prefix: '/v1/leverage-yield', service: 'swap-gateway' },
  { prefix: '/v1/be/oracle', service: 'oracle-candles' },
  { prefix: '/v1/be/intent', service: 'relay-tracker' },
  { prefix: '/v1/be/solver', service: 'relay-tracker' },
  { prefix: '/v1/be/partners', service: 'relay-tracker' },
  { prefix: '/v1/be/config', service: 'swap-gateway' },
  // The rest of the data API (money market, SODA supply, AMM) is not served: oracle-candles answers its 404.
  { prefix: '/v1/be', service: 'oracle-candles' },
  { prefix: '/v1/intent', service: 'quote-builder', solverErrors: true },
  { prefix: '/v1/a', service: 'relay-tracker' },
  { prefix: '/v1/sponsorships', service: 'sponsorship-keys' },
  { prefix: '/portal', service: 'partner-portal-api' },
];

/** The configured base URLs of a service behind the gateway (one, or one per replica). */
export function upstreamsOf(service: ServiceName, config: ApiGatewayConfig): string[] {
  return upstreamUrls(config[upstreamVariable(service)]);
}

/** An error body the gateway itself answers on a path, in that path's shape. */
export function errorBodyFor(url: string, body: ErrorBody): ErrorBody | SolverErrorBody {
  return solverErrorsOn(url) ? solverErrorOf(body) : body;
}

/** Whether errors on this path (or URL) are written in the solver API's wire format. */
export function solverErrorsOn(url: string): boolean {
  return ROUTES.some((r) => r.solverErrors && (url === r.prefix || url.startsWith(`${r.prefix}/`) || url.startsWith(`${r.prefix}?`)));
}
