import {
  Account,
  Address,
  BASE_FEE,
  Contract,
  FeeBumpTransaction,
  StrKey,
  TransactionBuilder,
  nativeToScVal,
  rpc,
  scValToBigInt,
  scValToNative,
  type Transaction,
  type xdr,
} from '@stellar/stellar-sdk';
import { AppError, ErrorCode, type NetworkTx } from '@swap/contracts';
import { hexToBytes, toHex, type Hex } from 'viem';
import type { ChainInfo } from '../chain-directory';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeSourceCheck } from './spoke-network';
import { requireEncoding, requireSigner } from './network-tx';

/** Bid above the base fee (@sodax/sdk STELLAR_PRIORITY_FEE). */
export const STELLAR_PRIORITY_FEE = 10_000n;
/** @sodax/sdk STELLAR_DEFAULT_TX_TIMEOUT_SECONDS. */
export const STELLAR_TX_TIMEOUT_SECONDS = 100;

export function depositOperation(assetManager: string, deposit: SpokeDeposit): xdr.Operation {
  return new Contract(assetManager).call(
    'transfer',
    nativeToScVal(Address.fromString(deposit.user), { type: 'address' }),
    nativeToScVal(Address.fromString(deposit.token), { type: 'address' }),
    nativeToScVal(deposit.amount, { type: 'u128' }),
    nativeToScVal(Buffer.from(hexToBytes(deposit.to)), { type: 'bytes' }),
    nativeToScVal(Buffer.from(hexToBytes(deposit.data)), { type: 'bytes' }),
  );
}

export function sendMessageOperation(connection: string, message: SpokeMessage): xdr.Operation {
  return new Contract(connection).call(
    'send_message',
    nativeToScVal(Address.fromString(message.user), { type: 'address' }),
    nativeToScVal(message.dstChainId, { type: 'u128' }),
    nativeToScVal(Buffer.from(hexToBytes(message.dstAddress)), { type: 'bytes' }),
    nativeToScVal(Buffer.from(hexToBytes(message.payload)), { type: 'bytes' }),
  );
}

/** `sequence` is the account's current one: building uses the next. */
export function invocationTransaction(
  source: string,
  sequence: string,
  passphrase: string,
  operation: xdr.Operation,
  fee: bigint,
): Transaction {
  return new TransactionBuilder(new Account(source, sequence), { fee: fee.toString(), networkPassphrase: passphrase })
    .addOperation(operation)
    .setTimeout(STELLAR_TX_TIMEOUT_SECONDS)
    .build();
}

/** As the public client submits it: assembling adds the resource fee once more, as the declared resource fee. */
export function assembledInvocation(
  source: string,
  sequence: string,
  passphrase: string,
  operation: xdr.Operation,
  simulation: rpc.Api.SimulateTransactionSuccessResponse,
): Transaction {
  const fee = BigInt(simulation.minResourceFee) + STELLAR_PRIORITY_FEE + BigInt(BASE_FEE);
  const priority = invocationTransaction(source, sequence, passphrase, operation, fee);
  return rpc.assembleTransaction(priority, simulation).build() as Transaction;
}

/** Stellar through Soroban RPC, no Horizon; what it builds: docs/integrators/networks/stellar.md#the-unsigned-transaction. */
export class StellarAdapter implements SpokeAdapter {
  private readonly server: rpc.Server;
  private passphrase?: string;

  constructor(
    readonly chain: ChainInfo,
    private readonly options: { timeoutMs?: number } = {},
  ) {
    const url = chain.rpcUrls?.[0];
    if (!url) throw new Error(`No RPC URL configured for ${chain.key}`);
    const timeout = options.timeoutMs ?? 5_000;
    this.server = new rpc.Server(url, { allowHttp: url.startsWith('http://'), timeout });
    // rpc.Server takes the timeout option but its fetch client reads it from the defaults.
    (this.server.httpClient.defaults as { timeout?: number }).timeout = timeout;
  }

