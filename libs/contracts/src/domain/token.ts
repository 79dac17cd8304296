import type { PartnerFee } from './build';
/** A chain key as the spec names networks: EVM `<hex_chain_id>.<network_name>`, others a plain name. */
export type ChainKey = string;

/** A swappable token as the public API shows it (spec: Resources → Token). */
export interface Token {
  symbol: string;
  name: string;
  decimals: number;
  address: string;
  chainKey: ChainKey;
  /** The token's asset on the hub (intents carry hub assets), as the public client's token type has it. */
  hubAsset: string;
  /** The hub vault that holds the hub asset. */
  vault: string;
}

/** A token's asset on the hub, as the public client's config types it (`HubAsset`). */
export interface HubAsset {
  /** The hub asset's address. */
  asset: string;
  /** The hub asset's decimals. */
  decimal: number;
  vault: string;
  symbol: string;
  name: string;
}

/**
 * `GET /v1/be/config/chains`: one entry per chain, with the three ids an integrator meets:
 * the chain key (what every route takes), the EVM chain id (what a wallet signs for) and
 * the relay chain id (what an intent's srcChain/dstChain and the relay routes carry).
 */
export interface ChainMapEntry {
  key: ChainKey;
  name: string;
  /** The network's kind: EVM, SOLANA, SUI, STELLAR, INJECTIVE, ICON. */
  type: string;
  /** The EVM chain id to sign for; null on other kinds of network. */
  evmChainId: number | null;
  relayChainId: number;
  hub: boolean;
  /** Other names accepted for this chain on input (the public network's plain names). */
  aliases: string[];
}

/** `GET /v1/be/config/hub/assets`: per chain key, each token's hub asset by the token's address. */
export type HubAssetsByChain = Record<ChainKey, Record<string, HubAsset>>;

/** `GET /v1/swaps/tokens`: every supported token, grouped by chain key. */
export type TokensByChain = Record<ChainKey, Token[]>;

/** What other services need to know of a chain (the registry in quote-builder holds the rest). */
export interface ChainSummary {
  key: ChainKey;
  name: string;
  type: string;
  chainId: number | string;
  relayChainId: string;
  hub: boolean;
}

/**
 * What the public reads need of quote-builder's registry, held in memory by the services
 * that serve them (swap-gateway): every chain (with its aliases), every token, and the
 * deployment's partner fee. `version` is a hash of the content: equal snapshots, equal
 * versions, whichever replica sent them. `startedAt` (ms) is when the sending replica
 * started: during a rollout the newest replicas' registry wins, whatever answers later.
 */
export interface ChainCatalogSnapshot {
  version: string;
  startedAt: number;
  chains: (ChainSummary & { aliases: string[] })[];
  tokensByChain: TokensByChain;
  /** Each token's hub asset (absent from a replica of an earlier release: derived from the tokens then). */
  hubAssets?: HubAssetsByChain;
  partnerFee: PartnerFee | null;
}
