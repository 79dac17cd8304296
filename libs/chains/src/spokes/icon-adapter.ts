import { AppError, ErrorCode, type NetworkTx } from '@swap/contracts';
import { CallBuilder, CallTransactionBuilder, Converter, HttpProvider, IconService, Validator, type CallTransaction } from 'icon-sdk-js';
import type HttpCall from 'icon-sdk-js/build/transport/http/client/HttpCall';
import type { HttpCallInterface, HttpResponse } from 'icon-sdk-js/build/transport/http/client/HttpClient';
import type Request from 'icon-sdk-js/build/transport/jsonrpc/Request';
import { fromRlp, isHex, toRlp, type Hex } from 'viem';
import type { ChainInfo } from '../chain-directory';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeSourceCheck } from './spoke-network';
import { requireEncoding, requireSigner } from './network-tx';

/** ICX as the chain profile lists it (the public client's `nativeToken`). */
export const ICON_NATIVE = 'cx0000000000000000000000000000000000000000';
/** From @sodax/sdk's config (`addresses.wICX`): ChainInfo has no field for it. */
export const ICON_WICX = 'cx3975b43d260fb8ec802cef6e60c2f4d07486f11d';
export const ICON_GOVERNANCE = 'cx0000000000000000000000000000000000000001';
/** The public client's fixed step limit, used where the node has no debug API to estimate with. */
export const ICON_DEFAULT_STEP_LIMIT = 2_000_000n;

/** A plain Error: ChainAccess makes it a 503 unless the adapter maps it. */
export class IconRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`ICON RPC error ${code}: ${message}`);
  }

  /** SCORE failures (-30000 - status) and refused parameters: the network would not run the transaction. */
  get refused(): boolean {
    return (this.code <= -30000 && this.code > -31000) || this.code === -32602;
  }
}

/** icon-sdk-js's own fetch has no timeout: calls are sent here with an AbortSignal. */
class BoundedHttpProvider extends HttpProvider {
  constructor(
    url: string,
    private readonly timeoutMs: number,
  ) {
    super(url);
  }

  override request<T = unknown>(request: Request, converter?: (result: unknown) => T): HttpCall<T> {
    const call = super.request(request, converter);
    const { url, timeoutMs } = this;
    const send = async (): Promise<HttpResponse> => {
      const body = JSON.stringify(request, (_key, value: unknown) => value ?? undefined);
      let response: Response;
      let json: { result?: string; error?: { code: number; message: string } };
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        json = (await response.json()) as typeof json;
      } catch (error) {
        throw new Error(`ICON RPC ${request.method} failed: ${(error as Error).message}`, { cause: error });
      }
      if (json.error) throw new IconRpcError(json.error.code, json.error.message);
      if (!response.ok) throw new Error(`ICON RPC ${request.method} answered HTTP ${response.status}`);
      return json as unknown as HttpResponse;
    };
    call.httpCall = { execute: send, sendAsync: send } as unknown as HttpCallInterface<T>;
    return call;
  }
}

/** `…/api/v3[/channel]` → `…/api/v3d[/channel]`. */
export function iconDebugUrl(url: string): string {
  return url.replace(/\/api\/v3(?=\/|$)/, '/api/v3d');
}

/** `0x1.icon` → `0x1`. */
export function iconNid(chainId: string | number): string {
  const nid = String(chainId).split('.')[0];
  if (!/^0x[0-9a-f]+$/i.test(nid)) throw new Error(`ICON chain id ${chainId} does not start with a hex network id`);
  return nid;
}

const hexInt = (value: bigint): string => `0x${value.toString(16)}`;

type RawTransaction = ReturnType<typeof Converter.toRawTransaction>;

/** ICON through icon-sdk-js; what it builds: docs/integrators/networks/icon.md#the-answer. */
export class IconAdapter implements SpokeAdapter {
  private readonly service: IconService;
  private readonly debug: IconService;
  private readonly nid: string;

