import { createPublicClient, erc20Abi, http, type Address, type Hex, type PublicClient } from 'viem';
import type { ChainInfo } from './chain-registry';
import { HUB_WALLET_FACTORY_ABI } from './protocol-calls';

/** What the services ask of a chain, whatever its kind. */
export interface ChainAdapter {
  readonly chain: ChainInfo;
  /** Timestamp (UNIX seconds) of the latest block. */
  latestBlockTime(): Promise<bigint>;
}

/**
 * An EVM chain through viem: block time, ERC-20 allowances, and the hub wallet a spoke
 * user's intents are created from (asked of the factory once per user, then kept).
 */
export class EvmAdapter implements ChainAdapter {
  private readonly client: PublicClient;
  private readonly hubWallets = new Map<string, Address>();
  private blockTime?: { value: Promise<bigint>; at: number };

  constructor(
    readonly chain: ChainInfo,
    options: { timeoutMs?: number } = {},
  ) {
    const url = chain.rpcUrls?.[0];
    if (!url) throw new Error(`No RPC URL configured for ${chain.key}`);
    // No retries: a caller waiting on a bus reply has its own deadline; a slow chain fails once.
    this.client = createPublicClient({ transport: http(url, { timeout: options.timeoutMs ?? 5_000, retryCount: 0 }) });
  }

  /**
   * Kept for a second (a deadline check needs no fresher clock), and shared while it is
   * being read, so a thousand builds a second make one read, not a thousand.
   */
  latestBlockTime(): Promise<bigint> {
    if (this.blockTime && Date.now() - this.blockTime.at < 1_000) return this.blockTime.value;
    const value = this.client.getBlock({ blockTag: 'latest' }).then((b) => b.timestamp);
    this.blockTime = { value, at: Date.now() };
    value.catch(() => (this.blockTime = undefined));
    return value;
  }

  allowance(token: Address, owner: Address, spender: Address): Promise<bigint> {
    return this.client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] });
  }

  /** The user's wallet on the hub for a spoke (relay chain id, raw address bytes). */
  async hubWalletOf(factory: Address, relayChainId: bigint, user: Hex): Promise<Address> {
    const key = `${relayChainId}:${user.toLowerCase()}`;
    const known = this.hubWallets.get(key);
    if (known) return known;
    const wallet = await this.client.readContract({ address: factory, abi: HUB_WALLET_FACTORY_ABI, functionName: 'getDeployedAddress', args: [relayChainId, user] });
    this.hubWallets.set(key, wallet);
    // Bounded: the oldest users are asked again if they come back.
    if (this.hubWallets.size > 100_000) this.hubWallets.delete(this.hubWallets.keys().next().value as string);
    return wallet;
  }
}
