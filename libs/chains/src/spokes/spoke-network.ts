import type { NetworkTx } from '@swap/contracts';
import type { Hex } from 'viem';
import type { ChainInfo, ChainType } from '../chain-registry';

/**
 * A deposit into a spoke's asset manager, in the network's own terms: `user` sends
 * `amount` (the token's smallest unit) of `token` (as the registry lists it) to the hub
 * wallet `to` (20 bytes), with `data`, the hub calls the relayer delivers.
 */
export interface SpokeDeposit {
  user: string;
  token: string;
  to: Hex;
  amount: bigint;
  data: Hex;
}

/**
 * A message through the spoke's connection contract: `user` asks for `payload` to be
 * delivered to `dstAddress` on relay chain `dstChainId` (how a spoke user cancels: the
 * hub wallet runs the calls).
 */
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

/**
 * A source transaction as the network reports it: not (yet) found; found and failed on
 * chain; or found and successful, with its signer and, when it called the asset manager's
 * deposit, what the deposit carried (`data` where the transaction holds the hub calls
 * themselves, `dataHash` where it holds only their keccak256, as Solana's does).
 */
export type SpokeSourceCheck =
  | { found: false }
  | { found: true; success: false; sender: string; reason: string }
  | {
      found: true;
      success: true;
      sender: string;
      deposit?: { token: string; amount: bigint; to: Hex; data?: Hex; dataHash?: Hex };
    };

/**
 * One network's transactions, behind the interface every non-EVM network shares: built
 * with the network's official library from reads of its RPC (made through the adapter,
 * bounded by `timeoutMs`). An RPC that fails or is slow throws a plain error (ChainAccess
 * answers it as a 503 naming the chain); a transaction the caller got wrong throws an
 * AppError (a 400 naming the field, or a 422 when the network would refuse it).
 */
export interface SpokeAdapter {
  readonly chain: ChainInfo;
  /** The unsigned deposit of a swap's input (the intent's hub calls ride with it). */
  buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx>;
  /** The unsigned message to the hub (a cancel from this network). */
  buildMessage(message: SpokeMessage): Promise<NetworkTx>;
  /** What a transaction as the builder answered it costs to send now. */
  feeOf(tx: NetworkTx): Promise<SpokeFee>;
  /** A source transaction by its id (the network's own form: a signature, a digest, a hash). */
  checkSource(txId: string): Promise<SpokeSourceCheck>;
  /** Timestamp (UNIX seconds) of the network's latest block. */
  latestBlockTime?(): Promise<bigint>;
}

/**
 * A network kind's facts: how its addresses travel inside an intent (the public client's
 * `encodeAddress`), the largest amount its deposit carries, and its adapter. Addresses
 * reach `addressBytes` already checked by `addressProblemOn` (libs/contracts).
 */
export interface SpokeNetwork {
  readonly type: ChainType;
  /** The raw bytes the intent carries for an address of this network. */
  addressBytes(address: string): Hex;
  /** The address whose bytes these are (the inverse of addressBytes); undefined when they are none of this network's. */
  addressOfBytes(bytes: Hex): string | undefined;
  /** The largest deposit amount the network's transfer takes (u64, i128 …). */
  readonly maxAmount: bigint;
  /** What the amount limit is called in messages ("64 bits"). */
  readonly maxAmountName: string;
  /** Whether the deposit carries only keccak256(data), the relayer needing the payload itself at submit. */
  readonly depositCarriesDataHash: boolean;
  createAdapter(chain: ChainInfo, options: { timeoutMs: number }): SpokeAdapter;
}
