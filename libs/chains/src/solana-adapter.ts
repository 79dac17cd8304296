import {
  AccountRole,
  addDecoderSizePrefix,
  addEncoderSizePrefix,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createSolanaRpc,
  createTransactionMessage,
  fixDecoderSize,
  fixEncoderSize,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getBytesDecoder,
  getBytesEncoder,
  getCompiledTransactionMessageDecoder,
  getProgramDerivedAddress,
  getStructDecoder,
  getStructEncoder,
  getTransactionDecoder,
  getU128Decoder,
  getU128Encoder,
  getU32Decoder,
  getU32Encoder,
  getU64Decoder,
  getU64Encoder,
  getU8Encoder,
  isSignature,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signature,
  type AccountMeta,
  type Address,
  type Base64EncodedWireTransaction,
  type Blockhash,
  type Instruction,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { AppError, ErrorCode, type NetworkTx } from '@swap/contracts';
import { keccak256, toHex, type Hex } from 'viem';
import type { ChainInfo } from './chain-directory';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeSourceCheck } from './spokes/spoke-network';
import { requireEncoding } from './spokes/network-tx';

export const SOLANA_NATIVE = '11111111111111111111111111111111';
export const SYSTEM_PROGRAM = SOLANA_NATIVE;
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

/** The public client's compute unit limits: a deposit, a message. */
export const DEPOSIT_COMPUTE_UNITS = 1_400_000;
export const MESSAGE_COMPUTE_UNITS = 1_000_000;

/** Anchor discriminators from the mainnet programs' IDLs: the first 8 bytes of sha256("global:<name>"). */
export const TRANSFER_DISCRIMINATOR = new Uint8Array([163, 52, 200, 231, 140, 3, 69, 186]);
export const SEND_MESSAGE_DISCRIMINATOR = new Uint8Array([57, 40, 34, 178, 189, 10, 65, 26]);

/** Borsh `bytes`: a u32 length, then the bytes. */
const borshBytesEncoder = () => addEncoderSizePrefix(getBytesEncoder(), getU32Encoder());

const transferArgsEncoder = getStructEncoder([
  ['discriminator', fixEncoderSize(getBytesEncoder(), 8)],
  ['amount', getU64Encoder()],
  ['to', borshBytesEncoder()],
  ['data', borshBytesEncoder()],
]);

const transferArgsDecoder = getStructDecoder([
  ['discriminator', fixDecoderSize(getBytesDecoder(), 8)],
  ['amount', getU64Decoder()],
  ['to', addDecoderSizePrefix(getBytesDecoder(), getU32Decoder())],
  ['data', addDecoderSizePrefix(getBytesDecoder(), getU32Decoder())],
]);

const sendMessageArgsEncoder = getStructEncoder([
  ['discriminator', fixEncoderSize(getBytesEncoder(), 8)],
  ['dstChainId', getU128Encoder()],
  ['dstAddress', borshBytesEncoder()],
  ['payload', borshBytesEncoder()],
]);

const sendMessageArgsDecoder = getStructDecoder([
  ['discriminator', fixDecoderSize(getBytesDecoder(), 8)],
  ['dstChainId', getU128Decoder()],
  ['dstAddress', addDecoderSizePrefix(getBytesDecoder(), getU32Decoder())],
  ['payload', addDecoderSizePrefix(getBytesDecoder(), getU32Decoder())],
]);

const setComputeUnitLimitEncoder = getStructEncoder([
  ['instruction', getU8Encoder()],
  ['units', getU32Encoder()],
]);
const setComputeUnitPriceEncoder = getStructEncoder([
  ['instruction', getU8Encoder()],
  ['microLamports', getU64Encoder()],
]);

export function computeBudgetInstructions(units: number): Instruction[] {
  const programAddress = address(COMPUTE_BUDGET_PROGRAM);
  return [
    { programAddress, data: setComputeUnitLimitEncoder.encode({ instruction: 2, units }) },
    { programAddress, data: setComputeUnitPriceEncoder.encode({ instruction: 3, microLamports: 0n }) },
  ];
}

/** PDA seeds as the public client derives them. */
export async function assetManagerAccounts(assetManager: string, connection: string) {
  const program = address(assetManager);
  const pda = async (programAddress: Address, ...seeds: Parameters<typeof getProgramDerivedAddress>[0]['seeds']) =>
    (await getProgramDerivedAddress({ programAddress, seeds }))[0];
  return {
    program,
    connection: address(connection),
    config: await pda(program, 'config-seed'),
    nativeVault: await pda(program, 'vault_native'),
    authority: await pda(program, 'dapp_authority'),
    connectionConfig: await pda(address(connection), 'config'),
    tokenVault: (mint: Address) => pda(program, 'vault_seed', getAddressEncoder().encode(mint)),
  };
}

