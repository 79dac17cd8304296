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

/** One step of a submission's life: the status it entered, when, and why. */
export interface SubmissionTransition {
  status: SubmissionStatus;
  at: string;
  detail: string;
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
  };
}

/** What relay-tracker is asked at submit: the request, and the organisation of the key it came with. */
export type SubmitTxMessage = SubmitTxRequest & { orgId?: string };
