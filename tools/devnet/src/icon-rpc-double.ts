import { CallTransactionBuilder, Converter, SignedTransaction, Util, Validator, Wallet } from 'icon-sdk-js';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { toRlp, type Hex } from 'viem';

/** icx_sendTransaction params as icon-sdk-js writes them (Converter.toRawTransaction, SignedTransaction.getProperties). */
type RawTransaction = ReturnType<typeof Converter.toRawTransaction>;

/** icx_getTransactionResult's answer, the JSON icon-sdk-js's TransactionResult formatter reads. */
interface TransactionResultJson {
  status: '0x0' | '0x1';
  to: string;
  txHash: string;
  txIndex: string;
  blockHeight: string;
  blockHash: string;
  cumulativeStepUsed: string;
  stepUsed: string;
  stepPrice: string;
  eventLogs: unknown[];
  logsBloom: string;
  failure?: { code: string; message: string };
}

type RpcAnswer = { result: unknown } | { error: { code: number; message: string } };

/** A fixed key signing the constructed source transactions (a test key, never funded anywhere). */
const SOURCE_KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
const GOVERNANCE = 'cx0000000000000000000000000000000000000001';
const ICX = 10n ** 18n;

const hexInt = (value: bigint | number): string => `0x${value.toString(16)}`;
const hash32 = (seed: string): string => `0x${createHash('sha3-256').update(seed).digest('hex')}`;

/**
 * A stand-in for an ICON node's JSON-RPC v3, for the devnet and tests: no ICON node runs
 * on these machines, so every answer here is constructed. It speaks the real protocol
 * (POST `/api/v3` and the debug API on `/api/v3d`, errors as JSON-RPC errors with HTTP
 * 400 as goloop answers them) for what the platform reads: icx_getLastBlock, icx_call
 * (governance getStepPrice, IRC2 balanceOf), icx_getBalance, debug_estimateStep,
 * icx_getTransactionResult and icx_getTransactionByHash. Every address holds 1 000 000
 * ICX and tokens unless a test sets it, so a build for any well-formed user succeeds.
 * Source transactions are built and signed with icon-sdk-js.
 */
