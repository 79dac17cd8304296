import {
  addressOfBytesOn,
  applyRpcUrls,
  ChainAccess,
  loadChainDirectory,
  RelayApiClient,
  type ChainInfo,
  type ChainDirectory,
} from '@swap/chains';
import { AppError, canonicalTxHash, ErrorCode } from '@swap/contracts';
import type { Address } from 'viem';
import { followedChains } from '../chain-events/log-decoding';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { RelayTrackerMetrics } from '../relay-tracker.metrics';

export class SettlementChains {
  readonly directory: ChainDirectory;
  readonly access: ChainAccess;
  readonly relay: RelayApiClient;
  private readonly followedKeys: Set<string>;

  constructor(config: RelayTrackerConfig, metrics?: RelayTrackerMetrics) {
    this.directory = applyRpcUrls(loadChainDirectory(config.CHAIN_PROFILE), config.CHAIN_RPC_URLS);
    this.access = new ChainAccess({ timeoutMs: config.CHAIN_RPC_TIMEOUT_MS, observer: metrics });
    this.relay = new RelayApiClient(config.RELAY_API_URL, { timeoutMs: config.RELAY_API_TIMEOUT_MS });
    this.followedKeys = new Set(followedChains(this.directory).map((c) => c.key));
  }

  /** A source transaction's hash as submissions store it: canonicalTxHash of its chain, as given on a chain this deployment does not know. */
  storedTxHash(txHash: string, srcChainKey: string): string {
    const chain = this.directory.findChain(srcChainKey);
    return chain ? canonicalTxHash(chain.type, txHash) : txHash;
  }

  /** An intent's address bytes as the chain writes them (EIP-55, base58, bech32, …); as given on a chain this deployment does not know. */
  addressOn(chainKey: string | null, bytes: string): string {
    const chain = chainKey ? this.directory.findChain(chainKey) : undefined;
    return chain ? addressOfBytesOn(chain.type, bytes) : bytes;
  }

  /** Whether a follower of this deployment reads the chain into the index (an EVM chain with an RPC endpoint). */
  followed(chainKey: string): boolean {
    return this.followedKeys.has(chainKey);
  }

  get hub(): ChainInfo {
    return this.directory.hub;
  }

  chain(key: string): ChainInfo {
    return this.directory.getChain(key);
  }

  byRelayId(relayChainId: string): ChainInfo | undefined {
    return this.directory.chains.find((c) => c.relayChainId === relayChainId);
  }

  intents(): Address {
    const address = this.hub.contracts?.intents;
    if (!address) throw new AppError(503, ErrorCode.NotConfigured, 'This deployment has no intents contract configured for the hub');
    return address as Address;
  }
}
