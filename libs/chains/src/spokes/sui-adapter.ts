import { bcs } from '@mysten/sui/bcs';
import { SimulationError } from '@mysten/sui/client';
import { SuiJsonRpcClient, JsonRpcHTTPTransport, type SuiTransactionBlockResponse } from '@mysten/sui/jsonRpc';
import { Transaction, type TransactionObjectArgument } from '@mysten/sui/transactions';
import { fromBase64, isValidSuiAddress, normalizeStructTag, normalizeSuiAddress, toHex as suiToHex } from '@mysten/sui/utils';
import { AppError, ErrorCode, type NetworkTx } from '@swap/contracts';
import { hexToBytes, type Hex } from 'viem';
import type { ChainInfo } from '../chain-directory';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeSourceCheck } from './spoke-network';
import { requireEncoding, requireSigner } from './network-tx';

export const SUI_COIN_TYPE = normalizeStructTag('0x2::sui::SUI');
/** Coins of a type a deposit looks at, as the public client does. */
const COIN_PAGE = 10;

export function splitSuiAddress(address: string, field: string): SuiObjectAddress {
  const [packageId, module, objectId, ...rest] = address.split('::');
  if (!packageId || !module || !objectId || rest.length)
    throw new AppError(503, ErrorCode.NotConfigured, `${field} must be package::module::object for Sui`);
  return { packageId: normalizeSuiAddress(packageId), module, objectId: normalizeSuiAddress(objectId) };
}

type ParsedTransactionData = ReturnType<typeof bcs.TransactionData.parse>;
type SuiArgument = ReturnType<typeof bcs.Argument.parse>;

/** Sui through @mysten/sui's JSON-RPC client; what it builds: docs/integrators/networks/sui.md#the-unsigned-transaction. */
export class SuiAdapter implements SpokeAdapter {
  private readonly client: SuiJsonRpcClient;

