import type { NetworkTx } from '@swap/contracts';
import type { Hex } from 'viem';
import type { ChainInfo, ChainType } from '../chain-directory';

/** `amount` in the token's smallest unit to the 20-byte hub wallet `to`, with `data`, the hub calls. */
export interface SpokeDeposit {
  user: string;
  token: string;
  to: Hex;
  amount: bigint;
  data: Hex;
}

/** A message through the spoke's connection (how a spoke user cancels: the hub wallet runs the calls). */
export interface SpokeMessage {
  user: string;
  dstChainId: bigint;
  dstAddress: Hex;
  payload: Hex;
}

/** What sending a transaction costs now, in the network's fee unit. */
export interface SpokeFee {
  gas: string;
  price: string;
  fee: string;
  unit: string;
}

/** What a transaction hands the hub: `to` the hub wallet, `data` its calls, or `dataHash` where only keccak256 of them is held (Solana). */
export interface SpokeHubLeg {
  to: Hex;
  data?: Hex;
  dataHash?: Hex;
}

/** `deposit` through the asset manager; `message` through the connection (a vault withdrawal: the hub wallet runs the calls). */
export type SpokeSourceCheck =
  | { found: false }
  | { found: true; success: false; sender: string; reason: string }
  | {
      found: true;
      success: true;
      sender: string;
      deposit?: SpokeHubLeg & { token: string; amount: bigint };
      message?: SpokeHubLeg;
    };

/** A non-EVM network's transactions; its errors: docs/architecture/chains.md#spoke-adapters. */
export interface SpokeAdapter {
  readonly chain: ChainInfo;
  buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx>;
  /** A cancel from this network. */
  buildMessage(message: SpokeMessage): Promise<NetworkTx>;
  feeOf(tx: NetworkTx): Promise<SpokeFee>;
  /** The network's own id form: a signature, a digest, a hash. */
  checkSource(txId: string): Promise<SpokeSourceCheck>;
  /** Timestamp (UNIX seconds) of the network's latest block. */
  latestBlockTime?(): Promise<bigint>;
}

/** A network kind's facts; see docs/architecture/chains.md#address-encodings. */
export interface SpokeNetwork {
  readonly type: ChainType;
  /** Takes an address already checked by `addressProblemOn` (libs/contracts). */
  addressBytes(address: string): Hex;
  /** Undefined when the bytes are none of this network's. */
  addressOfBytes(bytes: Hex): string | undefined;
  readonly maxAmount: bigint;
  /** What the amount limit is called in messages ("64 bits"). */
  readonly maxAmountName: string;
  /** Whether the deposit carries only keccak256(data), the relayer needing the payload itself at submit. */
  readonly depositCarriesDataHash: boolean;
  createAdapter(chain: ChainInfo, options: { timeoutMs: number }): SpokeAdapter;
}
