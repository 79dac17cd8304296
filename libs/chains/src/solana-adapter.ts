import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createSolanaRpc,
  createTransactionMessage,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  getProgramDerivedAddress,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { createHash } from 'node:crypto';
import type { ChainAdapter } from './evm-adapter';
import type { ChainInfo } from './chain-registry';

export const SOLANA_NATIVE = '11111111111111111111111111111111';
export const SYSTEM_PROGRAM = SOLANA_NATIVE;
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

/**
 * The asset manager's `transfer` instruction as this project encodes it (Anchor
 * convention: the first 8 bytes of sha256("global:transfer"), then borsh
 * `to: Vec<u8>, amount: u64, data: Vec<u8>`). The real program's IDL is not among the
 * public facts this project builds on; the layout is documented with the adapter.
 */
export const TRANSFER_DISCRIMINATOR = createHash('sha256').update('global:transfer').digest().subarray(0, 8);

export function encodeTransferInstructionData(to: Uint8Array, amount: bigint, data: Uint8Array): Uint8Array {
  const out = Buffer.alloc(8 + 4 + to.length + 8 + 4 + data.length);
  let offset = 0;
  TRANSFER_DISCRIMINATOR.copy(out, offset);
  offset += 8;
  out.writeUInt32LE(to.length, offset);
  offset += 4;
  out.set(to, offset);
  offset += to.length;
  out.writeBigUInt64LE(amount, offset);
  offset += 8;
  out.writeUInt32LE(data.length, offset);
  offset += 4;
  out.set(data, offset);
  return out;
}

export interface SolanaDeposit {
  program: string;
  user: string;
  /** The mint, or SOLANA_NATIVE for SOL. */
  token: string;
  to: Uint8Array;
  amount: bigint;
  data: Uint8Array;
}

/**
 * Solana through @solana/kit: the recent blockhash from the configured RPC, and the
 * unsigned deposit transaction (fee payer: the user; its signature slot left empty).
 */
export class SolanaAdapter implements ChainAdapter {
  private readonly rpc: ReturnType<typeof createSolanaRpc>;

  constructor(
    readonly chain: ChainInfo,
    private readonly options: { timeoutMs?: number } = {},
  ) {
    const url = chain.rpcUrls?.[0];
    if (!url) throw new Error(`No RPC URL configured for ${chain.key}`);
    this.rpc = createSolanaRpc(url);
  }

  private signal(): AbortSignal {
    return AbortSignal.timeout(this.options.timeoutMs ?? 5_000);
  }

  async latestBlockTime(): Promise<bigint> {
    const slot = await this.rpc.getSlot().send({ abortSignal: this.signal() });
    return BigInt((await this.rpc.getBlockTime(slot).send({ abortSignal: this.signal() })) ?? Math.floor(Date.now() / 1000));
  }

  latestBlockhash(): Promise<{ blockhash: Blockhash; lastValidBlockHeight: bigint }> {
    return this.rpc
      .getLatestBlockhash()
      .send({ abortSignal: this.signal() })
      .then((r) => r.value);
  }

  /**
   * What sending a base64 wire transaction costs now (lamports), and how many signatures it
   * needs; null fee when its blockhash has expired.
   */
  async feeOf(base64Transaction: string): Promise<{ fee: bigint | null; signatures: number }> {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64Transaction));
    const message = Buffer.from(transaction.messageBytes).toString('base64') as TransactionMessageBytesBase64;
    const { value } = await this.rpc.getFeeForMessage(message).send({ abortSignal: this.signal() });
    return { fee: value === null ? null : BigInt(value), signatures: Object.keys(transaction.signatures).length };
  }

  /** The base64 wire transaction of a deposit, signature slot zeroed, ready for the user to sign. */
  async buildDeposit(deposit: SolanaDeposit): Promise<{ base64: string; blockhash: string; lastValidBlockHeight: string }> {
    const program = address(deposit.program);
    const user = address(deposit.user);
    const [vault] = await getProgramDerivedAddress({ programAddress: program, seeds: ['vault'] });
    const accounts =
      deposit.token === SOLANA_NATIVE
        ? [
            { address: user, role: AccountRole.WRITABLE_SIGNER },
            { address: vault, role: AccountRole.WRITABLE },
            { address: address(SYSTEM_PROGRAM), role: AccountRole.READONLY },
          ]
        : [
            { address: user, role: AccountRole.WRITABLE_SIGNER },
            { address: await associatedTokenAccount(user, address(deposit.token)), role: AccountRole.WRITABLE },
            { address: await associatedTokenAccount(vault, address(deposit.token)), role: AccountRole.WRITABLE },
            { address: address(deposit.token), role: AccountRole.READONLY },
            { address: address(TOKEN_PROGRAM), role: AccountRole.READONLY },
          ];
    const latest = await this.latestBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(user, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) =>
        appendTransactionMessageInstruction(
          { programAddress: program, accounts, data: encodeTransferInstructionData(deposit.to, deposit.amount, deposit.data) },
          m,
        ),
    );
    const base64 = getBase64EncodedWireTransaction(compileTransaction(message));
    return { base64, blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight.toString() };
  }
}

async function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const encoder = getAddressEncoder();
  const [ata] = await getProgramDerivedAddress({
    programAddress: address(ASSOCIATED_TOKEN_PROGRAM),
    seeds: [encoder.encode(owner), encoder.encode(address(TOKEN_PROGRAM)), encoder.encode(mint)],
  });
  return ata;
}
