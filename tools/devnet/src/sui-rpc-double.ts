import { bcs } from '@mysten/sui/bcs';
import type {
  BalanceChange,
  CoinStruct,
  DryRunTransactionBlockResponse,
  ExecutionStatus,
  GasCostSummary,
  SuiMoveNormalizedFunction,
  SuiMoveNormalizedType,
  SuiObjectData,
  SuiObjectResponse,
  SuiSystemStateSummary,
  SuiTransactionBlockResponse,
  TransactionEffects,
} from '@mysten/sui/jsonRpc';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import {
  fromBase58,
  fromBase64,
  normalizeStructTag,
  normalizeSuiAddress,
  SUI_TYPE_ARG,
  toBase58,
  toBase64,
  toHex,
} from '@mysten/sui/utils';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** The digest of Sui mainnet's genesis checkpoint. */
export const SUI_MAINNET_CHAIN_IDENTIFIER = '4btiuiMPvEENsttpZC7CZ53DruC3MAgfznDbASZ7DR6S';

export interface SuiRpcDoubleOptions {
  /** `<original package>::asset_manager::<config object>`, as the profile lists it. */
  assetManager: string;
  /** `<package>::<module>::<state object>`. */
  connection: string;
  /** The config object's `latest_package_id`; the original package unless told. */
  latestPackageId?: string;
}

export interface SeededSuiCoin {
  objectId: string;
  balance: bigint;
  version?: string;
  digest?: string;
}

type StoredTransaction = Pick<SuiTransactionBlockResponse, 'digest' | 'rawTransaction' | 'effects' | 'balanceChanges'>;
type JsonRpcAnswer = { result: unknown } | { error: { code: number; message: string } };

const DEFAULT_BALANCE = 1_000_000_000_000_000n;

/** Constructed answers, not a Sui node; Move signatures as assumed here. See docs/integrators/devnet.md#the-rpc-stand-ins. */
export class SuiRpcDouble {
  private server?: Server;
  url = '';
  referenceGasPrice = 750n;
  epoch = 1_000n;
  /** Every dry run fails with this error (a transaction the network would refuse). */
  dryRunFailure?: string;
  readonly calls: string[] = [];
  readonly latestPackageId: string;
  private readonly objects = new Map<string, SuiObjectData>();
  private readonly coins = new Map<string, CoinStruct[]>();
  private readonly transactions = new Map<string, StoredTransaction>();
  private readonly functions = new Map<string, SuiMoveNormalizedFunction>();

