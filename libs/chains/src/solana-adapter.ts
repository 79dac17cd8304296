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
import { AppError, ErrorCode, type NetworkTx } from '@swap/contracts';
import { createHash } from 'node:crypto';
import { hexToBytes } from 'viem';
import type { ChainInfo } from './chain-registry';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeSourceCheck } from './spokes/spoke-network';

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

/**
 * Solana through @solana/kit: the recent blockhash from the configured RPC, and the
 * unsigned deposit transaction (fee payer: the user; its signature slot left empty).
 */
export class SolanaAdapter implements SpokeAdapter {
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
   * What sending a base64 wire transaction costs now (lamports, per signature it needs); a
   * transaction whose blockhash has expired is a 422 asking for a new build.
   */
  async feeOf(tx: NetworkTx): Promise<SpokeFee> {
    if (tx.encoding !== 'base64')
      throw AppError.validation([
        {
          field: 'tx.encoding',
          rule: 'solanaTx',
          message: `tx.encoding must be base64: ${this.chain.key} transactions are sent as the builder returned them`,
        },
      ]);
    let transaction: ReturnType<ReturnType<typeof getTransactionDecoder>['decode']>;
    try {
      transaction = getTransactionDecoder().decode(getBase64Encoder().encode(tx.data));
    } catch {
      throw AppError.validation([
        { field: 'tx.data', rule: 'solanaTransaction', message: 'tx.data must be a base64 Solana wire transaction' },
      ]);
    }
    const message = Buffer.from(transaction.messageBytes).toString('base64') as TransactionMessageBytesBase64;
    const { value } = await this.rpc.getFeeForMessage(message).send({ abortSignal: this.signal() });
    if (value === null) throw new AppError(422, ErrorCode.TransactionWouldFail, 'The transaction’s blockhash has expired; build it again');
    const signatures = Object.keys(transaction.signatures).length;
    const fee = BigInt(value);
    return {
      gas: String(signatures),
      price: signatures ? (fee / BigInt(signatures)).toString() : '0',
      fee: fee.toString(),
      unit: 'lamports',
    };
  }

  checkSource(txId: string): Promise<SpokeSourceCheck> {
    void txId;
    return Promise.reject(new AppError(501, ErrorCode.NotImplemented, `Source checks on ${this.chain.key} are not built yet`));
  }

  /** A message to the hub through the connection program (a cancel from Solana). */
  buildMessage(message: SpokeMessage): Promise<NetworkTx> {
    void message;
    return Promise.reject(new AppError(501, ErrorCode.NotImplemented, `Messages from ${this.chain.key} are not built yet`));
  }

  /** The base64 wire transaction of a deposit, signature slot zeroed, ready for the user to sign. */
  async buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx> {
    if (!this.chain.assetManager)
      throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no assetManager configured for ${this.chain.key}`);
    const program = address(this.chain.assetManager);
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
          {
            programAddress: program,
            accounts,
            data: encodeTransferInstructionData(hexToBytes(deposit.to), deposit.amount, hexToBytes(deposit.data)),
          },
          m,
        ),
    );
    return {
      from: deposit.user,
      to: program,
      encoding: 'base64',
      data: getBase64EncodedWireTransaction(compileTransaction(message)),
      recentBlockhash: latest.blockhash,
      lastValidBlockHeight: latest.lastValidBlockHeight.toString(),
    };
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
