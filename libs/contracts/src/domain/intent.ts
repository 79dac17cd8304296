/** The hub's intent tuple in ABI order: uint256 as decimal strings, addresses and bytes as 0x-hex. */
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

export const SUBMISSION_STATUSES = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved', 'failed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

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

export interface StoredTransition {
  status: SubmissionStatus;
  at: string;
  detail: string;
}

export interface SubmissionTransition extends StoredTransition {
  /** Milliseconds since the previous entry (0 for the first, and for steps taken at once). */
  durationMs: number;
}

/** The read-model key: canonical chain key and the hash as stored (EVM in lower case). */
export function submissionStatusKey(srcChainKey: string, txHash: string): string {
  return `submission-status:${srcChainKey}:${txHash}`;
}

export const TERMINAL_STATUSES: readonly SubmissionStatus[] = ['solved', 'failed'];

export function withDurations(history: readonly StoredTransition[]): SubmissionTransition[] {
  return history.map((entry, i) => ({
    status: entry.status,
    at: entry.at,
    detail: entry.detail,
    durationMs: i === 0 ? 0 : Math.max(0, Date.parse(entry.at) - Date.parse(history[i - 1].at)),
  }));
}

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
    /** A leveraged-yield submission's kind; absent for a swap. */
    operation?: LeverageOperation;
  };
}

/** How a leveraged-yield submit-tx is stored (its body says `deposit` or `withdraw`). */
export type LeverageOperation = 'leverage_deposit' | 'leverage_withdraw';

export type SubmissionStatusData = SubmissionStatusResponse['data'];

/** A row of an organisation's fee report: partner fees of its solved swaps. */
export interface OrgFeeRow {
  /** YYYY-MM-DD (UTC), when the swaps were solved. */
  day: string;
  /** The hub token the fee was taken in (the intent's input token), lower case. */
  token: string;
  receiver: string;
  /** In the token's smallest unit, a decimal string. */
  amount: string;
  swaps: number;
}

/** `seq` numbers history entries from 1 (the stream's event id); `data` as it was at that transition. */
export interface SubmissionStreamEvent {
  seq: number;
  status: SubmissionStatus;
  data: SubmissionStatusData;
}

export type SubmitTxMessage = SubmitTxRequest & { orgId?: string; operation?: LeverageOperation };

export interface RelayDataView {
  address: string;
  payload: string;
}

/** `POST /v1/swaps/intents/packet`. */
export interface IntentPacketRequest {
  /** The chain the transaction is on: its relay chain id (`146`) or its chain key. */
  chainId: string;
  /** The public client's name for `txHash`. */
  fillTxHash?: string;
  txHash?: string;
  /** Wait up to this many milliseconds for the packet to be executed (0 to 8000; default 0: answer at once). */
  timeout?: number;
}

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

/** `POST /v1/swaps/intents/submit`: not tracked. */
export interface IntentSubmitRequest {
  /** Relay chain id or chain key. */
  chainId: string;
  txHash: string;
  /** The build response's relayData; needed where the chain's event does not carry the payload (Solana). */
  data?: RelayDataView;
}

export interface IntentSubmitResponse {
  result: { success: boolean; message?: string };
}
