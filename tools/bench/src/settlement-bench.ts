/**
 * The settlement part of `npm run bench`, in cluster mode on the devnet (anvil chains, the
 * devnet relayer, JetStream, PostgreSQL, two reference solvers):
 *  1. fill seen → solved visible: swaps submitted a few at a time; the bench watches the
 *     hub for IntentFilled (every 50 ms) and polls the status route (every 50 ms);
 *  2. submissions carried from pending to solved per second, with one relay-tracker
 *     replica and then two (a batch broadcast first, then submitted at once);
 *  3. status polls through api-gateway: req/s beside a bare Node server answering the
 *     same body, and beside the same row read with plain SQL.
 * Every figure is printed beside its reference from this run.
 */
import { INTENTS_ABI, loadChainRegistry, type ChainRegistry } from '@swap/chains';
import type { BuildResponse, EvmTx } from '@swap/contracts';
import { removePrefixedStreams } from '@swap/messaging';
import { migrateService } from '@swap/service-kit';
import { intentRequestBody, unusedPort } from '@swap/testing';
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  parseEventLogs,
  http,
  maxUint256,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { oracleCandles } from '../../../apps/oracle-candles/src/oracle-candles.definition';
import { registerAndStartSolvers, type ReferenceSolver } from '../../../apps/reference-solver/src/reference-solver.definition';
import { relayTracker } from '../../../apps/relay-tracker/src/relay-tracker.definition';
import { DEV_KEYS, startDevnet } from '../../devnet/src/devnet';
import type { BenchContext } from './oracle-bench';

const LATENCY_SWAPS = Number(process.env.BENCH_SETTLEMENT_LATENCY_SWAPS ?? 40);
const BATCH = Number(process.env.BENCH_SETTLEMENT_BATCH ?? 120);
/** relay-tracker's SETTLEMENT_CONCURRENCY default, and a cap low enough that relay-tracker itself is the limit. */
const DEFAULT_CONCURRENCY = 32;
const CAPPED_CONCURRENCY = Number(process.env.BENCH_SETTLEMENT_CAPPED_CONCURRENCY ?? 2);
const SPOKE = '0xa4b1.arbitrum';
const HUB = '0x92.sonic';
const OTHER_SPOKE = '0x2105.base';

interface Prepared {
  txHash: Hex;
  srcChainKey: string;
  walletAddress: string;
  intentHash?: string;
  body: string;
}

