/** A chain key as the spec names networks: EVM `<hex_chain_id>.<network_name>`, others a plain name. */
export type ChainKey = string;

/** A swappable token as the public API shows it (spec: Resources → Token). */
export interface Token {
  symbol: string;
  name: string;
  decimals: number;
  address: string;
  chainKey: ChainKey;
}

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
