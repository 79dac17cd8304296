import { solverErrorOf, type ErrorBody, type ServiceName, type SolverErrorBody } from '@swap/contracts';
import { upstreamUrls, upstreamVariable, type ApiGatewayConfig } from '../api-gateway.config';

/** `solverErrors`: the gateway's own refusals there are in the solver API's wire format. */
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

export function upstreamsOf(service: ServiceName, config: ApiGatewayConfig): string[] {
  return upstreamUrls(config[upstreamVariable(service)]);
}

export function errorBodyFor(url: string, body: ErrorBody): ErrorBody | SolverErrorBody {
  return solverErrorsOn(url) ? solverErrorOf(body) : body;
}

export function solverErrorsOn(url: string): boolean {
  return ROUTES.some((r) => r.solverErrors && (url === r.prefix || url.startsWith(`${r.prefix}/`) || url.startsWith(`${r.prefix}?`)));
}
