import type { BuildResponse, PartnerFee } from './build';

/** The only quote type the spec supports: the input amount is fixed, the output quoted. */
export const QuoteTypes = ['exact_input'] as const;
export type QuoteType = (typeof QuoteTypes)[number];

/** The body of `POST /v1/swaps/quote` (spec). */
export interface QuoteRequest {
  tokenSrc: string;
  tokenSrcChainKey: string;
  tokenDst: string;
  tokenDstChainKey: string;
  /** Source token smallest unit: what the user deposits, the partner fee included. */
  amount: string;
  quoteType: QuoteType;
  partnerFee?: PartnerFee;
  /** Required with `includeTxData`. */
  srcAddress?: string;
  dstAddress?: string;
  /** Slippage tolerance of the txData's minOutputAmount, basis points (default: the deployment's). */
  slippageBps?: number;
}

export interface QuoteResponse {
  /** Destination token smallest unit. */
  quotedAmount: string;
  /** The recorded quote; the public client's `quote_uuid` at `/v1/intent/execute`. */
  quoteId: string;
  /** After this the quote is not honoured at execution. */
  expiresAt: string;
  /** The partner fee taken off `amount` before solvers were asked (source smallest unit). */
  feeAmount: string;
  txData?: BuildResponse;
}

export type QuoteMessage = QuoteRequest & { includeTxData: boolean };

/** One solver's part in a quote, as recorded for audit. */
export interface QuoteAnswer {
  solverId: string;
  solver: string;
  /** Output in hub-asset units, when the solver quoted. */
  quotedAmount?: string;
  /** The protocol's negative code when it declined (-4 no path, -5/-8 liquidity), and its reason. */
  declined?: number;
  reason?: string;
  /** No usable answer: it left first, answered garbage, or not by the deadline. */
  missed?: 'disconnected' | 'invalid' | 'late';
  ms?: number;
}

export interface QuoteRecord {
  id: string;
  createdAt: string;
  expiresAt: string;
  requestId: string | null;
  /** Null for quotes asked through the solver API (hub assets only). */
  srcChainKey: string | null;
  dstChainKey: string | null;
  tokenSrc: string | null;
  tokenDst: string | null;
  hubTokenSrc: string;
  hubTokenDst: string;
  amount: string;
  feeAmount: string;
  hubAmountIn: string;
  hubQuotedAmount: string;
  quotedAmount: string;
  solverId: string;
  solver: string;
  answers: QuoteAnswer[];
}

/** `POST /v1/swaps/gas/estimate`: a transaction as a builder returned it. */
export interface GasEstimateRequest {
  chainKey: string;
  tx: {
    from: string;
    to: string;
    value?: string;
    data: string;
    encoding?: 'base64' | 'xdr' | 'json';
    networkPassphrase?: string;
    recentBlockhash?: string;
    lastValidBlockHeight?: string;
    /** EVM: the chain id a builder wrote; it must be the chain key's. */
    chainId?: number;
  };
}

export interface GasEstimateResponse {
  chainKey: string;
  /** Gas units (EVM); the number of signatures (Solana); the network's own measure elsewhere. */
  gas: string;
  /** Wei per gas (EVM: the fee per gas the chain asks now); lamports per signature (Solana); per unit of gas elsewhere. */
  price: string;
  /** gas × price, in the chain's native smallest unit. */
  fee: string;
  /** The native smallest unit: wei, lamports, mist (Sui), stroops (Stellar), inj (Injective), loop (ICON). */
  unit: string;
}

/** `POST /v1/swaps/intents/status`: the solver's view of a hub intent transaction. */
export interface IntentStatusResponse {
  /** -1 not found, 1 not started, 2 in progress, 3 solved, 4 failed (the protocol's codes). */
  status: number;
  intentHash?: string;
  fillTxHash?: string;
  /** With status 4: the intent was cancelled on the hub (its input went back to the user). */
  cancelled?: boolean;
}