export class IconRpcDouble {
  private server?: Server;
  private readonly balances = new Map<string, bigint>();
  private readonly transactions = new Map<string, { tx: RawTransaction & { txHash: string }; result: TransactionResultJson }>();
  private height = 80_000_000;
  url = '';
  /** Loop per step (ICON mainnet's 12.5 Gloop). */
  stepPrice = 12_500_000_000n;
  /** What debug_estimateStep answers for a transaction that would run. */
  steps = 150_000n;
  /** False: the node has no debug API (debug_* answer "method not found"). */
  debugApi = true;
  /** Set: debug_estimateStep answers that the SCORE reverted with this reason. */
  revert?: string;
  /** True: requests are read and never answered (a node that hangs). */
  stall = false;
  /** The wallet that signs the constructed source transactions. */
  readonly sourceWallet = Wallet.loadPrivateKey(SOURCE_KEY);

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (this.stall) return;
        let call: { id?: unknown; method?: string; params?: Record<string, unknown> };
        try {
          call = JSON.parse(body) as typeof call;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'ParseError' } }));
          return;
        }
        const debug = /\/api\/v3d(\/|$)/.test(req.url ?? '');
        const answer = this.answer(call.method, call.params ?? {}, debug);
        res.writeHead('error' in answer ? 400 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, ...answer }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/api/v3`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** An address's ICX (and IRC2) balance in loop. */
  setBalance(address: string, loop: bigint): void {
    this.balances.set(address, loop);
  }

  /**
   * A deposit as the public client sends it (the token's `transfer` to the asset manager,
   * `_data` = RLP [hub calls, hub wallet]; ICX through wICX with value), signed by
   * `sourceWallet`, in a block; `failure` makes it fail on chain. Answers its hash.
   */
  seedDeposit(deposit: {
    token: string;
    assetManager: string;
    amount: bigint;
    to: Hex;
    data: Hex;
    wICX?: string;
    failure?: string;
  }): string {
    const native = deposit.token === 'cx0000000000000000000000000000000000000000';
    const contract = native ? (deposit.wICX ?? 'cx3975b43d260fb8ec802cef6e60c2f4d07486f11d') : deposit.token;
    const transaction = new CallTransactionBuilder()
      .from(this.sourceWallet.getAddress())
      .to(contract)
      .nid('0x1')
      .version('0x3')
      .timestamp(Date.now() * 1000)
      .stepLimit(hexInt(2_000_000))
      .value(native ? hexInt(deposit.amount) : '0x0')
      .method('transfer')
      .params({ _to: deposit.assetManager, _value: hexInt(deposit.amount), _data: toRlp([deposit.data, deposit.to]) })
      .build();
    return this.seedTransaction(new SignedTransaction(transaction, this.sourceWallet).getProperties(), deposit.failure);
  }

  /** Any signed transaction (its properties as SignedTransaction gives them) put in the next block. */
  seedTransaction(signed: RawTransaction, failure?: string): string {
    const txHash = `0x${Util.makeTxHash(signed)}`;
    const height = ++this.height;
    const blockHash = hash32(`block ${height}`);
    const used = hexInt(this.steps);
    this.transactions.set(txHash, {
      tx: { ...signed, txHash, txIndex: '0x0', blockHeight: hexInt(height), blockHash } as RawTransaction & { txHash: string },
      result: {
        status: failure ? '0x0' : '0x1',
        to: String(signed.to),
        txHash,
        txIndex: '0x0',
        blockHeight: hexInt(height),
        blockHash,
        cumulativeStepUsed: used,
        stepUsed: used,
        stepPrice: hexInt(this.stepPrice),
        eventLogs: [],
        logsBloom: `0x${'00'.repeat(256)}`,
        ...(failure ? { failure: { code: '0x20', message: failure } } : {}),
      },
    });
    return txHash;
  }

  private balanceOf(address: unknown): bigint {
    return this.balances.get(String(address)) ?? 1_000_000n * ICX;
  }

  private answer(method: string | undefined, params: Record<string, unknown>, debug: boolean): RpcAnswer {
    if (method?.startsWith('debug_') && (!debug || !this.debugApi)) return { error: { code: -32601, message: 'MethodNotFound' } };
    switch (method) {
      case 'icx_getLastBlock':
        return { result: this.lastBlock() };
      case 'icx_getBalance':
        return Validator.isAddress(params.address)
          ? { result: hexInt(this.balanceOf(params.address)) }
          : { error: { code: -32602, message: 'InvalidParams: address' } };
      case 'icx_call':
        return this.call(params);
      case 'debug_estimateStep':
        return this.estimate(params);
      case 'icx_getTransactionResult':
      case 'icx_getTransactionByHash': {
        const seeded = this.transactions.get(String(params.txHash));
        if (!seeded) return { error: { code: -31004, message: 'NotFound: E1005:not found tx id' } };
        return { result: method === 'icx_getTransactionResult' ? seeded.result : seeded.tx };
      }
      default:
        return { error: { code: -32601, message: `MethodNotFound: ${method}` } };
    }
  }

  private call(params: Record<string, unknown>): RpcAnswer {
    const data = params.data as { method?: string; params?: Record<string, unknown> } | undefined;
    if (params.to === GOVERNANCE && data?.method === 'getStepPrice') return { result: hexInt(this.stepPrice) };
    if (data?.method === 'balanceOf') return { result: hexInt(this.balanceOf(data.params?._owner)) };
    return { error: { code: -30003, message: `MethodNotFound: ${String(data?.method)}` } };
  }

  /** What the transaction would take; it is refused as goloop would (SCORE error codes -30000 - status). */
  private estimate(params: Record<string, unknown>): RpcAnswer {
    let valid: boolean;
    try {
      valid = Boolean(Validator.checkTxData(params)) && Validator.isEoaAddress(params.from);
    } catch {
      valid = false;
    }
    if (!valid || 'stepLimit' in params)
      return { error: { code: -32602, message: 'InvalidParams: not an unsigned transaction without stepLimit' } };
    const value = BigInt(String(params.value ?? '0x0'));
    if (value + this.steps * this.stepPrice > this.balanceOf(params.from)) return { error: { code: -30011, message: 'OutOfBalance' } };
    if (this.revert) return { error: { code: -30032, message: `Reverted(0): ${this.revert}` } };
    return { result: hexInt(this.steps) };
  }

  private lastBlock(): Record<string, unknown> {
    return {
      version: '2.0',
      height: this.height,
      block_hash: hash32(`block ${this.height}`).slice(2),
      prev_block_hash: hash32(`block ${this.height - 1}`).slice(2),
      merkle_tree_root_hash: hash32(`root ${this.height}`).slice(2),
      peer_id: this.sourceWallet.getAddress(),
      signature: '',
      time_stamp: Date.now() * 1000,
      confirmed_transaction_list: [],
    };
  }
}
