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
