import { ChainCatalogMirror } from '@swap/chain-catalog';
import type { ServiceDefinition } from '@swap/service-kit';
import { SwapGatewayConfig } from './swap-gateway.config';
import { SwapGatewayModule } from './swap-gateway.module';

export const swapGateway: ServiceDefinition<SwapGatewayConfig> = {
  name: 'swap-gateway',
  title: 'swap-gateway',
  description:
    'The swaps HTTP API (/v1/swaps/*; /v1/leverage-yield/*: vaults, reads, deposits, withdrawals and the intent helpers): validation, scopes, submit-tx rate limits, and delegation to the internal services.',
  configClass: SwapGatewayConfig,
  module: SwapGatewayModule,
  uses: { bus: true, cache: true, readModels: true },
  // Chain-bound body fields (tokens, addresses, hashes of the chain named) checked with the field rules.
  chainRules: (app) => app.get(ChainCatalogMirror),
};