  constructor(
    readonly chain: ChainInfo,
    options: { timeoutMs?: number } = {},
  ) {
    const url = chain.rpcUrls?.[0];
    if (!url) throw new Error(`No RPC URL configured for ${chain.key}`);
    const timeoutMs = options.timeoutMs ?? 5_000;
    // The transaction builder's own reads take no signal: every request gets one here.
    const fetchWithTimeout: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
      });
    this.client = new SuiJsonRpcClient({ network: 'mainnet', transport: new JsonRpcHTTPTransport({ url, fetch: fetchWithTimeout }) });
  }

  private assetManager(): SuiObjectAddress {
    if (!this.chain.assetManager)
      throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no assetManager configured for ${this.chain.key}`);
    return splitSuiAddress(this.chain.assetManager, 'assetManager');
  }

  private connection(): SuiObjectAddress {
    if (!this.chain.connection)
      throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no connection configured for ${this.chain.key}`);
    return splitSuiAddress(this.chain.connection, 'connection');
  }

  /** The package after upgrades (`latest_package_id`), as the public client reads it. */
  async latestAssetManagerPackage(): Promise<string> {
    const { objectId } = this.assetManager();
    const answer = await this.client.getObject({ id: objectId, options: { showContent: true } });
    const content = answer.data?.content;
    const latest = content?.dataType === 'moveObject' ? (content.fields as Record<string, unknown>)['latest_package_id'] : undefined;
    if (typeof latest !== 'string' || !latest) throw new Error(`The asset manager config ${objectId} has no latest_package_id`);
    return normalizeSuiAddress(latest);
  }

  async buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx> {
    const manager = this.assetManager();
    const connection = this.connection();
    const packageId = await this.latestAssetManagerPackage();
    const coins =
      normalizeStructTag(deposit.token) === SUI_COIN_TYPE
        ? []
        : (await this.client.getCoins({ owner: deposit.user, coinType: deposit.token, limit: COIN_PAGE })).data;
    const { tx, target } = suiDepositTransaction({
      packageId,
      assetManager: manager,
      connection,
      deposit,
      coins,
      chainKey: this.chain.key,
    });
    return { from: deposit.user, to: target, encoding: 'base64', data: await this.build(tx, deposit.user) };
  }

  async buildMessage(message: SpokeMessage): Promise<NetworkTx> {
    const { tx, target } = suiMessageTransaction(this.connection(), message);
    return { from: message.user, to: target, encoding: 'base64', data: await this.build(tx, message.user) };
  }

  private async build(tx: Transaction, sender: string): Promise<string> {
    tx.setSender(sender);
    try {
      return Buffer.from(await tx.build({ client: this.client })).toString('base64');
    } catch (error) {
      // The builder dry-runs to set the budget; a refusal there is the network's answer, not an outage.
      if (error instanceof SimulationError)
        throw new AppError(422, ErrorCode.TransactionWouldFail, `The network would refuse this transaction: ${error.message}`);
      // The builder's wording for a sender without SUI to pay gas with: the user's to fix, not an outage.
      if (error instanceof Error && /no valid gas coins/i.test(error.message))
        throw new AppError(422, ErrorCode.TransactionWouldFail, `${sender} holds no SUI coin to pay gas with on ${this.chain.key}`);
      throw error;
    }
  }

  async feeOf(tx: NetworkTx): Promise<SpokeFee> {
    requireEncoding(tx, 'base64', 'suiTransaction', `${this.chain.key} transactions are sent as the builder returned them`);
    const bytes = decodeTransactionData(tx.data);
    const data = bytes && parseTransactionData(bytes);
    if (!bytes || !data?.V1)
      throw AppError.validation([
        { field: 'tx.data', rule: 'suiTransaction', message: 'tx.data must be a base64 BCS Sui TransactionData' },
      ]);
    requireSigner(
      tx,
      normalizeSuiAddress(data.V1.sender),
      (from, signer) => isValidSuiAddress(from) && normalizeSuiAddress(from) === signer,
    );
    const result = await this.client.dryRunTransactionBlock({ transactionBlock: bytes });
    const status = result.effects.status;
    if (status.status !== 'success')
      throw new AppError(422, ErrorCode.TransactionWouldFail, `The network would refuse this transaction: ${status.error ?? 'failed'}`);
    const { computationCost, storageCost, storageRebate } = result.effects.gasUsed;
    const net = BigInt(computationCost) + BigInt(storageCost) - BigInt(storageRebate);
    const fee = net > 0n ? net : 0n;
    const price = BigInt(data.V1.gasData.price);
    return { gas: (price ? (fee + price - 1n) / price : 0n).toString(), price: price.toString(), fee: fee.toString(), unit: 'mist' };
  }

  async checkSource(txId: string): Promise<SpokeSourceCheck> {
    let answer: SuiTransactionBlockResponse;
    try {
      answer = await this.client.getTransactionBlock({
        digest: txId,
        options: { showRawInput: true, showEffects: true, showBalanceChanges: true },
      });
    } catch (error) {
      const e = error as { code?: number; message?: string };
      if (e.code === -32602 && /not find|not found/i.test(e.message ?? '')) return { found: false };
      throw error;
    }
    const signed = answer.rawTransaction ? bcs.SenderSignedData.parse(fromBase64(answer.rawTransaction)) : undefined;
    const data = signed?.[0]?.intentMessage.value.V1;
    if (!data || !answer.effects) throw new Error(`${this.chain.key} answered transaction ${txId} without its input or effects`);
    const sender = normalizeSuiAddress(data.sender);
    if (answer.effects.status.status !== 'success')
      return { found: true, success: false, sender, reason: answer.effects.status.error ?? 'failed' };
    const ptb = data.kind.ProgrammableTransaction;
    const deposit = ptb && this.depositIn(ptb, sender, answer);
    if (deposit) return { found: true, success: true, sender, deposit };
    const message = ptb && this.chain.connection ? moveCallOf(ptb, this.connection(), 'send_message_ua', 4) : undefined;
    if (message)
      return { found: true, success: true, sender, message: { to: message.bytesArg(2).toLowerCase() as Hex, data: message.bytesArg(3) } };
    return { found: true, success: true, sender };
  }

  private depositIn(
    ptb: SuiPtb,
    sender: string,
    answer: SuiTransactionBlockResponse,
  ): { token: string; amount: bigint; to: Hex; data: Hex } | undefined {
    const found = moveCallOf(ptb, this.assetManager(), 'transfer', 5);
    if (!found) return undefined;
    const { call, bytesArg, inputOf } = found;
    const token = normalizeStructTag(call.typeArguments[0]);
    let amount: bigint | undefined;
    const coin = call.arguments[2];
    const source = coin.Result ?? coin.NestedResult?.[0];
    const split = source !== undefined ? ptb.commands[source]?.SplitCoins : undefined;
    const splitAmount = split?.amounts[0] && inputOf(split.amounts[0])?.Pure;
    if (splitAmount) amount = BigInt(bcs.u64().parse(fromBase64(splitAmount.bytes)));
    else {
      // A whole coin went in: what the sender's balance of the token lost is the amount.
      const change = answer.balanceChanges?.find(
        (c) =>
          normalizeStructTag(c.coinType) === token &&
          typeof c.owner === 'object' &&
          'AddressOwner' in c.owner &&
          normalizeSuiAddress(c.owner.AddressOwner) === sender,
      );
      if (change) amount = -BigInt(change.amount);
    }
    if (amount === undefined) return undefined;
    return { token, amount, to: bytesArg(3).toLowerCase() as Hex, data: bytesArg(4) };
  }
}

