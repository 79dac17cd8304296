/**
 * What relay-tracker's chain followers read into the index (docs/architecture/settlement.md):
 * the hub's intent events, the connections' messages and their deliveries, and, on a spoke,
 * any other activity of its asset manager. One row per log.
 */
export type ChainEventKind = 'intent_created' | 'intent_filled' | 'intent_cancelled' | 'message_sent' | 'message_received' | 'activity';

export interface IndexedChainEvent {
  chainKey: string;
  /** Decimal strings: block numbers outgrow JSON numbers on no chain today, but amounts would. */
  blockNumber: string;
  blockHash: string;
  logIndex: number;
  txHash: string;
  /** ISO 8601, the block's time. */
  blockTime: string;
  kind: ChainEventKind;
  /** intent_*: the intent's hash. */
  intentHash?: string;
  /** message_*: the relay chain id at the other end (the destination of a sent message, the source of a received one). */
  peerChain?: string;
  /** message_*: the connection's sequence number. */
  connSn?: string;
  /** What else the event says (an intent_created's intent; a message_received's `ok`). */
  data?: Record<string, unknown>;
}

/**
 * One step of a follower, as handed to settlement: the events of blocks `fromBlock`…`toBlock`
 * of one chain, or (with `retractedAfter`) the news that blocks after it were dropped by a
 * reorganisation and their events taken out of the index.
 */
export interface ChainEventBatch {
  chainKey: string;
  fromBlock: string;
  toBlock: string;
  events: IndexedChainEvent[];
  retractedAfter?: string;
  /** The events retracted (with retractedAfter): the swaps they concern are looked at again. */
  retracted?: IndexedChainEvent[];
}

/** quote-builder built an intent (announced off the reply path): relay-tracker keeps it to adopt the swap if nobody submits it. */
export interface IntentBuiltEvent {
  intentHash: string;
  srcChainKey: string;
  dstChainKey: string;
  /** UNIX seconds; "0" for a limit order. */
  deadline: string;
  /** The organisation of the API key the build came with, if one identified it. */
  orgId?: string;
}
