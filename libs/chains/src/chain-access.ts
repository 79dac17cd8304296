import { AppError, ErrorCode } from '@swap/contracts';
import type { ChainInfo, ChainDirectory } from './chain-directory';
import { EvmAdapter, type RpcObserver } from './evm-adapter';
import { spokeNetworkOf, type SpokeAdapter } from './spokes';

/** One adapter per chain, made on first use; a failed read is a 503 naming the chain, never the RPC address. */
export class ChainAccess {
  private readonly evmAdapters = new Map<string, EvmAdapter>();
  private readonly spokeAdapters = new Map<string, SpokeAdapter>();

  constructor(private readonly options: { timeoutMs: number; observer?: RpcObserver }) {}

  evm<T>(chain: ChainInfo, read: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    return this.withAdapter(
      this.evmAdapters,
      chain,
      () => new EvmAdapter(chain, { timeoutMs: this.options.timeoutMs, observer: this.options.observer }),
      read,
    );
  }

  /** A network kind without an adapter is a 501. */
  spoke<T>(chain: ChainInfo, read: (adapter: SpokeAdapter) => Promise<T>): Promise<T> {
    const network = spokeNetworkOf(chain.type);
    if (!network) return Promise.reject(new AppError(501, ErrorCode.NotImplemented, `Transactions on ${chain.key} are not built yet`));
    return this.withAdapter(this.spokeAdapters, chain, () => network.createAdapter(chain, { timeoutMs: this.options.timeoutMs }), read);
  }

  private async withAdapter<A, T>(
    adapters: Map<string, A>,
    chain: ChainInfo,
    create: () => A,
    read: (adapter: A) => Promise<T>,
  ): Promise<T> {
    let adapter = adapters.get(chain.key);
    if (!adapter) {
      if (!chain.rpcUrls?.length) throw new AppError(503, ErrorCode.NotConfigured, `No RPC endpoint is configured for ${chain.key}`);
      adapter = create();
      adapters.set(chain.key, adapter);
    }
    try {
      return await read(adapter);
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.options.observer?.error(chain.key);
      throw new AppError(503, ErrorCode.ChainUnavailable, `${chain.key} could not be read; retry later`);
    }
  }
}

/** `CHAIN_RPC_URLS` (`0x92.sonic=https://…,solana=https://…`) over the profile's endpoints. */
export function applyRpcUrls(directory: ChainDirectory, list: string | undefined): ChainDirectory {
  for (const pair of list?.split(',') ?? []) {
    const [key, url] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    const chain = directory.findChain(key);
    if (!chain) throw new Error(`CHAIN_RPC_URLS names an unknown chain: ${key}`);
    chain.rpcUrls = [url, ...(chain.rpcUrls ?? []).filter((u) => u !== url)];
  }
  return directory;
}
