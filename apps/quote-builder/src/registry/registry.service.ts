import { Injectable } from '@nestjs/common';
import { loadChainRegistry, type ChainRegistry } from '@swap/chains';
import type { Token, TokensByChain } from '@swap/contracts';
import { QuoteBuilderConfig } from '../quote-builder.config';

/** The chain and token registry quote-builder serves, loaded once from its profile at boot. */
@Injectable()
export class RegistryService {
  readonly registry: ChainRegistry;
  private readonly all: TokensByChain;

  constructor(config: QuoteBuilderConfig) {
    this.registry = loadChainRegistry(config.CHAIN_PROFILE);
    for (const pair of config.CHAIN_RPC_URLS?.split(',') ?? []) {
      const [key, url] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const chain = this.registry.findChain(key);
      if (!chain) throw new Error(`CHAIN_RPC_URLS names an unknown chain: ${key}`);
      chain.rpcUrls = [url, ...(chain.rpcUrls ?? []).filter((u) => u !== url)];
    }
    this.all = this.registry.tokensByChain();
  }

  tokensByChain(): TokensByChain {
    return this.all;
  }

  tokensOf(chainKey: string): Token[] {
    return this.registry.tokensOf(chainKey);
  }
}