export async function benchSettlement(ctx: BenchContext & { natsUrl: string }): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-settlement-'));
  const devnet = await startDevnet({ dataDir, basePort: 0 });
  const solvers: ReferenceSolver[] = [];
  const prefix = `bench-settle-${Date.now().toString(36)}`;
  const sql = new pg.Pool({ connectionString: ctx.benchDatabaseUrl, max: 50 });
  sql.on('error', () => undefined);
  try {
    const registry = loadChainRegistry(devnet.profilePath);
    for (const d of [relayTracker, oracleCandles]) await migrateService(ctx.benchDatabaseUrl, d);
    await sql.query('TRUNCATE relay_tracker.submissions, relay_tracker.work_items CASCADE');
    const ports = {
      quote: await unusedPort(),
      oracle: await unusedPort(),
      swap: await unusedPort(),
      gateway: await unusedPort(),
      bare: await unusedPort(),
      proxy: await unusedPort(),
    };
    const common = {
      DATABASE_URL: ctx.benchDatabaseUrl,
      NATS_URL: ctx.natsUrl,
      NATS_SUBJECT_PREFIX: prefix,
      REDIS_URL: ctx.redisUrl,
      CACHE_KEY_PREFIX: prefix,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      CHAIN_PROFILE: devnet.profilePath,
      RELAY_API_URL: devnet.relayApiUrl,
      WORK_QUEUE: 'jetstream',
      PRICE_SOURCE: 'simulated',
      SIMULATION_TICK_MS: '200',
      FLUSH_INTERVAL_MS: '200',
      CANDLE_CACHE_TTL_MS: '500',
      EXCLUSIVITY_MS: '0',
      SUBMIT_LIMIT_PER_CLIENT: '1000000',
      SUBMIT_LIMIT_PER_WALLET: '1000000',
    };
    await ctx.start('dist/apps/quote-builder/src/main.js', { ...common, PORT: String(ports.quote) });
    await ctx.start('dist/apps/oracle-candles/src/main.js', { ...common, PORT: String(ports.oracle) });
    await ctx.startKeyRegistry(common); // the signed key set swap-gateway checks keys with (families off)
    await ctx.start('dist/apps/swap-gateway/src/main.js', { ...common, PORT: String(ports.swap) });
    await ctx.start('dist/apps/api-gateway/src/main.js', {
      ...common,
      PORT: String(ports.gateway),
      UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${ports.swap}`,
    });
    let trackers: { pid?: number }[] = [];
    /** Replaces the running relay-tracker replicas by `replicas` new ones with `concurrency` handler slots each. */
    const runTrackers = async (replicas: number, concurrency: number) => {
      for (const t of trackers) if (t.pid) process.kill(t.pid, 'SIGTERM');
      trackers = [];
      for (let i = 0; i < replicas; i++) {
        const port = await unusedPort();
        trackers.push(
          await ctx.start('dist/apps/relay-tracker/src/main.js', {
            ...common,
            PORT: String(port),
            SETTLEMENT_CONCURRENCY: String(concurrency),
          }),
        );
        await ctx.waitForService(port);
      }
    };
    for (const port of [ports.quote, ports.oracle, ports.swap, ports.gateway]) await ctx.waitForService(port);
    await runTrackers(1, DEFAULT_CONCURRENCY);
    const gateway = `http://127.0.0.1:${ports.gateway}`;

    // Two reference solvers on the marketplace, pricing from the oracle.
    const hub = registry.hub;
    solvers.push(
      ...(await registerAndStartSolvers({
        quoteBuilderUrl: `http://127.0.0.1:${ports.quote}`,
        oracleUrl: `http://127.0.0.1:${ports.oracle}`,
        hubRpcUrl: hub.rpcUrls![0],
        intentsContract: hub.contracts!.intents!,
        wallets: devnet.solvers,
        namePrefix: prefix,
      })),
    );
    await until(() => solvers.every((s) => s.connected), 15_000, 'the solvers did not connect');
    await until(
      async () => (await pricedSymbols(`http://127.0.0.1:${ports.oracle}`, ['USDC', 'ETH'])) === 2,
      20_000,
      'the oracle has no prices',
    );

    const swaps = new SwapMaker(registry, gateway);
    await swaps.approveAll();
    const watcher = new FillWatcher(swaps.client(HUB), registry.hub.contracts!.intents as Address);
    watcher.start();

    // 1. Fill seen → solved visible on the status route.
    const latencies: Record<'hub' | 'spoke', number[]> = { hub: [], spoke: [] };
    for (let i = 0; i < LATENCY_SWAPS; i += 4) {
      const group = await Promise.all([0, 1, 2, 3].map((j) => swaps.prepare(j, (i + j) % 2 === 0 ? HUB : OTHER_SPOKE)));
      await Promise.all(
        group.map(async (swap) => {
          await submit(gateway, swap);
          const solvedAt = await pollUntilSolved(gateway, swap, 50);
          const filledAt = watcher.seen.get(swap.intentHash!);
          if (filledAt === undefined) throw new Error(`solved without a fill seen: ${swap.txHash}`);
          latencies[JSON.parse(swap.body).intent.dstChain === registry.hub.relayChainId ? 'hub' : 'spoke'].push(solvedAt - filledAt);
        }),
      );
    }

    // 2. Throughput: a batch broadcast first, then submitted at once; one replica, then two;
    //    with the default handler slots (the devnet is the limit on two cores), then with few
    //    (relay-tracker is the limit, so the ratio shows whether its work spreads over replicas).
    const throughput: {
      replicas: number;
      concurrency: number;
      perSecond: number;
      seconds: number;
      cpu: { machineBusy: number; trackerCores: number };
      stages: Stages;
    }[] = [];
    for (const [replicas, concurrency] of [
      [1, DEFAULT_CONCURRENCY],
      [2, DEFAULT_CONCURRENCY],
      [1, CAPPED_CONCURRENCY],
      [2, CAPPED_CONCURRENCY],
    ]) {
      if (replicas !== trackers.length || concurrency !== (throughput.at(-1)?.concurrency ?? DEFAULT_CONCURRENCY))
        await runTrackers(replicas, concurrency);
      const batch: Prepared[] = [];
      await Promise.all(
        [0, 1, 2, 3].map(async (w) => {
          for (let i = w; i < BATCH; i += 4) batch.push(await swaps.prepare(w, HUB));
        }),
      );
      const started = performance.now();
      const cpuBefore = { machine: machineCpu(), trackers: trackers.map((t) => processCpuSeconds(t.pid)) };
      await mapLimit(batch, 50, (swap) => submit(gateway, swap));
      const hashes = batch.map((s) => s.txHash.toLowerCase());
      await until(
        async () => {
          const { rows } = await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM relay_tracker.submissions WHERE tx_hash = ANY($1) AND status IN ('solved', 'failed')`,
            [hashes],
          );
          return rows[0].n === batch.length;
        },
        300_000,
        `the batch of ${batch.length} did not settle`,
        100,
      );
      const seconds = (performance.now() - started) / 1000;
      const machine = machineCpu();
      const cpu = {
        machineBusy: (machine.busy - cpuBefore.machine.busy) / (machine.total - cpuBefore.machine.total),
        trackerCores: trackers.reduce((sum, t, i) => sum + processCpuSeconds(t.pid) - cpuBefore.trackers[i], 0) / seconds,
      };
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM relay_tracker.submissions WHERE tx_hash = ANY($1) AND status = 'solved'`,
        [hashes],
      );
      if (rows[0].n !== batch.length) throw new Error(`${batch.length - rows[0].n} of the batch failed`);
      throughput.push({
        replicas,
        concurrency,
        perSecond: batch.length / seconds,
        seconds,
        cpu,
        stages: await stagesOf(sql, batch, watcher),
      });
    }
    watcher.stop();

    // 3. Status polls through the gateway, beside a bare server and plain SQL.
    const sample = (
      await sql.query<{ tx_hash: string; src_chain_key: string }>(
        `SELECT tx_hash, src_chain_key FROM relay_tracker.submissions WHERE status = 'solved' LIMIT 1`,
      )
    ).rows[0];
    const statusPath = `/v1/swaps/submit-tx/status?txHash=${sample.tx_hash}&srcChainKey=${sample.src_chain_key}`;
    const statusBody = await (await fetch(`${gateway}${statusPath}`)).text();
    const bodyFile = join(dataDir, 'status.json');
    writeFileSync(bodyFile, statusBody);
    await ctx.start('dist/tools/bench/src/reference-servers.js', {
      BARE_PORT: String(ports.bare),
      PROXY_PORT: String(ports.proxy),
      BODY_FILE: bodyFile,
    });
    await ctx.waitFor(`http://127.0.0.1:${ports.proxy}/`);
    const load = async (url: string) => {
      await autocannon({ url, connections: ctx.connections, duration: Math.min(2, ctx.duration) });
      return autocannon({ url, connections: ctx.connections, duration: ctx.duration });
    };
    const bare = await load(`http://127.0.0.1:${ports.bare}/`);
    const polls = await load(`${gateway}${statusPath}`);
    const plainSql = await sqlRate(sql, sample.tx_hash, sample.src_chain_key, ctx.duration, ctx.connections);

    const fmt = (xs: number[]) =>
      `p50 ${percentile(xs, 0.5).toFixed(0)} ms, p95 ${percentile(xs, 0.95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length} swaps)`;
    ctx.print([
      '',
      `settlement: cluster mode on the devnet (JetStream work queue, devnet relayer, 2 reference solvers; relay-tracker STEP_POLL_MS 500; anvil blocks every ${1} s plus instant mining)`,
      `  fill seen → solved on the status route (bench polls both every 50 ms):`,
      `    destination hub:   ${fmt(latencies.hub)}  (target p50 < 1000, p95 < 2000)`,
      `    destination spoke: ${fmt(latencies.spoke)}  (includes the relayer's delivery to the spoke)`,
      `  pending → solved, a batch of ${BATCH} Arbitrum → hub swaps submitted at once:`,
      ...throughput.flatMap((t) => [
        `    ${t.replicas} relay-tracker replica${t.replicas > 1 ? 's' : ' '}, ${t.concurrency} handler slots each: ${t.perSecond.toFixed(1)} swaps/s (${t.seconds.toFixed(1)} s)`,
        `      where a swap's time went (p50 / max, s): submit → posted_execution (relay-tracker, the devnet relayer) ${stage(t.stages.toMarketplace)}; posted → filled (the 2 solvers) ${stage(t.stages.toFill)}; filled → solved (relay-tracker) ${stage(t.stages.toSolved)}`,
        `      the batch handed to the marketplace at ${t.stages.handedPerSecond.toFixed(1)} swaps/s (relay-tracker's part of the pipeline); the machine's CPUs ${pct(t.cpu.machineBusy)} busy, relay-tracker using ${t.cpu.trackerCores.toFixed(2)} of ${cpus().length} cores`,
      ]),
      ...[0, 2].map(
        (i) =>
          `    scaling with ${throughput[i].concurrency} slots: 2 replicas carry ${(throughput[i + 1].perSecond / throughput[i].perSecond).toFixed(2)}× the swaps/s of one end to end, ${(throughput[i + 1].stages.handedPerSecond / throughput[i].stages.handedPerSecond).toFixed(2)}× up to the marketplace`,
      ),
      `  status polls, GET ${statusPath.split('?')[0]} (${statusBody.length}-byte body, ${ctx.connections} connections, ${ctx.duration} s):`,
      `    reference: bare Node server ${bare.requests.average.toFixed(0)} req/s; plain SQL (pg, same row) ${plainSql.toFixed(0)} queries/s`,
      `    api-gateway → swap-gateway → NATS → relay-tracker → PostgreSQL: ${polls.requests.average.toFixed(0)} req/s = ${pct(polls.requests.average / bare.requests.average)} of the bare server, ${pct(polls.requests.average / plainSql)} of plain SQL; p50 ${polls.latency.p50} ms, p99 ${polls.latency.p99} ms, non-2xx ${polls.non2xx}`,
      '',
    ]);
  } finally {
    for (const s of solvers) await s.stop().catch(() => undefined);
    await sql.end().catch(() => undefined);
    await devnet.stop();
    await removePrefixedStreams(ctx.natsUrl, prefix).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Builds, signs and broadcasts swaps from four demo wallets (the bench's users). */
class SwapMaker {
  private readonly accounts: PrivateKeyAccount[] = DEV_KEYS.slice(1, 5).map((k) => privateKeyToAccount(k));
  private readonly chains = new Map<string, { chain: Chain; client: PublicClient }>();
  private deadline?: string;
  private n = 0;

  constructor(
    private readonly registry: ChainRegistry,
    private readonly gateway: string,
  ) {
    for (const key of [HUB, SPOKE, OTHER_SPOKE]) {
      const c = registry.getChain(key);
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

  async approveAll(): Promise<void> {
    this.deadline = ((await (await fetch(`${this.gateway}/v1/swaps/deadline?offsetSeconds=3600`)).json()) as { deadline: string }).deadline;
    for (const account of this.accounts) {
      const approval = await this.post<{ tx: EvmTx }>('/v1/swaps/approve', {
        ...this.request(account.address, HUB),
        inputAmount: maxUint256.toString(),
        deadline: '0',
      });
      await this.send(account, approval.tx);
    }
  }

  /** One Arbitrum swap to `dst`, built and broadcast (mined), not yet submitted. */
  async prepare(wallet: number, dst: string): Promise<Prepared> {
    const account = this.accounts[wallet];
    const built = await this.post<BuildResponse & { tx: EvmTx }>('/v1/swaps/intents', {
      ...this.request(account.address, dst),
      inputAmount: String(1_000_000 + ++this.n),
      deadline: this.deadline,
    });
    const txHash = await this.send(account, built.tx);
    const body = JSON.stringify({
      txHash,
      srcChainKey: SPOKE,
      walletAddress: account.address,
      intent: built.intent,
      relayData: built.relayData.payload,
    });
    const intentHash = (await this.post<{ hash: string }>('/v1/swaps/intents/hash', { intent: built.intent })).hash;
    return { txHash, srcChainKey: SPOKE, walletAddress: account.address, intentHash, body };
  }

  private request(user: string, dst: string) {
    const usdc = (key: string) => this.registry.tokensOf(key).find((t) => t.symbol === 'USDC')!.address;
    const output = dst === HUB ? this.registry.tokensOf(HUB).find((t) => t.symbol === 'WETH')!.address : usdc(dst);
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

interface Stages {
  toMarketplace: number[];
  toFill: number[];
  toSolved: number[];
  handedPerSecond: number;
}

/** A batch's swaps split into the pipeline's stages, from their histories and the fills the watcher saw (wall clock, ms). */
async function stagesOf(sql: pg.Pool, batch: Prepared[], watcher: FillWatcher): Promise<Stages> {
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

/** Busy and total jiffies of all CPUs (/proc/stat; zeros where there is none). */
function machineCpu(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3] - (fields[4] ?? 0), total };
  } catch {
    return { busy: 0, total: 1 };
  }
}

/** CPU seconds (user + system) a process has used so far (/proc/<pid>/stat). */
function processCpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz on Linux)
  } catch {
    return 0;
  }
}

function stage(ms: number[]): string {
  return ms.length ? `${(percentile(ms, 0.5) / 1000).toFixed(1)} / ${(Math.max(...ms) / 1000).toFixed(1)}` : 'n/a';
}

/** When each IntentFilled was first seen on the hub (performance.now(), and the wall clock in `seenAt`), read every 50 ms. */
class FillWatcher {
  readonly seen = new Map<string, number>();
  readonly seenAt = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private from?: bigint;

  constructor(
    private readonly hub: PublicClient,
    private readonly intents: Address,
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
        this.timer = setTimeout(() => void tick(), 50);
      }
    };
    void tick();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

async function submit(gateway: string, swap: Prepared): Promise<void> {
  const res = await fetch(`${gateway}/v1/swaps/submit-tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: swap.body,
  });
  if (res.status !== 200) throw new Error(`submit-tx answered ${res.status}: ${await res.text()}`);
}

async function pollUntilSolved(gateway: string, swap: Prepared, everyMs: number): Promise<number> {
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

async function sqlRate(sql: pg.Pool, txHash: string, srcChainKey: string, seconds: number, connections: number): Promise<number> {
  let n = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await sql.query('SELECT * FROM relay_tracker.submissions WHERE tx_hash = $1 AND src_chain_key = $2', [txHash, srcChainKey]);
        n++;
      }
    }),
  );
  return n / seconds;
}

async function pricedSymbols(oracle: string, symbols: string[]): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  let priced = 0;
  for (const symbol of symbols) {
    const res = await fetch(`${oracle}/v1/be/oracle/candles?symbol=${symbol}&interval=1m&from=${now - 120}&to=${now + 60}`).catch(
      () => undefined,
    );
    if (res?.ok && ((await res.json()) as { candles: unknown[] }).candles.length > 0) priced++;
  }
  return priced;
}

async function until(probe: () => boolean | Promise<boolean>, timeoutMs: number, message: string, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}
