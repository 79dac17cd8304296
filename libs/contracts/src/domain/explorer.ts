import type { SubmissionStatusData } from './intent';

/** The explorer reads in the public wire shape (public-api-families.md §3) plus this platform's fields; amounts are decimal strings. */

/** The intent as the hub's IntentCreated event carries it; relay chain ids as numbers (as the public client types them). */
export interface ExplorerIntentFields {
  intentId: string;
  creator: string;
  inputToken: string;
  outputToken: string;
  inputAmount: string;
  minOutputAmount: string;
  deadline: string;
  allowPartialFill: boolean;
  srcChain: number;
  dstChain: number;
  srcAddress: string;
  dstAddress: string;
  solver: string;
  data: string;
}

/** The intents contract's state of an intent, as of the newest event indexed. */
export interface ExplorerIntentState {
  exists: boolean;
  remainingInput: string;
  receivedOutput: string;
  pendingPayment: boolean;
}

export type ExplorerEventName = 'IntentCreated' | 'IntentFilled' | 'IntentCancelled';

export interface ExplorerIntentEvent {
  event: ExplorerEventName;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  /** ISO 8601, the block's time. */
  timestamp: string;
  /** IntentFilled: the state the fill left. */
  intentState?: Omit<ExplorerIntentState, 'exists'>;
  /** IntentFilled: who sent the fill. */
  solver?: string;
}

/** `GET /v1/be/intent/tx/{txHash}`, `GET /v1/be/intent/{intentHash}`, and each item of a user's history. */
export interface ExplorerIntent {
  intentHash: string;
  txHash: string;
  logIndex: number;
  chainId: number;
  chainKey: string;
  blockNumber: number;
  /** ISO 8601, when the hub created it. */
  timestamp: string;
  /** Not cancelled and input remains. */
  open: boolean;
  cancelled: boolean;
  intent: ExplorerIntentFields;
  /** The chain keys of `intent.srcChain` and `intent.dstChain` (null for a chain this deployment does not know). */
  srcChainKey: string | null;
  dstChainKey: string | null;
  intentState: ExplorerIntentState;
  /** Oldest first. */
  events: ExplorerIntentEvent[];
}

/** `GET /v1/be/intent/user/{userAddress}`: newest first. */
export interface UserIntentsPage {
  total: number;
  offset: number;
  limit: number;
  items: ExplorerIntent[];
}

/** `GET /v1/be/intent/swap/{hash}` (source tx, hub tx or intent hash); each part null where unknown here. */
export interface SwapLookup {
  submission: SubmissionStatusData | null;
  intent: ExplorerIntent | null;
  /** The user's transaction: the submission's, else the indexed intent's hub transaction or the spoke deposit it came from. */
  source: { chainKey: string; txHash: string } | null;
  /** The intent's `srcAddress` and `dstAddress` as their networks write them (the hex bytes where they are no address of it). */
  addresses: { from: string; to: string } | null;
}

export interface OrderbookEntry {
  intentState: ExplorerIntentState;
  intentData: ExplorerIntentFields & { intentHash: string; txHash: string; blockNumber: number };
}

/** `GET /v1/be/solver/orderbook`: open intents, newest first. */
export interface OrderbookPage {
  total: number;
  data: OrderbookEntry[];
}

/** One fill event (a partially filled intent has several). */
export interface VolumeRecord {
  intentHash: string;
  /** The fill transaction's sender. */
  solver: string;
  inputToken: string;
  outputToken: string;
  /** The input this fill took (hub units of inputToken). */
  amount: string;
  /** The output this fill gave (hub units of outputToken). */
  outputAmount: string;
  chainId: number;
  blockNumber: number;
  txHash: string;
  logIndex: number;
  /** ISO 8601, the block's time. */
  timestamp: string;
  /** With includeData=true: the intent filled. */
  data?: ExplorerIntentFields;
}

/** `GET /v1/be/solver/volume`: a keyset page. */
export interface VolumePage {
  items: VolumeRecord[];
  /** Pass as `cursor` for the next page (same filters and sort); null on the last page. */
  nextCursor: string | null;
  hasMore: boolean;
}

export interface VolumeStats {
  /** Fill events indexed: an estimate from the table's statistics once it is large, cached about 60 s. */
  filledCount: number;
}

/** This platform's shape: the public one is not published. */
export interface PartnerListItem {
  receiver: string;
  intentCount: number;
  /** Intents filled at least in part. */
  filledCount: number;
  /** ISO 8601, the newest intent naming it. */
  lastSeenAt: string;
}

export interface PartnersList {
  partners: PartnerListItem[];
}

export interface PartnerSummary {
  receiver: string;
  /** The source chain the figures are limited to (its chain key), or null for all. */
  chainId: string | null;
  /** Fees collected, per hub input token: each intent's fee in proportion to the input filled. */
  feeByInputToken: Record<string, string>;
  volumeByOutputToken: Record<string, string>;
}