/** Accounts in IDL order; an absent optional account is the program's own address (Anchor's convention). */
export async function transferInstruction(
  programs: { assetManager: string; connection: string },
  deposit: { user: string; token: string; to: Hex; amount: bigint; data: Hex },
): Promise<Instruction> {
  const pdas = await assetManagerAccounts(programs.assetManager, programs.connection);
  const user = address(deposit.user);
  const absent: AccountMeta = { address: pdas.program, role: AccountRole.READONLY };
  const native = deposit.token === SOLANA_NATIVE;
  const mint = address(deposit.token);
  const accounts: AccountMeta[] = [
    { address: user, role: AccountRole.WRITABLE_SIGNER },
    { address: address(SYSTEM_PROGRAM), role: AccountRole.READONLY },
    { address: pdas.config, role: AccountRole.WRITABLE },
    native ? { address: pdas.nativeVault, role: AccountRole.WRITABLE } : absent,
    native ? absent : { address: await pdas.tokenVault(mint), role: AccountRole.WRITABLE },
    native ? absent : { address: await associatedTokenAccount(user, mint), role: AccountRole.WRITABLE },
    { address: pdas.authority, role: AccountRole.READONLY },
    native ? absent : { address: mint, role: AccountRole.READONLY },
    { address: pdas.connection, role: AccountRole.READONLY },
    { address: address(TOKEN_PROGRAM), role: AccountRole.READONLY },
    { address: pdas.connectionConfig, role: AccountRole.WRITABLE },
  ];
  const data = transferArgsEncoder.encode({
    discriminator: TRANSFER_DISCRIMINATOR,
    amount: deposit.amount,
    to: hexBytes(deposit.to),
    data: hexBytes(deposit.data),
  });
  return { programAddress: pdas.program, accounts, data };
}

/** No dapp signer: the program's own address stands in. */
export async function sendMessageInstruction(
  connection: string,
  message: { user: string; dstChainId: bigint; dstAddress: Hex; payload: Hex },
): Promise<Instruction> {
  const program = address(connection);
  const [config] = await getProgramDerivedAddress({ programAddress: program, seeds: ['config'] });
  return {
    programAddress: program,
    accounts: [
      { address: address(message.user), role: AccountRole.WRITABLE_SIGNER },
      { address: program, role: AccountRole.READONLY },
      { address: address(SYSTEM_PROGRAM), role: AccountRole.READONLY },
      { address: config, role: AccountRole.WRITABLE },
    ],
    data: sendMessageArgsEncoder.encode({
      discriminator: SEND_MESSAGE_DISCRIMINATOR,
      dstChainId: message.dstChainId,
      dstAddress: hexBytes(message.dstAddress),
      payload: hexBytes(message.payload),
    }),
  };
}

export function unsignedTransaction(
  feePayer: string,
  lifetime: { blockhash: Blockhash; lastValidBlockHeight: bigint },
  instructions: Instruction[],
): Base64EncodedWireTransaction {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(feePayer), m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}