  constructor(
    readonly chain: ChainInfo,
    options: { timeoutMs?: number } = {},
  ) {
    const url = chain.rpcUrls?.[0];
    if (!url) throw new Error(`No RPC URL configured for ${chain.key}`);
    const timeoutMs = options.timeoutMs ?? 5_000;
    this.service = new IconService(new BoundedHttpProvider(url, timeoutMs));
    this.debug = new IconService(new BoundedHttpProvider(iconDebugUrl(url), timeoutMs));
    this.nid = iconNid(chain.chainId);
  }

  async latestBlockTime(): Promise<bigint> {
    const block = await plainErrors(this.service.getLastBlock().execute());
    return BigInt(Converter.toBigNumber(block.timeStamp).toFixed()) / 1_000_000n;
  }

  /** As the public client's `IconSpokeService.transfer`; ICX goes through wICX as the transaction's value. */
  async buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx> {
    const assetManager = this.required('assetManager');
    const native = deposit.token === ICON_NATIVE;
    const contract = native ? ICON_WICX : deposit.token;
    const builder = this.builder(deposit.user, contract)
      .value(native ? hexInt(deposit.amount) : '0x0')
      .method('transfer')
      .params({ _to: assetManager, _value: hexInt(deposit.amount), _data: toRlp([deposit.data, deposit.to]) });
    return this.answer(deposit.user, contract, builder);
  }

  /** As the public client's `IconSpokeService.call` (dstChainId in decimal, as it sends it). */
  async buildMessage(message: SpokeMessage): Promise<NetworkTx> {
    const connection = this.required('connection');
    const builder = this.builder(message.user, connection)
      .method('sendMessage')
      .params({ dstChainId: message.dstChainId.toString(), dstAddress: message.dstAddress, payload: message.payload });
    return this.answer(message.user, connection, builder);
  }

  /** In loop: debug_estimateStep at the governance step price. */
  async feeOf(tx: NetworkTx): Promise<SpokeFee> {
    requireEncoding(tx, 'json', 'iconTransaction', `${this.chain.key} transactions are sent as the builder returned them`);
    const raw = parseRawTransaction(tx.data);
    if (!raw)
      throw AppError.validation([
        { field: 'tx.data', rule: 'iconTransaction', message: 'tx.data must be the JSON of ICON icx_sendTransaction params' },
      ]);
    requireSigner(tx, String(raw.from));
    const steps = (await this.estimateSteps(raw)) ?? BigInt(String(raw.stepLimit ?? hexInt(ICON_DEFAULT_STEP_LIMIT)));
    const price = await this.stepPrice();
    return { gas: steps.toString(), price: price.toString(), fee: (steps * price).toString(), unit: 'loop' };
  }

  async checkSource(txId: string): Promise<SpokeSourceCheck> {
    let result: Awaited<ReturnType<ReturnType<IconService['getTransactionResult']>['execute']>>;
    try {
      result = await plainErrors(this.service.getTransactionResult(txId).execute());
    } catch (error) {
      // -31002 pending, -31003 executing, -31004 unknown: not (yet) in a block
      if (error instanceof IconRpcError && error.code <= -31002 && error.code >= -31004) return { found: false };
      if (error instanceof IconRpcError && error.code === -32602 && /not ?found/i.test(error.message)) return { found: false };
      throw error;
    }
    const tx = await plainErrors(this.service.getTransaction(txId).execute());
    if (Number(result.status) !== 1)
      return { found: true, success: false, sender: tx.from, reason: result.failure?.message ?? 'failed on chain' };
    return { found: true, success: true, sender: tx.from, ...this.depositOf(tx), ...this.messageOf(tx) };
  }

  /** `sendMessage(dstChainId, dstAddress, payload)` to the connection, hex as built. */
  private messageOf(tx: { to: string; dataType: string; data: unknown }): { message?: { to: Hex; data: Hex } } {
    const call = tx.data as { method?: string; params?: Record<string, unknown> } | undefined;
    const { dstAddress, payload } = call?.params ?? {};
    if (tx.dataType !== 'call' || call?.method !== 'sendMessage' || !this.chain.connection || tx.to !== this.chain.connection) return {};
    if (!isHex(dstAddress) || !isHex(payload)) return {};
    return { message: { to: dstAddress.toLowerCase() as Hex, data: payload } };
  }

