import { INTENTS_ABI, type ChainDirectory } from '@swap/chains';
import type { BuildResponse, EvmTx } from '@swap/contracts';
import { intentRequestBody } from '@swap/testing';
import pg from 'pg';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  maxUint256,
  parseEventLogs,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { DEV_KEYS } from '../../devnet/src/devnet';
import { percentile } from './process-stats';

/** Account 7: used by nothing but the pace measurement. */
const PACE_KEY = '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356';

export const SPOKE = '0xa4b1.arbitrum';
export const HUB = '0x92.sonic';
export const OTHER_SPOKE = '0x2105.base';

export interface Prepared {
  txHash: Hex;
  srcChainKey: string;
  walletAddress: string;
  intentHash?: string;
  body: string;
}

export class SwapMaker {
  private readonly accounts: PrivateKeyAccount[] = DEV_KEYS.slice(1, 5).map((k) => privateKeyToAccount(k));
  private readonly chains = new Map<string, { chain: Chain; client: PublicClient }>();
  /** An hour ahead of the hub's clock, fetched again once half of it has gone (a soak outlasts it). */
  private deadline?: { value: string; renewAt: number };
  private n = 0;

  constructor(
    private readonly directory: ChainDirectory,
    private readonly gateway: string,
  ) {
    for (const key of [HUB, SPOKE, OTHER_SPOKE]) {
      const c = directory.getChain(key);
      const chain = defineChain({
        id: c.chainId as number,
        name: c.name,
        nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
        rpcUrls: { default: { http: c.rpcUrls! } },
      });
      this.chains.set(key, { chain, client: createPublicClient({ chain, transport: http(), pollingInterval: 50 }) });
    }
  }

  client(key: string): PublicClient {
    return this.chains.get(key)!.client;
  }

