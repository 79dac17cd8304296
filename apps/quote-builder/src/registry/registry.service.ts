import { Injectable } from '@nestjs/common';
import { applyRpcUrls, loadChainRegistry, type ChainRegistry } from '@swap/chains';
import type { Token, TokensByChain } from '@swap/contracts';
import { QuoteBuilderConfig } from '../quote-builder.config';

/** The chain and token registry quote-builder serves, loaded once from its profile at boot. */
@Injectable()
export class RegistryService {
  readonly registry: ChainRegistry;
  private readonly all: TokensByChain;

  constructor(config: QuoteBuilderConfig) {
    this.registry = applyRpcUrls(loadChainRegistry(config.CHAIN_PROFILE), config.CHAIN_RPC_URLS);
    this.all = this.registry.tokensByChain();
  }

  tokensByChain(): TokensByChain {
    return this.all;
  }

  tokensOf(chainKey: string): Token[] {
    return this.registry.tokensOf(chainKey);
  }
}