  private depositOf(tx: { to: string; value?: { toFixed(): string }; dataType: string; data: unknown }): {
    deposit?: { token: string; amount: bigint; to: Hex; data: Hex };
  } {
    const call = tx.data as { method?: string; params?: Record<string, unknown> } | undefined;
    const params = call?.params;
    if (tx.dataType !== 'call' || call?.method !== 'transfer' || params?._to !== this.chain.assetManager) return {};
    try {
      const [data, to] = fromRlp(params._data as Hex, 'hex') as Hex[];
      if (typeof data !== 'string' || typeof to !== 'string') return {};
      const value = BigInt(tx.value?.toFixed() ?? '0');
      const token = tx.to === ICON_WICX && value > 0n ? ICON_NATIVE : tx.to;
      return { deposit: { token, amount: BigInt(params._value as string), to: to.toLowerCase() as Hex, data } };
    } catch {
      return {};
    }
  }

  private required(contract: 'assetManager' | 'connection'): string {
    const address = this.chain[contract];
    if (!address) throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no ${contract} configured for ${this.chain.key}`);
    return address;
  }

  private builder(from: string, to: string): CallTransactionBuilder {
    // A contract (cx…) holds tokens but cannot sign a transaction.
    if (!from.startsWith('hx'))
      throw AppError.validation([
        {
          field: 'srcAddress',
          rule: 'iconWallet',
          message: `srcAddress must be an ICON wallet (hx…) on ${this.chain.key}: a contract cannot sign a transaction`,
        },
      ]);
    return new CallTransactionBuilder()
      .from(from)
      .to(to)
      .nid(this.nid)
      .version('0x3')
      .timestamp(Date.now() * 1000);
  }

  /** The node's estimate + 10 %: the estimate is what it takes now. */
  private async answer(from: string, to: string, builder: CallTransactionBuilder): Promise<NetworkTx> {
    const steps = await this.estimateSteps(Converter.toRawTransaction(builder.build()));
    const stepLimit = steps === undefined ? ICON_DEFAULT_STEP_LIMIT : steps + steps / 10n;
    const transaction: CallTransaction = builder.stepLimit(hexInt(stepLimit)).build();
    return { from, to, encoding: 'json', data: JSON.stringify(Converter.toRawTransaction(transaction)) };
  }

  /** Undefined where the node has no debug API; a refusal is a 422. */
  private async estimateSteps(raw: RawTransaction): Promise<bigint | undefined> {
    const { stepLimit: _limit, signature: _signature, ...unsigned } = raw;
    void _limit;
    void _signature;
    try {
      const steps = await this.debug.estimateStep(unsigned as unknown as CallTransaction).execute();
      return BigInt(steps.toFixed());
    } catch (error) {
      if (error instanceof IconRpcError && error.code === -32601) return undefined;
      if (error instanceof IconRpcError && error.refused)
        throw new AppError(422, ErrorCode.TransactionWouldFail, `${this.chain.key} would refuse the transaction: ${error.message}`);
      throw asError(error);
    }
  }

  private async stepPrice(): Promise<bigint> {
    const call = new CallBuilder().to(ICON_GOVERNANCE).method('getStepPrice').build();
    const price: unknown = await plainErrors(this.service.call(call).execute());
    if (typeof price !== 'string' || !isHex(price)) throw new Error(`${this.chain.key} answered getStepPrice without a hex number`);
    return BigInt(price);
  }
}

/** icon-sdk-js throws its own errors (a hash it refuses, a malformed answer) as strings. */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function plainErrors<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    throw asError(error);
  });
}

function parseRawTransaction(text: string): RawTransaction | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const fields = raw as Record<string, unknown>;
  if (!Validator.isEoaAddress(fields.from) || !Validator.isAddress(fields.to) || typeof fields.nid !== 'string') return undefined;
  try {
    return Validator.checkTxData(fields) ? (fields as RawTransaction) : undefined;
  } catch {
    return undefined;
  }
}