  /** The median plain hub transfer, sent and mined: the relayer and solvers send a swap's hub transactions one after another. */
  async hubRoundTripMs(samples = 10): Promise<number> {
    const { chain, client } = this.chains.get(HUB)!;
    const wallet = createWalletClient({ chain, transport: http(), account: privateKeyToAccount(PACE_KEY) });
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      const hash = await wallet.sendTransaction({ to: wallet.account.address, value: 0n });
      await client.waitForTransactionReceipt({ hash });
      times.push(performance.now() - started);
    }
    return percentile(times, 0.5);
  }

  async approveAll(): Promise<void> {
    for (const account of this.accounts) {
      const approval = await this.post<{ tx: EvmTx }>('/v1/swaps/approve', {
        ...this.request(account.address, HUB),
        inputAmount: maxUint256.toString(),
        deadline: '0',
      });
      await this.send(account, approval.tx);
    }
  }

  /** Built and broadcast, not yet submitted. */
  async prepare(wallet: number, dst: string): Promise<Prepared> {
    const account = this.accounts[wallet];
    const built = await this.post<BuildResponse & { tx: EvmTx }>('/v1/swaps/intents', {
      ...this.request(account.address, dst),
      inputAmount: String(1_000_000 + ++this.n),
      deadline: await this.currentDeadline(),
    });
    // Hashed before the deposit is sent: a swap whose deposit is on chain is always submitted.
    const intentHash = (await this.post<{ hash: string }>('/v1/swaps/intents/hash', { intent: built.intent })).hash;
    const txHash = await this.send(account, built.tx);
    const body = JSON.stringify({
      txHash,
      srcChainKey: SPOKE,
      walletAddress: account.address,
      intent: built.intent,
      relayData: built.relayData.payload,
    });
    return { txHash, srcChainKey: SPOKE, walletAddress: account.address, intentHash, body };
  }

  async batch(count: number, dst = HUB): Promise<Prepared[]> {
    const batch: Prepared[] = [];
    await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        for (let i = w; i < count; i += 4) batch.push(await this.prepare(w, dst));
      }),
    );
    return batch;
  }

  private async currentDeadline(): Promise<string> {
    if (!this.deadline || Date.now() >= this.deadline.renewAt) {
      const renewAt = Date.now() + 1_800_000;
      const { deadline } = (await (await fetch(`${this.gateway}/v1/swaps/deadline?offsetSeconds=3600`)).json()) as { deadline: string };
      this.deadline = { value: deadline, renewAt };
    }
    return this.deadline.value;
  }

  private request(user: string, dst: string) {
    const usdc = (key: string) => this.directory.tokensOf(key).find((t) => t.symbol === 'USDC')!.address;
    const output = dst === HUB ? this.directory.tokensOf(HUB).find((t) => t.symbol === 'WETH')!.address : usdc(dst);
    return intentRequestBody({
      srcChainKey: SPOKE,
      dstChainKey: dst,
      inputToken: usdc(SPOKE),
      outputToken: output,
      inputAmount: '1000000',
      user,
    });
  }

  private async send(account: PrivateKeyAccount, tx: EvmTx): Promise<Hex> {
    const { chain, client } = this.chains.get(SPOKE)!;
    const wallet = createWalletClient({ chain, transport: http(), account });
    const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, value: BigInt(tx.value) });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`a bench transaction reverted: ${hash}`);
    return hash;
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`${this.gateway}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }
}

/** `seen`: performance.now(); `seenAt`: the wall clock. */
export class FillWatcher {
  readonly seen = new Map<string, number>();
  readonly seenAt = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private from?: bigint;

  constructor(
    private readonly hub: PublicClient,
    private readonly intents: Address,
    private readonly everyMs = 25,
  ) {}

  start(): void {
    const tick = async () => {
      try {
        const latest = await this.hub.getBlockNumber();
        const from = this.from ?? latest;
        const logs = await this.hub.getLogs({ address: this.intents, fromBlock: from, toBlock: latest });
        const now = performance.now();
        for (const event of parseEventLogs({ abi: INTENTS_ABI, logs, eventName: 'IntentFilled' })) {
          const hash = event.args.intentHash.toLowerCase();
          if (!this.seen.has(hash)) {
            this.seen.set(hash, now);
            this.seenAt.set(hash, Date.now());
          }
        }
        this.from = latest; // the latest block again next time: instant mining adds to it
      } catch {
        // an RPC hiccup: the next tick reads the same blocks again
      } finally {
        this.timer = setTimeout(() => void tick(), this.everyMs);
      }
    };
    void tick();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** Wall clock, ms. */
export interface Stages {
  toMarketplace: number[];
  toFill: number[];
  toSolved: number[];
  handedPerSecond: number;
}

export async function stagesOf(sql: pg.Pool, batch: Prepared[], watcher: FillWatcher): Promise<Stages> {
  const { rows } = await sql.query<{ intent_hash: string; created_at: Date; history: { status: string; at: string }[] }>(
    `SELECT intent_hash, created_at, history FROM relay_tracker.submissions WHERE tx_hash = ANY($1)`,
    [batch.map((s) => s.txHash.toLowerCase())],
  );
  const stages: Stages = { toMarketplace: [], toFill: [], toSolved: [], handedPerSecond: 0 };
  let first = Infinity;
  let lastHanded = 0;
  for (const row of rows) {
    const at = (status: string) => Date.parse(row.history.find((h) => h.status === status)!.at);
    const created = row.created_at.getTime();
    const posted = at('posted_execution');
    const filled = watcher.seenAt.get(row.intent_hash.toLowerCase());
    first = Math.min(first, created);
    lastHanded = Math.max(lastHanded, posted);
    stages.toMarketplace.push(posted - created);
    if (filled !== undefined) {
      stages.toFill.push(filled - posted);
      stages.toSolved.push(at('solved') - filled);
    }
  }
  stages.handedPerSecond = rows.length / ((lastHanded - first) / 1000);
  return stages;
}

export function stage(ms: number[]): string {
  return ms.length ? `${(percentile(ms, 0.5) / 1000).toFixed(1)} / ${(Math.max(...ms) / 1000).toFixed(1)}` : 'n/a';
}

export async function submit(gateway: string, swap: Prepared, headers: Record<string, string> = {}): Promise<void> {
  const res = await fetch(`${gateway}/v1/swaps/submit-tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: swap.body,
  });
  if (res.status !== 200) throw new Error(`submit-tx answered ${res.status}: ${await res.text()}`);
}

/** When it was first seen solved (performance.now()). */
export async function pollUntilSolved(gateway: string, swap: Prepared, everyMs: number): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${gateway}/v1/swaps/submit-tx/status?txHash=${swap.txHash}&srcChainKey=${swap.srcChainKey}`);
    const now = performance.now();
    const status = ((await res.json()) as { data?: { status: string; userMessage?: string } }).data;
    if (status?.status === 'solved') return now;
    if (status?.status === 'failed') throw new Error(`a bench swap failed: ${status.userMessage}`);
    if (Date.now() > deadline) throw new Error(`a bench swap did not settle: ${swap.txHash}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
