import { CallTransactionBuilder, Converter, SignedTransaction, Util, Validator, Wallet } from 'icon-sdk-js';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { toRlp, type Hex } from 'viem';

type RawTransaction = ReturnType<typeof Converter.toRawTransaction>;

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

/** A test key, never funded anywhere. */
const SOURCE_KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
const GOVERNANCE = 'cx0000000000000000000000000000000000000001';
const ICX = 10n ** 18n;

const hexInt = (value: bigint | number): string => `0x${value.toString(16)}`;
const hash32 = (seed: string): string => `0x${createHash('sha3-256').update(seed).digest('hex')}`;

/** Constructed answers, not an ICON node; see docs/integrators/devnet.md#the-rpc-stand-ins. */
export class IconRpcDouble {
  private server?: Server;
  private readonly balances = new Map<string, bigint>();
  private readonly transactions = new Map<string, { tx: RawTransaction & { txHash: string }; result: TransactionResultJson }>();
  private height = 80_000_000;
  url = '';
  /** ICON mainnet's 12.5 Gloop per step. */
  stepPrice = 12_500_000_000n;
  steps = 150_000n;
  /** False: debug_* answer "method not found". */
  debugApi = true;
  revert?: string;
  /** A node that hangs. */
  stall = false;
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

  setBalance(address: string, loop: bigint): void {
    this.balances.set(address, loop);
  }

  /** As the public client sends it (`_data` = RLP [hub calls, hub wallet]; ICX through wICX); answers its hash. */
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

  /** Refused as goloop would (SCORE error codes -30000 - status). */
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