  constructor(readonly options: SuiRpcDoubleOptions) {
    const [originalPackage, , configId] = options.assetManager.split('::');
    const [connectionPackage, connectionModule, connectionState] = options.connection.split('::');
    this.latestPackageId = normalizeSuiAddress(options.latestPackageId ?? originalPackage);
    this.putShared(configId, 7_000_001, `${normalizeSuiAddress(originalPackage)}::asset_manager::Config`, {
      id: { id: normalizeSuiAddress(configId) },
      latest_package_id: this.latestPackageId,
    });
    this.putShared(connectionState, 7_000_002, `${normalizeSuiAddress(connectionPackage)}::${connectionModule}::Storage`, {
      id: { id: normalizeSuiAddress(connectionState) },
    });
    const struct = (address: string, module: string, name: string, typeArguments: SuiMoveNormalizedType[] = []): SuiMoveNormalizedType => ({
      Struct: { address: normalizeSuiAddress(address), module, name, typeArguments },
    });
    const txContext: SuiMoveNormalizedType = { MutableReference: struct('0x2', 'tx_context', 'TxContext') };
    const bytes: SuiMoveNormalizedType = { Vector: 'U8' };
    const connection: SuiMoveNormalizedType = { MutableReference: struct(connectionPackage, connectionModule, 'Storage') };
    const transfer: SuiMoveNormalizedFunction = {
      visibility: 'Public',
      isEntry: true,
      typeParameters: [{ abilities: [] }],
      parameters: [
        { MutableReference: struct(originalPackage, 'asset_manager', 'Config') },
        connection,
        struct('0x2', 'coin', 'Coin', [{ TypeParameter: 0 }]),
        bytes,
        bytes,
        txContext,
      ],
      return: [],
    };
    for (const pkg of new Set([this.latestPackageId, normalizeSuiAddress(originalPackage)]))
      this.functions.set(`${pkg}::asset_manager::transfer`, transfer);
    this.functions.set(`${normalizeSuiAddress(connectionPackage)}::${connectionModule}::send_message_ua`, {
      visibility: 'Public',
      isEntry: true,
      typeParameters: [],
      parameters: [connection, 'U256', bytes, bytes, txContext],
      return: [],
    });
  }

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        let call: { id?: unknown; method?: string; params?: unknown[] };
        try {
          call = JSON.parse(body) as { id?: unknown; method?: string; params?: unknown[] };
        } catch {
          res.writeHead(400).end();
          return;
        }
        let answer: JsonRpcAnswer;
        try {
          answer = this.answer(call.method, call.params ?? []);
        } catch (error) {
          answer = { error: { code: -32602, message: `Invalid params: ${(error as Error).message}` } };
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, ...answer }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Otherwise closing waits for kept-alive connections.
    server.closeAllConnections();
    await closed;
  }

  /** Replaces the default coin the double answers for any owner. */
  seedCoins(owner: string, coinType: string, coins: SeededSuiCoin[]): void {
    const type = normalizeStructTag(coinType);
    const stored = coins.map((coin, i) =>
      this.coinObject(owner, type, coin.objectId, coin.balance, coin.version, coin.digest ?? digestOf(`${coin.objectId}:${i}`)),
    );
    this.coins.set(`${normalizeSuiAddress(owner)}|${type}`, stored);
  }

  /** `transactionData`: BCS TransactionData as a wallet signed it; `error`: failed on chain. Answers its digest. */
  seedTransaction(transactionData: Uint8Array, outcome: { error?: string; balanceChanges?: BalanceChange[] } = {}): string {
    const digest = TransactionDataBuilder.getDigestFromBytes(transactionData);
    const data = bcs.TransactionData.parse(transactionData);
    const rawTransaction = bcs.SenderSignedData.serialize([
      {
        intentMessage: { intent: { scope: { TransactionData: true }, version: { V0: true }, appId: { Sui: true } }, value: data },
        txSignatures: [toBase64(new Uint8Array(97))],
      },
    ]).toBase64();
    const status: ExecutionStatus = outcome.error ? { status: 'failure', error: outcome.error } : { status: 'success' };
    this.transactions.set(digest, {
      digest,
      rawTransaction,
      effects: this.effects(
        digest,
        data.V1!.sender,
        data.V1!.gasData.payment[0],
        status,
        data.V1!.kind.ProgrammableTransaction?.commands.length ?? 1,
      ),
      balanceChanges: outcome.balanceChanges ?? [],
    });
    return digest;
  }

  private answer(method: string | undefined, params: unknown[]): JsonRpcAnswer {
    this.calls.push(String(method));
    switch (method) {
      case 'sui_getObject':
        return { result: this.objectResponse(String(params[0])) };
      case 'sui_multiGetObjects':
        return { result: (params[0] as string[]).map((id) => this.objectResponse(id)) };
      case 'suix_getCoins': {
        const data = this.coinsOf(String(params[0]), String(params[1] ?? SUI_TYPE_ARG));
        return { result: { data: data.slice(0, Number(params[3] ?? 50)), hasNextPage: false, nextCursor: null } };
      }
      case 'suix_getBalance': {
        const coinType = String(params[1] ?? SUI_TYPE_ARG);
        const coins = this.coinsOf(String(params[0]), coinType);
        const totalBalance = coins.reduce((sum, coin) => sum + BigInt(coin.balance), 0n).toString();
        return { result: { coinType, coinObjectCount: coins.length, totalBalance, fundsInAddressBalance: '0', lockedBalance: {} } };
      }
      case 'suix_getReferenceGasPrice':
        return { result: this.referenceGasPrice.toString() };
      case 'suix_getLatestSuiSystemState':
        return { result: this.systemState() };
      case 'sui_getChainIdentifier':
        return { result: toHex(fromBase58(SUI_MAINNET_CHAIN_IDENTIFIER).slice(0, 4)) };
      case 'sui_getCheckpoint':
        return {
          result: { sequenceNumber: String(params[0]), digest: SUI_MAINNET_CHAIN_IDENTIFIER, epoch: '0', timestampMs: '1681392000000' },
        };
      case 'sui_getNormalizedMoveFunction': {
        const fn = this.functions.get(`${normalizeSuiAddress(String(params[0]))}::${String(params[1])}::${String(params[2])}`);
        return fn ? { result: fn } : { error: { code: -32602, message: `No function was found with function name ${String(params[2])}` } };
      }
      case 'sui_dryRunTransactionBlock':
        return { result: this.dryRun(fromBase64(String(params[0]))) };
      case 'sui_getTransactionBlock': {
        const digest = String(params[0]);
        const stored = this.transactions.get(digest);
        if (!stored)
          return { error: { code: -32602, message: `Could not find the referenced transaction [TransactionDigest(${digest})].` } };
        const show = (params[1] ?? {}) as Record<string, boolean | undefined>;
        const result: SuiTransactionBlockResponse = {
          digest,
          ...(show.showRawInput ? { rawTransaction: stored.rawTransaction } : {}),
          ...(show.showEffects ? { effects: stored.effects } : {}),
          ...(show.showBalanceChanges ? { balanceChanges: stored.balanceChanges } : {}),
          checkpoint: '150000000',
          timestampMs: String(Date.now()),
        };
        return { result };
      }
      default:
        return { error: { code: -32601, message: `Method not found: ${method}` } };
    }
  }

  private putShared(id: string, initialSharedVersion: number, type: string, fields: Record<string, unknown>): void {
    const objectId = normalizeSuiAddress(id);
    this.objects.set(objectId, {
      objectId,
      version: String(initialSharedVersion + 1_000),
      digest: digestOf(objectId),
      type,
      owner: { Shared: { initial_shared_version: String(initialSharedVersion) } },
      content: { dataType: 'moveObject', type, hasPublicTransfer: false, fields: fields as never },
    });
  }

  private coinObject(
    owner: string,
    coinType: string,
    objectId: string,
    balance: bigint,
    version = '500000000',
    digest = digestOf(objectId),
  ): CoinStruct {
    const id = normalizeSuiAddress(objectId);
    const type = `0x2::coin::Coin<${coinType}>`;
    this.objects.set(id, {
      objectId: id,
      version,
      digest,
      type,
      owner: { AddressOwner: normalizeSuiAddress(owner) },
      content: { dataType: 'moveObject', type, hasPublicTransfer: true, fields: { id: { id }, balance: balance.toString() } },
    });
    return { coinObjectId: id, coinType, balance: balance.toString(), version, digest, previousTransaction: digestOf(`${id}:previous`) };
  }

  /** The seeded ones, or one coin of a large balance so any well-formed user can build. */
  private coinsOf(owner: string, coinType: string): CoinStruct[] {
    const type = normalizeStructTag(coinType);
    const key = `${normalizeSuiAddress(owner)}|${type}`;
    let coins = this.coins.get(key);
    if (!coins) {
      const id = `0x${createHash('sha256').update(key).digest('hex')}`;
      coins = [this.coinObject(owner, type, id, DEFAULT_BALANCE)];
      this.coins.set(key, coins);
    }
    return coins;
  }

  private objectResponse(id: string): SuiObjectResponse {
    const object = this.objects.get(normalizeSuiAddress(id));
    return object ? { data: object } : { error: { code: 'notExists', object_id: normalizeSuiAddress(id) } };
  }

  private dryRun(bytes: Uint8Array): DryRunTransactionBlockResponse {
    const data = bcs.TransactionData.parse(bytes).V1!;
    const commands = data.kind.ProgrammableTransaction?.commands ?? [];
    const unknown = commands.find(
      (c) => c.MoveCall && !this.functions.has(`${normalizeSuiAddress(c.MoveCall.package)}::${c.MoveCall.module}::${c.MoveCall.function}`),
    )?.MoveCall;
    const status: ExecutionStatus = this.dryRunFailure
      ? { status: 'failure', error: this.dryRunFailure }
      : unknown
        ? { status: 'failure', error: `FunctionNotFound in command 0: ${unknown.module}::${unknown.function}` }
        : { status: 'success' };
    const digest = TransactionDataBuilder.getDigestFromBytes(bytes);
    return {
      effects: this.effects(digest, data.sender, data.gasData.payment[0], status, commands.length),
      events: [],
      objectChanges: [],
      balanceChanges: [],
      input: {
        messageVersion: 'v1',
        sender: data.sender,
        gasData: {
          owner: data.gasData.owner,
          price: String(data.gasData.price),
          budget: String(data.gasData.budget),
          payment: data.gasData.payment.map((p) => ({ objectId: p.objectId, version: String(p.version), digest: p.digest })),
        },
        transaction: { kind: 'ProgrammableTransaction', inputs: [], transactions: [] },
      },
    };
  }

  /** A constructed cost schedule, not Sui's. */
  private effects(
    digest: string,
    sender: string,
    gas: { objectId: string; version: string | number; digest: string } | undefined,
    status: ExecutionStatus,
    commands: number,
  ): TransactionEffects {
    const gasUsed: GasCostSummary = {
      computationCost: (this.referenceGasPrice * BigInt(1_000 + 500 * commands)).toString(),
      storageCost: (2_964_000n + 988_000n * BigInt(commands)).toString(),
      storageRebate: '1956240',
      nonRefundableStorageFee: '19760',
    };
    return {
      messageVersion: 'v1',
      status,
      executedEpoch: this.epoch.toString(),
      gasUsed,
      transactionDigest: digest,
      gasObject: {
        owner: { AddressOwner: sender },
        reference: gas
          ? { objectId: gas.objectId, version: String(gas.version), digest: gas.digest }
          : { objectId: normalizeSuiAddress('0x0'), version: '0', digest: digestOf('none') },
      },
      dependencies: [],
    };
  }

  /** Only what the Sui client reads. */
  private systemState(): Partial<SuiSystemStateSummary> {
    return {
      epoch: this.epoch.toString(),
      protocolVersion: '100',
      systemStateVersion: '2',
      referenceGasPrice: this.referenceGasPrice.toString(),
      epochStartTimestampMs: String(Date.now() - 3_600_000),
      epochDurationMs: '86400000',
      safeMode: false,
    };
  }
}

function digestOf(seed: string): string {
  return toBase58(createHash('sha256').update(seed).digest());
}
