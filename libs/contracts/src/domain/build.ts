import type { Intent } from './intent';

/** PartnerFee (spec): `amount` wins over `percentage` (basis points, 1–100); absent means no fee. */
export interface PartnerFee {
  address: string;
  percentage?: number;
  amount?: string;
}

/** The body of `POST /intents`, `/allowance/check` and `/approve` (spec). */
export interface IntentRequest {
  srcChainKey: string;
  dstChainKey: string;
  inputToken: string;
  outputToken: string;
  inputAmount: string;
  minOutputAmount: string;
  deadline: string;
  allowPartialFill: boolean;
  srcAddress: string;
  dstAddress: string;
  solver: string;
  data: string;
  partnerFee?: PartnerFee;
}

/** `value` in wei as a decimal string, addresses EIP-55; the signer adds nonce, gas and fees. */
export interface EvmTx {
  from: string;
  to: string;
  value: string;
  data: string;
  chainId: number;
}

/** `data` is what the network's wallets sign; forms: docs/integrators/networks/README.md. */
export interface NetworkTx {
  from: string;
  to: string;
  encoding: 'base64' | 'xdr' | 'json';
  data: string;
  /** Solana: the blockhash the transaction embeds. */
  recentBlockhash?: string;
  /** Solana: sign and send before this block height. */
  lastValidBlockHeight?: string;
  /** Stellar: the network passphrase to sign for. */
  networkPassphrase?: string;
}

/** The fee-payer signature slot is empty; sign and send before `lastValidBlockHeight`. */
export interface SolanaTx extends NetworkTx {
  encoding: 'base64';
  recentBlockhash: string;
  lastValidBlockHeight: string;
}

export interface BuildResponse {
  tx: EvmTx | NetworkTx;
  intent: Intent;
  relayData: { address: string; payload: string };
}

export interface AllowanceCheckResponse {
  /** True when no approval stands in the way of the transaction. */
  valid: boolean;
  approvalRequired: boolean;
  spender?: string;
  allowance?: string;
  amount: string;
}

export interface ApproveResponse {
  approvalRequired: boolean;
  tx: EvmTx | null;
  message?: string;
}

export interface CancelRequest {
  srcChainKey: string;
  intent: Intent;
}

/** `POST /intents/cancel`: the unsigned cancel; from a spoke also what the relayer delivers (pass it at submit). */
export interface CancelResponse {
  tx: EvmTx | NetworkTx;
  relayData?: { address: string; payload: string };
}

export interface PartnerFeeResponse {
  amount: string;
  fee: string;
  /** What the intent carries as inputAmount: the amount less the fee. */
  inputAmount: string;
  partnerFee: PartnerFee | null;
}