type SuiPtb = NonNullable<NonNullable<ParsedTransactionData['V1']>['kind']['ProgrammableTransaction']>;

/** The PTB's call of `fn` in any package version of the module, on the configured object. */
function moveCallOf(ptb: SuiPtb, target: SuiObjectAddress, fn: string, minArgs: number) {
  const inputOf = (arg: SuiArgument) => (arg.Input !== undefined ? ptb.inputs[arg.Input] : undefined);
  const call = ptb.commands.find((c) => {
    const mc = c.MoveCall;
    if (!mc || mc.module !== target.module || mc.function !== fn || mc.arguments.length < minArgs) return false;
    const config = inputOf(mc.arguments[0]);
    return (
      normalizeSuiAddress(config?.Object?.SharedObject?.objectId ?? config?.Object?.ImmOrOwnedObject?.objectId ?? '0x0') === target.objectId
    );
  })?.MoveCall;
  if (!call) return undefined;
  const bytesArg = (i: number): Hex => {
    const pure = inputOf(call.arguments[i])?.Pure;
    return `0x${suiToHex(pure ? Uint8Array.from(bcs.vector(bcs.u8()).parse(fromBase64(pure.bytes))) : new Uint8Array())}`;
  };
  return { call, bytesArg, inputOf };
}

export interface SuiObjectAddress {
  packageId: string;
  module: string;
  objectId: string;
}

/** As SuiSpokeProvider.transfer makes it, unresolved; coin handling: docs/integrators/networks/sui.md#the-unsigned-transaction. */
export function suiDepositTransaction(args: {
  packageId: string;
  assetManager: SuiObjectAddress;
  connection: SuiObjectAddress;
  deposit: SpokeDeposit;
  coins: readonly { coinObjectId: string; balance: string }[];
  chainKey: string;
}): { tx: Transaction; target: `${string}::${string}::transfer` } {
  const { deposit } = args;
  const tx = new Transaction();
  let coin: TransactionObjectArgument;
  if (normalizeStructTag(deposit.token) === SUI_COIN_TYPE) coin = tx.splitCoins(tx.gas, [tx.pure.u64(deposit.amount)])[0];
  else {
    const objects: string[] = [];
    let total = 0n;
    for (const c of args.coins) {
      total += BigInt(c.balance);
      objects.push(c.coinObjectId);
      if (total >= deposit.amount) break;
    }
    if (!objects.length || total < deposit.amount)
      throw new AppError(
        422,
        ErrorCode.TransactionWouldFail,
        `${deposit.user} holds ${total} of ${deposit.token} in its first ${COIN_PAGE} coins on ${args.chainKey}, less than ${deposit.amount}`,
      );
    const [first, ...rest] = objects;
    if (rest.length) tx.mergeCoins(first, rest);
    coin = total === deposit.amount ? tx.object(first) : tx.splitCoins(first, [deposit.amount]);
  }
  const target = `${args.packageId}::${args.assetManager.module}::transfer` as const;
  tx.moveCall({
    target,
    typeArguments: [deposit.token],
    arguments: [
      tx.object(args.assetManager.objectId),
      tx.object(args.connection.objectId),
      coin,
      tx.pure(bcs.vector(bcs.u8()).serialize(hexToBytes(deposit.to))),
      tx.pure(bcs.vector(bcs.u8()).serialize(hexToBytes(deposit.data))),
    ],
  });
  return { tx, target };
}

export function suiMessageTransaction(
  connection: SuiObjectAddress,
  message: SpokeMessage,
): { tx: Transaction; target: `${string}::${string}::send_message_ua` } {
  const tx = new Transaction();
  const target = `${connection.packageId}::${connection.module}::send_message_ua` as const;
  tx.moveCall({
    target,
    arguments: [
      tx.object(connection.objectId),
      tx.pure.u256(message.dstChainId),
      tx.pure(bcs.vector(bcs.u8()).serialize(hexToBytes(message.dstAddress))),
      tx.pure(bcs.vector(bcs.u8()).serialize(hexToBytes(message.payload))),
    ],
  });
  return { tx, target };
}

function decodeTransactionData(data: string): Uint8Array | undefined {
  if (typeof data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return undefined;
  return fromBase64(data);
}

function parseTransactionData(bytes: Uint8Array): ParsedTransactionData | undefined {
  try {
    const parsed = bcs.TransactionData.parse(bytes);
    // Trailing bytes mean it was not one TransactionData.
    return bcs.TransactionData.serialize(parsed).toBytes().length === bytes.length ? parsed : undefined;
  } catch {
    return undefined;
  }
}
