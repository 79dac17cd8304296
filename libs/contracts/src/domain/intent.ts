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

export interface SubmissionStatusResponse {
  data: {
    status: SubmissionStatus;
    userMessage?: string;
    txHash: string;
    srcChainKey: string;
    intentHash: string;
    createdAt: string;
    updatedAt: string;
  };
}
