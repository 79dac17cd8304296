import type { PartnerFee } from './build';
import type { Intent } from './intent';

/** A leveraged-yield vault as the public registry lists it; its address is its ERC-4626 share token on the hub. */
export interface LeverageVault {
  name: string;
  vault: string;
  asset: string;
  borrowToken: string;
  lsdSource?: LsdSource;
}

export interface LsdSource {
  poolId: string;
  fallbackAprPct: number;
  label: string;
}

export interface VaultPosition {
  collateral: string;
  debt: string;
  ltv: string;
  healthFactor: string;
  idleAsset: string;
}

export interface VaultApr {
  supplyAprRay: string;
  borrowAprRay: string;
  targetLtvBps: string;
  leverageMultiplierWad: string;
  netAprRay: string;
}

export interface LsdApr {
  aprRay: string;
  label: string;
  stale: boolean;
}

export interface VaultEffectiveApr extends VaultApr {
  lsdApr: LsdApr;
  effectiveSupplyAprRay: string;
  effectiveNetAprRay: string;
}

/** What each read of `quote-builder.vaults.read` answers. */
export interface VaultReads {
  asset: { asset: string };
  position: VaultPosition;
  apr: VaultApr;
  aprEffective: VaultEffectiveApr;
  aprLsd: LsdApr;
  totalAssets: { totalAssets: string };
  previewDeposit: { shares: string };
  previewWithdraw: { shares: string };
  previewRedeem: { assets: string };
  shareBalance: { balance: string };
  maxWithdraw: { maxWithdraw: string };
}

export type VaultRead = keyof VaultReads;

/** `amount`: assets for previewDeposit/previewWithdraw, shares for previewRedeem; `owner`: a hub wallet for shareBalance/maxWithdraw. */
export interface VaultReadRequest {
  read: VaultRead;
  vault: string;
  amount?: string;
  owner?: string;
}

/** `POST /v1/leverage-yield/quote/deposit`: a spoke token into a vault's shares. */
export interface DepositQuoteRequest {
  vault: string;
  tokenSrc: string;
  tokenSrcChainKey: string;
  /** Input token smallest unit, the partner fee included. */
  amount: string;
  quoteType: 'exact_input';
  partnerFee?: PartnerFee;
  /** Required with `includeTxData`. */
  srcAddress?: string;
  slippageBps?: number;
}

export type DepositQuoteMessage = DepositQuoteRequest & { includeTxData: boolean };

/** The body of `/intents/deposit`, `/allowance/check` and `/approve`: the shares land in the sender's hub wallet. */
export interface DepositIntentRequest {
  vault: string;
  srcChainKey: string;
  srcAddress: string;
  inputToken: string;
  inputAmount: string;
  /** Shares (18 decimals), slippage applied. */
  minOutputAmount: string;
  /** UNIX seconds; "0" never expires; omitted: the hub's time + 300 s. */
  deadline?: string;
  solver?: string;
  partnerFee?: PartnerFee;
}

/** `POST /v1/leverage-yield/quote/withdraw`: shares into a token on any network; no partner fee on this wire. */
export interface WithdrawQuoteRequest {
  vault: string;
  /** The network the user signs on (its hub wallet holds the shares). */
  srcChainKey: string;
  tokenDst: string;
  tokenDstChainKey: string;
  /** Shares (18 decimals). */
  amount: string;
  quoteType: 'exact_input';
  /** Required with `includeTxData`. */
  srcAddress?: string;
  dstAddress?: string;
  slippageBps?: number;
}

export type WithdrawQuoteMessage = WithdrawQuoteRequest & { includeTxData: boolean };

/** `POST /v1/leverage-yield/intents/withdraw`: signed on the spoke the shares were deposited from. */
export interface WithdrawIntentRequest {
  vault: string;
  srcChainKey: string;
  srcAddress: string;
  dstChainKey: string;
  outputToken: string;
  /** Shares (18 decimals). */
  inputAmount: string;
  /** Output token smallest unit, slippage applied. */
  minOutputAmount: string;
  /** Default: srcAddress. */
  recipient?: string;
  deadline?: string;
  solver?: string;
}

/** The intent a hub transaction created and its state (the contract's intentStates), amounts as decimal strings. */
export interface IntentLookup {
  intentHash: string;
  intent: Intent;
  state: { exists: boolean; remainingInput: string; receivedOutput: string; pendingPayment: boolean };
}
