import type { LeverageVault } from './leverage-yield';
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
  /** The token's asset on the hub (intents carry hub assets). */
  hubAsset: string;
  vault: string;
}

/** The public client's `HubAsset`. */
export interface HubAsset {
  asset: string;
  decimal: number;
  vault: string;
  symbol: string;
  name: string;
}

/** `GET /v1/be/config/chains`: the three ids, see docs/integrators/signing.md#three-chain-ids. */
export interface ChainMapEntry {
  key: ChainKey;
  name: string;
  /** EVM, SOLANA, SUI, STELLAR, INJECTIVE, ICON. */
  type: string;
  /** The EVM chain id to sign for; null on other kinds of network. */
  evmChainId: number | null;
  relayChainId: number;
  hub: boolean;
  /** Other names accepted on input (the public network's plain names). */
  aliases: string[];
}

/** `GET /v1/be/config/hub/assets`: per chain key, each token's hub asset by the token's address. */
export type HubAssetsByChain = Record<ChainKey, Record<string, HubAsset>>;

/** `GET /v1/swaps/tokens`: every supported token, grouped by chain key. */
export type TokensByChain = Record<ChainKey, Token[]>;

export interface ChainSummary {
  key: ChainKey;
  name: string;
  type: string;
  chainId: number | string;
  relayChainId: string;
  hub: boolean;
}

/** `version` hashes the content; `startedAt` (ms) lets the newest replicas' catalog win a rollout (docs/architecture/services.md#public-reads). */
export interface ChainCatalogSnapshot {
  version: string;
  startedAt: number;
  chains: (ChainSummary & { aliases: string[] })[];
  tokensByChain: TokensByChain;
  /** Absent from a replica of an earlier release: derived from the tokens then. */
  hubAssets?: HubAssetsByChain;
  /** Absent from a replica of an earlier release: no vaults then. */
  leverageVaults?: LeverageVault[];
  partnerFee: PartnerFee | null;
  /** The leveraged-yield deposits' default fee (VAULT_PARTNER_FEE_*); absent from an earlier release: none. */
  vaultPartnerFee?: PartnerFee | null;
}
