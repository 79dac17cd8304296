/**
 * The intent tuple of the hub intents contract, field for field and in ABI order
 * (shared/reference/protocol-facts.md). On the wire every uint256 is a decimal string,
 * addresses are 0x-hex, `srcAddress`/`dstAddress`/`data` are 0x-hex bytes.
 */
export interface Intent {
  intentId: string;
  creator: string;
  inputToken: string;
  outputToken: string;
  inputAmount: string;
  minOutputAmount: string;
  deadline: string;
  allowPartialFill: boolean;
  srcChain: string;
  dstChain: string;
  srcAddress: string;
  dstAddress: string;
  solver: string;
  data: string;
}

export type SubmissionStatus = 'pending' | 'relaying' | 'relayed' | 'posting_execution' | 'posted_execution' | 'solved' | 'failed';

export interface SubmitTxRequest {
  txHash: string;
  srcChainKey: string;
  walletAddress: string;
  intent: Intent;
  relayData: string;
}

export interface SubmitTxResponse {
  success: boolean;
  data: { status: 'inserted' | 'duplicate'; message: string };
}

/** One step of a submission's life as stored: the status it entered, when, and why. */
export interface StoredTransition {
  status: SubmissionStatus;
  at: string;
  detail: string;
}

/** A history entry as answered and announced: with the time spent in the step it closes. */
export interface SubmissionTransition extends StoredTransition {
  /** Milliseconds from the previous entry to this one (0 for the first, and for steps taken at once). */
  durationMs: number;
}

/**
 * Where a submission's status answer is kept in the read models (relay-tracker writes it,
 * swap-gateway serves it): by the canonical chain key and the hash as stored (EVM in lower case).
 */
export function submissionStatusKey(srcChainKey: string, txHash: string): string {
  return `submission-status:${srcChainKey}:${txHash}`;
}

/** The statuses a submission never leaves. */
export const TERMINAL_STATUSES: readonly SubmissionStatus[] = ['solved', 'failed'];

/** A stored history with each entry's durationMs. */
export function withDurations(history: readonly StoredTransition[]): SubmissionTransition[] {
  return history.map((entry, i) => ({
    status: entry.status,
    at: entry.at,
    detail: entry.detail,
    durationMs: i === 0 ? 0 : Math.max(0, Date.parse(entry.at) - Date.parse(history[i - 1].at)),
  }));
}

/** The transactions of a swap, as they become known. */
export interface SubmissionResult {
  /** The hub transaction that created the intent (the source transaction for a hub source). */
  hubTxHash?: string;
  /** The hub transaction in which a solver filled it. */
  fillTxHash?: string;
  /** For a spoke destination: the transaction that paid the receiver there. */
  deliveryTxHash?: string;
}

export interface SubmissionStatusResponse {
  success: true;
  data: {
    txHash: string;
    srcChainKey: string;
    status: SubmissionStatus;
    /** With `failed`: what happened, for a person. */
    userMessage?: string;
    /** With `failed`: the status it failed in. */
    failedAtStep?: SubmissionStatus;
    /** Steps tried since the last move (waits and transient errors; they never fail a swap). */
    processingAttempts: number;
    result?: SubmissionResult;
    /** A failed swap's intent was cancelled on the hub (its input refunded). */
    intentCancelled?: boolean;
    history: SubmissionTransition[];
    intentHash: string;
    createdAt: string;
    updatedAt: string;
    /** solved or failed: the status will not change again. */
    terminal: boolean;
  };
}

/** The `data` of a status answer. */
export type SubmissionStatusData = SubmissionStatusResponse['data'];

/**
 * One event of a submission's status stream: a history entry, numbered from 1 by its place
 * in the history (the stream's event id), with the status answer's data as it was at that
 * transition.
 */
export interface SubmissionStreamEvent {
  seq: number;
  status: SubmissionStatus;
  data: SubmissionStatusData;
}

/** What relay-tracker is asked at submit: the request, and the organisation of the key it came with. */
export type SubmitTxMessage = SubmitTxRequest & { orgId?: string };

/** What the relay is handed with a source transaction: the hub address the message is for, and its bytes. */
export interface RelayDataView {
  address: string;
  payload: string;
}

/** `POST /v1/swaps/intents/packet`: the relay packet of a transaction (a fill's delivery, or a source's message to the hub). */
export interface IntentPacketRequest {
  /** The chain the transaction is on: its relay chain id (`146`) or its chain key. */
  chainId: string;
  /** The transaction: `fillTxHash` (the public client's name) or `txHash`. */
  fillTxHash?: string;
  txHash?: string;
  /** Wait up to this many milliseconds for the packet to be executed (0 to 8000; default 0: answer at once). */
  timeout?: number;
}

/** A relay packet, in the public client's camelCase. */
export interface IntentPacketResponse {
  srcChainId: number;
  srcTxHash: string;
  srcAddress: string;
  status: 'pending' | 'validating' | 'executing' | 'executed';
  dstChainId: number;
  connSn: number;
  dstAddress: string;
  dstTxHash: string;
  signatures: string[];
  payload: string;
}

/** `POST /v1/swaps/intents/extra-data`: exactly one of `txHash` (a tracked submission) and `intent`. */
export interface IntentExtraDataRequest {
  txHash?: string;
  /** With `txHash`, when the same hash was submitted on several chains. */
  srcChainKey?: string;
  intent?: Intent;
}

/** `POST /v1/swaps/intents/submit`: hand a source transaction to the relay, without tracking it. */
export interface IntentSubmitRequest {
  /** The source chain: its relay chain id or its chain key. */
  chainId: string;
  txHash: string;
  /** The build response's relayData; needed where the chain's event does not carry the payload (Solana). */
  data?: RelayDataView;
}

export interface IntentSubmitResponse {
  /** The relay's own answer. */
  result: { success: boolean; message?: string };
}