  /** The library rejects with plain objects: they become Errors, which ChainAccess answers as a 503. */
  private async read<T>(what: string, call: (server: rpc.Server) => Promise<T>): Promise<T> {
    const ms = this.options.timeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        call(this.server),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${this.chain.key} ${what}: no answer within ${ms} ms`)), ms);
        }),
      ]);
    } catch (error) {
      if (error instanceof Error) throw error;
      throw new Error(`${this.chain.key} ${what}: ${JSON.stringify(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  private async networkPassphrase(): Promise<string> {
    this.passphrase ??= (await this.read('getNetwork', (s) => s.getNetwork())).passphrase;
    return this.passphrase;
  }

  async buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx> {
    const assetManager = this.contract('assetManager');
    return this.build(deposit.user, assetManager, depositOperation(assetManager, deposit));
  }

  async buildMessage(message: SpokeMessage): Promise<NetworkTx> {
    const connection = this.contract('connection');
    return this.build(message.user, connection, sendMessageOperation(connection, message));
  }

  /** In stroops: `gas` a fresh simulation's resource fee, `price` the inclusion fee bid (base + priority). */
  async feeOf(tx: NetworkTx): Promise<SpokeFee> {
    requireEncoding(tx, 'xdr', 'stellarTx', `${this.chain.key} transactions are base64 XDR envelopes as the builder returned them`);
    const passphrase = await this.networkPassphrase();
    let transaction: Transaction;
    try {
      const decoded = TransactionBuilder.fromXDR(tx.data, passphrase);
      transaction = decoded instanceof FeeBumpTransaction ? decoded.innerTransaction : decoded;
    } catch {
      throw AppError.validation([
        { field: 'tx.data', rule: 'stellarTransaction', message: 'tx.data must be a base64 XDR Stellar transaction envelope' },
      ]);
    }
    requireSigner(tx, transaction.source);
    const simulation = await this.simulate(transaction);
    const price = BigInt(BASE_FEE) + STELLAR_PRIORITY_FEE;
    const resource = BigInt(simulation.minResourceFee);
    return { gas: resource.toString(), price: price.toString(), fee: (resource + price).toString(), unit: 'stroops' };
  }

  async checkSource(txId: string): Promise<SpokeSourceCheck> {
    const found = await this.read('getTransaction', (s) => s.getTransaction(txId));
    if (found.status === rpc.Api.GetTransactionStatus.NOT_FOUND) return { found: false };
    const passphrase = await this.networkPassphrase();
    const envelope = TransactionBuilder.fromXDR(found.envelopeXdr.toXdr('base64'), passphrase);
    const transaction = envelope instanceof FeeBumpTransaction ? envelope.innerTransaction : envelope;
    const sender = transaction.source;
    if (found.status === rpc.Api.GetTransactionStatus.FAILED)
      return { found: true, success: false, sender, reason: failureOf(found.resultXdr) };
    const deposit = this.chain.assetManager ? depositOf(transaction, this.chain.assetManager) : undefined;
    if (deposit) return { found: true, success: true, sender, deposit };
    const message = this.chain.connection ? messageOf(transaction, this.chain.connection) : undefined;
    return message ? { found: true, success: true, sender, message } : { found: true, success: true, sender };
  }

  private contract(kind: 'assetManager' | 'connection'): string {
    const id = this.chain[kind];
    if (!id) throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no ${kind} configured for ${this.chain.key}`);
    return id;
  }

  private async build(user: string, to: string, operation: xdr.Operation): Promise<NetworkTx> {
    // A contract (C…) address holds assets but cannot be a transaction's source.
    if (!StrKey.isValidEd25519PublicKey(user))
      throw AppError.validation([
        {
          field: 'srcAddress',
          rule: 'stellarAccount',
          message: `srcAddress must be a Stellar account (G…) on ${this.chain.key}: a contract cannot sign a transaction`,
        },
      ]);
    const passphrase = await this.networkPassphrase();
    const account = await this.read('getLedgerEntries', (s) =>
      s.getAccount(user).catch((error: unknown) => {
        if (error instanceof Error && /not found/i.test(error.message))
          throw new AppError(422, ErrorCode.TransactionWouldFail, `${user} has no account on ${this.chain.key} yet (fund it first)`);
        throw error;
      }),
    );
    const sequence = account.sequenceNumber();
    const simulation = await this.simulate(invocationTransaction(user, sequence, passphrase, operation, BigInt(BASE_FEE)));
    const transaction = assembledInvocation(user, sequence, passphrase, operation, simulation);
    return { from: user, to, encoding: 'xdr', data: transaction.toXDR(), networkPassphrase: passphrase };
  }

  /** A failing or restore-needing simulation is the transaction's fault: 422. */
  private async simulate(transaction: Transaction): Promise<rpc.Api.SimulateTransactionSuccessResponse> {
    const simulation = await this.read('simulateTransaction', (s) => s.simulateTransaction(transaction));
    if (rpc.Api.isSimulationError(simulation))
      throw new AppError(
        422,
        ErrorCode.TransactionWouldFail,
        `The transaction would fail on ${this.chain.key} now: ${simulation.error}`.slice(0, 300),
      );
    if (rpc.Api.isSimulationRestore(simulation))
      throw new AppError(
        422,
        ErrorCode.TransactionWouldFail,
        `The transaction needs archived ledger entries restored on ${this.chain.key} first (a RestoreFootprint transaction)`,
      );
    return simulation;
  }
}

/** E.g. "txFailed: invokeHostFunctionTrapped". */
function failureOf(result: xdr.TransactionResult): string {
  const outcome = result.result;
  if (outcome.type !== 'txFailed') return outcome.type;
  const codes = outcome.results.map((op) =>
    op.type === 'opInner' ? ((op.tr.value as { type?: string } | null)?.type ?? op.tr.type) : op.type,
  );
  return `${outcome.type}: ${codes.join(', ')}`;
}

function invocationOf(transaction: Transaction, contract: string, fn: string, args: number): xdr.ScVal[] | undefined {
  for (const operation of transaction.operations) {
    if (operation.type !== 'invokeHostFunction' || operation.func.type !== 'hostFunctionTypeInvokeContract') continue;
    const call = operation.func.invokeContract;
    if (Address.fromScAddress(call.contractAddress).toString() !== contract) continue;
    if (call.functionName.toString() === fn && call.args.length === args) return call.args;
  }
  return undefined;
}

/** `send_message(user, dst_chain_id, dst_address, payload)` to the connection. */
function messageOf(transaction: Transaction, connection: string): { to: Hex; data: Hex } | undefined {
  const args = invocationOf(transaction, connection, 'send_message', 4);
  if (!args) return undefined;
  return {
    to: toHex(scValToNative(args[2]) as Uint8Array).toLowerCase() as Hex,
    data: toHex(scValToNative(args[3]) as Uint8Array),
  };
}

function depositOf(transaction: Transaction, assetManager: string): { token: string; amount: bigint; to: Hex; data: Hex } | undefined {
  const args = invocationOf(transaction, assetManager, 'transfer', 5);
  if (!args) return undefined;
  const [, token, amount, to, data] = args;
  return {
    token: Address.fromScVal(token).toString(),
    amount: scValToBigInt(amount),
    to: toHex(scValToNative(to) as Uint8Array).toLowerCase() as Hex,
    data: toHex(scValToNative(data) as Uint8Array),
  };
}