/** Solana through @solana/kit; what it builds: docs/integrators/networks/solana.md#the-unsigned-answer. */
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

  private programs(): { assetManager: string; connection: string } {
    const { assetManager, connection } = this.chain;
    if (!assetManager || !connection)
      throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no assetManager/connection configured for ${this.chain.key}`);
    return { assetManager, connection };
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

  /** Lamports per signature needed; an expired blockhash is a 422. */
  async feeOf(tx: NetworkTx): Promise<SpokeFee> {
    requireEncoding(tx, 'base64', 'solanaTx', `${this.chain.key} transactions are sent as the builder returned them`);
    let transaction: ReturnType<ReturnType<typeof getTransactionDecoder>['decode']>;
    try {
      transaction = getTransactionDecoder().decode(getBase64Encoder().encode(tx.data));
      getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
    } catch {
      throw AppError.validation([
        { field: 'tx.data', rule: 'solanaTransaction', message: 'tx.data must be a base64 Solana wire transaction' },
      ]);
    }
    // Another network's bytes can decode as a Solana transaction with no signer: only one signed by tx.from is this one.
    const feePayer = Object.keys(transaction.signatures)[0];
    if (!feePayer)
      throw AppError.validation([
        { field: 'tx.data', rule: 'solanaTransaction', message: 'tx.data must be a base64 Solana wire transaction' },
      ]);
    if (feePayer !== tx.from)
      throw AppError.validation([
        {
          field: 'tx.from',
          rule: 'feePayer',
          message: `tx.from must be the transaction's fee payer (${feePayer}), as the builder answered it`,
        },
      ]);
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

  /** The fee payer is the sender; the chain holds only keccak256 of the hub calls. */
  async checkSource(txId: string): Promise<SpokeSourceCheck> {
    if (!isSignature(txId))
      throw AppError.validation([
        { field: 'txHash', rule: 'solanaSignature', message: 'txHash must be a base58 Solana transaction signature' },
      ]);
    const found = await this.rpc
      .getTransaction(signature(txId), { encoding: 'base64', maxSupportedTransactionVersion: 0, commitment: 'confirmed' })
      .send({ abortSignal: this.signal() });
    if (!found) return { found: false };
    const [wire] = found.transaction;
    const compiled = getCompiledTransactionMessageDecoder().decode(
      getTransactionDecoder().decode(getBase64Encoder().encode(wire)).messageBytes,
    );
    const keys: string[] = [
      ...compiled.staticAccounts,
      ...(found.meta?.loadedAddresses?.writable ?? []),
      ...(found.meta?.loadedAddresses?.readonly ?? []),
    ];
    const sender = keys[0];
    if (found.meta?.err) return { found: true, success: false, sender, reason: describeError(found.meta.err) };
    const { assetManager, connection } = this.programs();
    // getTransaction answers versions up to 0 (maxSupportedTransactionVersion), never v1.
    if (!('instructions' in compiled)) return { found: true, success: true, sender };
    for (const ix of compiled.instructions) {
      if (keys[ix.programAddressIndex] === connection && ix.data && startsWith(ix.data, SEND_MESSAGE_DISCRIMINATOR)) {
        const args = sendMessageArgsDecoder.decode(ix.data);
        const message = { to: toHex(Uint8Array.from(args.dstAddress)), dataHash: toHex(Uint8Array.from(args.payload)) };
        return { found: true, success: true, sender, message };
      }
      if (keys[ix.programAddressIndex] !== assetManager || !ix.data || !startsWith(ix.data, TRANSFER_DISCRIMINATOR)) continue;
      const accounts = (ix.accountIndices ?? []).map((i) => keys[i]);
      const args = transferArgsDecoder.decode(ix.data);
      const nativeVault = accounts[3];
      return {
        found: true,
        success: true,
        sender,
        deposit: {
          token: nativeVault !== assetManager ? SOLANA_NATIVE : accounts[7],
          amount: args.amount,
          to: toHex(Uint8Array.from(args.to)),
          dataHash: toHex(Uint8Array.from(args.data)),
        },
      };
    }
    return { found: true, success: true, sender };
  }

  /** It carries keccak256(payload). */
  async buildMessage(message: SpokeMessage): Promise<NetworkTx> {
    const { connection } = this.programs();
    const instruction = await sendMessageInstruction(connection, { ...message, payload: keccak256(message.payload) });
    const latest = await this.latestBlockhash();
    return {
      from: message.user,
      to: connection,
      encoding: 'base64',
      data: unsignedTransaction(message.user, latest, [...computeBudgetInstructions(MESSAGE_COMPUTE_UNITS), instruction]),
      recentBlockhash: latest.blockhash,
      lastValidBlockHeight: latest.lastValidBlockHeight.toString(),
    };
  }

  /** It carries keccak256(data): the relayer needs the data itself. */
  async buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx> {
    const programs = this.programs();
    const instruction = await transferInstruction(programs, { ...deposit, data: keccak256(deposit.data) });
    const latest = await this.latestBlockhash();
    return {
      from: deposit.user,
      to: programs.assetManager,
      encoding: 'base64',
      data: unsignedTransaction(deposit.user, latest, [...computeBudgetInstructions(DEPOSIT_COMPUTE_UNITS), instruction]),
      recentBlockhash: latest.blockhash,
      lastValidBlockHeight: latest.lastValidBlockHeight.toString(),
    };
  }
}

function hexBytes(hex: Hex): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}

function startsWith(data: ArrayLike<number>, prefix: Uint8Array): boolean {
  return data.length >= prefix.length && prefix.every((b, i) => data[i] === b);
}

function describeError(err: unknown): string {
  return JSON.stringify(err, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

async function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const encoder = getAddressEncoder();
  const [ata] = await getProgramDerivedAddress({
    programAddress: address(ASSOCIATED_TOKEN_PROGRAM),
    seeds: [encoder.encode(owner), encoder.encode(address(TOKEN_PROGRAM)), encoder.encode(mint)],
  });
  return ata;
}
