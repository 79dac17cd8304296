import type { LeverageOperation } from './intent';

/** One row per log the chain followers index: docs/architecture/settlement.md#chain-followers. */
export type ChainEventKind = 'intent_created' | 'intent_filled' | 'intent_cancelled' | 'message_sent' | 'message_received' | 'activity';

export interface IndexedChainEvent {
  chainKey: string;
  /** Decimal strings: block numbers outgrow JSON numbers on no chain today, but amounts would. */
  blockNumber: string;
  blockHash: string;
  logIndex: number;
  txHash: string;
  /** ISO 8601. */
  blockTime: string;
  kind: ChainEventKind;
  intentHash?: string;
  /** message_*: the relay chain id at the other end (the destination of a sent message, the source of a received one). */
  peerChain?: string;
  connSn?: string;
  /** An intent_created's intent; a message_received's `ok`. */
  data?: Record<string, unknown>;
}

/** Blocks `fromBlock`…`toBlock` of one chain, or (`retractedAfter`) blocks dropped by a reorganisation. */
export interface ChainEventBatch {
  chainKey: string;
  fromBlock: string;
  toBlock: string;
  events: IndexedChainEvent[];
  retractedAfter?: string;
  /** The swaps they concern are looked at again. */
  retracted?: IndexedChainEvent[];
}

/** Kept by relay-tracker to adopt the swap if nobody submits it (docs/architecture/settlement.md#adoption). */
export interface IntentBuiltEvent {
  intentHash: string;
  srcChainKey: string;
  dstChainKey: string;
  /** UNIX seconds; "0" for a limit order. */
  deadline: string;
  orgId?: string;
  /** A vault deposit or withdrawal; none for a swap. */
  operation?: LeverageOperation;
}
