import { Injectable } from '@nestjs/common';
import { EvmAdapter, SolanaAdapter, type ChainInfo } from '@swap/chains';
import { AppError, ErrorCode } from '@swap/contracts';
import { QuoteBuilderConfig } from '../quote-builder.config';

/**
 * The chain adapters of quote-builder, one per chain (made on first use, so a chain without
 * an RPC endpoint costs nothing until asked). A failed read is a 503 that names the chain
 * and never the RPC address.
 */
@Injectable()
export class ChainClients {
  private readonly evmAdapters = new Map<string, EvmAdapter>();
  private readonly solanaAdapters = new Map<string, SolanaAdapter>();

  constructor(private readonly config: QuoteBuilderConfig) {}

  evm<T>(chain: ChainInfo, read: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    return this.withAdapter(this.evmAdapters, chain, () => new EvmAdapter(chain, { timeoutMs: this.config.CHAIN_RPC_TIMEOUT_MS }), read);
  }

  solana<T>(chain: ChainInfo, read: (adapter: SolanaAdapter) => Promise<T>): Promise<T> {
    return this.withAdapter(this.solanaAdapters, chain, () => new SolanaAdapter(chain, { timeoutMs: this.config.CHAIN_RPC_TIMEOUT_MS }), read);
  }

  private async withAdapter<A, T>(adapters: Map<string, A>, chain: ChainInfo, create: () => A, read: (adapter: A) => Promise<T>): Promise<T> {
    let adapter = adapters.get(chain.key);
    if (!adapter) {
      if (!chain.rpcUrls?.length) throw new AppError(503, ErrorCode.NotConfigured, `No RPC endpoint is configured for ${chain.key}`);
      adapter = create();
      adapters.set(chain.key, adapter);
    }
    try {
      return await read(adapter);
    } catch (error) {
      // A rule the read itself enforces (an AppError) passes as it is; the chain failing is a 503.
      if (error instanceof AppError) throw error;
      throw new AppError(503, ErrorCode.ChainUnavailable, `${chain.key} could not be read; retry later`);
    }
  }
}
