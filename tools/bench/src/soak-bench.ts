/** The soak part of `npm run bench -- soak`; see docs/development.md#the-soak-part. */
import { migrateService } from '@swap/service-kit';
import { intentRequestBody } from '@swap/testing';
import { cpus } from 'node:os';
import type pg from 'pg';
import { partnerPortalApi } from '../../../apps/partner-portal-api/src/partner-portal-api.definition';
import { parseMetrics } from '../../ops/src/prometheus-text';
import { startDevnetPlatform } from './devnet-platform';
import type { BenchContext } from './oracle-bench';
import { pct, sleep, until } from './process-stats';
import { HUB, SPOKE, submit, SwapMaker } from './settlement-swaps';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 20);
/** Each service's reference: its first sample this long after the start (code compiled, caches and pools filled). */
const WARM_UP_MINUTES = Number(process.env.BENCH_SOAK_WARM_UP_MINUTES ?? 2);
const SAMPLE_SECONDS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 60);
const GROWTH_LIMIT = 0.1;
/** Fewer samples after the reference than this and "rising every minute" says nothing. */
const CLIMB_SAMPLES = 4;

interface Sample {
  at: number;
  rss: number;
  heap: number;
  /** What V8 holds for its heap (used or not), and memory outside it that JS objects own (Buffers): RSS minus both is native (malloc, code, threads). */
  heapTotal: number;
  /** Of heapTotal: V8's young generation (grows with the allocation rate) and its old one. */
  newSpace: number;
  oldSpace: number;
  external: number;
  /** Since the previous scrape: prom-client resets its event-loop histogram on each. */
  loopP99Ms: number;
}

interface Watched {
  name: string;
  adminPort: number;
  samples: Sample[];
}

/** Counts of one kind of traffic. */
class Tally {
  ok = 0;
  failed = 0;
  lastError?: string;

  async run(work: () => Promise<boolean | void>): Promise<void> {
    try {
      if ((await work()) === false) this.failed++;
      else this.ok++;
    } catch (error) {
      this.failed++;
      this.lastError = (error as Error).message;
    }
  }

  toString(): string {
    return `${this.ok}${this.failed ? ` (${this.failed} failed${this.lastError ? `: ${this.lastError.slice(0, 80)}` : ''})` : ''}`;
  }
}

export async function benchSoak(ctx: BenchContext): Promise<void> {
  const started = Date.now();
  const prefix = `bench-soak-${started.toString(36)}`;
  const platform = await startDevnetPlatform(ctx, { prefix });
  try {
    await platform.runTrackers(2);
    await migrateService(ctx.benchDatabaseUrl, partnerPortalApi);
    // Failed sign-ins are counted (the throttle's writes), never enough to refuse the next.
    const portal = await platform.startService('partner-portal-api', {
      PORTAL_PUBLIC_URL: 'http://127.0.0.1',
      SIGN_IN_FAILURE_LIMIT: '1000',
    });
    const { gateway, directory } = platform;
    const watched: Watched[] = [...platform.admins(), { name: portal.name, adminPort: ctx.adminPortOf(portal.port) }].map((s) => ({
      ...s,
      samples: [],
    }));

    const swaps = new SwapMaker(directory, gateway);
    await swaps.approveAll();
    const accounts = await signUpAccounts(`http://127.0.0.1:${portal.port}`, prefix);

    const tally = { reads: new Tally(), quotes: new Tally(), builds: new Tally(), swaps: new Tally(), signIns: new Tally() };
    const submitted: string[] = [];
    // The warm-up counts from here, when the traffic starts.
    const trafficFrom = Date.now();
    const end = trafficFrom + MINUTES * 60_000;
    const running = () => Date.now() < end;
    const usdc = (key: string) => directory.tokensOf(key).find((t) => t.symbol === 'USDC')!.address;
    const weth = directory.tokensOf(HUB).find((t) => t.symbol === 'WETH')!.address;
    const deadline = (
      (await (await fetch(`${gateway}/v1/swaps/deadline?offsetSeconds=${MINUTES * 60 + 3600}`)).json()) as { deadline: string }
    ).deadline;
    const reads = [
      `/v1/swaps/tokens/${SPOKE}`,
      `/v1/swaps/tokens`,
      `/v1/be/oracle/candles?symbol=ETH&interval=1m&from=${Math.floor(started / 1000) - 600}&to=${Math.floor(started / 1000) + MINUTES * 60 + 600}`,
    ];
    let n = 0;
    let signIns = 0;
    const traffic = [
      // Reads: 20 a second, the token lists, candles and a swap's status in turn.
      steady(running, 20, () =>
        tally.reads.run(async () => {
          const last = submitted.at(-1);
          const path = n % 4 === 3 && last ? `/v1/swaps/submit-tx/status?txHash=${last}&srcChainKey=${SPOKE}` : reads[n % 3];
          n++;
          return (await drain(await fetch(`${gateway}${path}`))) === 200;
        }),
      ),
      // Quotes: 2 a second, each an RFQ to both solvers.
      steady(running, 2, () =>
        tally.quotes.run(async () => {
          const body = {
            tokenSrc: usdc(SPOKE),
            tokenSrcChainKey: SPOKE,
            tokenDst: weth,
            tokenDstChainKey: HUB,
            amount: '2500000',
            quoteType: 'exact_input',
          };
          return (await drain(await post(`${gateway}/v1/swaps/quote`, body))) === 200;
        }),
      ),
      // Builds for users never seen before: 2 a second, each looking up a new hub wallet.
      steady(running, 2, () =>
        tally.builds.run(async () => {
          const user = `0x${(0xc0000000 + Math.floor(Math.random() * 2 ** 31)).toString(16).padStart(40, '0')}`;
          const body = {
            ...intentRequestBody({
              srcChainKey: SPOKE,
              dstChainKey: HUB,
              inputToken: usdc(SPOKE),
              outputToken: weth,
              inputAmount: '2500000',
              user,
            }),
            deadline,
          };
          return (await drain(await post(`${gateway}/v1/swaps/intents`, body))) === 200;
        }),
      ),
      // Swaps: each of the 4 demo wallets builds, sends and submits one after another, a second apart.
      ...[0, 1, 2, 3].map(async (wallet) => {
        while (running()) {
          await tally.swaps.run(async () => {
            const swap = await swaps.prepare(wallet, HUB);
            await submit(gateway, swap);
            submitted.push(swap.txHash);
          });
          await sleep(1_000);
        }
      }),
      // Portal sign-ins: one every 5 s, a wrong password every fourth (throttle counters written).
      steady(running, 0.2, () =>
        tally.signIns.run(async () => {
          const account = accounts[signIns % accounts.length];
          const wrong = signIns++ % 4 === 0;
          const status = await signIn(`http://127.0.0.1:${portal.port}`, account, wrong ? 'not the password' : PASSWORD);
          return status === (wrong ? 401 : 200);
        }),
      ),
    ];
    const sampling = (async () => {
      while (running()) {
        await sleep(Math.min(SAMPLE_SECONDS * 1000, Math.max(0, end - Date.now())));
        // A service that does not answer its metrics is a finding, not the end of the soak.
        for (const w of watched)
          w.samples.push(
            await sampleOf(w.adminPort).catch(() => ({
              at: Date.now(),
              rss: NaN,
              heap: NaN,
              heapTotal: NaN,
              newSpace: NaN,
              oldSpace: NaN,
              external: NaN,
              loopP99Ms: NaN,
            })),
          );
      }
    })();
    await Promise.all([...traffic, sampling]);

    // Every swap submitted settles; none failed.
    await until(
      async () => (await settled(platform.sql, submitted)).pending === 0,
      180_000,
      'swaps still pending 3 min after the soak',
      500,
    );
    const outcome = await settled(platform.sql, submitted);

    const ref = (w: Watched) => w.samples.find((s) => s.at - trafficFrom >= WARM_UP_MINUTES * 60_000 && Number.isFinite(s.rss));
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    const rows = watched.map((w) => {
      const reference = ref(w);
      const last = w.samples.at(-1)!;
      const after = reference ? w.samples.slice(w.samples.indexOf(reference)) : [];
      const growth = reference ? last.rss / reference.rss - 1 : NaN;
      const rising = after.length > CLIMB_SAMPLES ? after.every((s, i) => i === 0 || s.rss > after[i - 1].rss) : undefined;
      const loopMax = Math.max(...after.map((s) => s.loopP99Ms));
      return { w, reference, last, growth, rising, loopMax };
    });
    const pad = (text: string, width: number) => text.padEnd(width);
    ctx.print([
      '',
      `soak: ${MINUTES} min of steady mixed traffic on the devnet cluster (2 relay-tracker replicas, JetStream, 2 reference solvers, ${cpus().length} cores); every service sampled each ${SAMPLE_SECONDS} s`,
      `  traffic: reads ${tally.reads} (20/s), quotes ${tally.quotes} (2/s), builds for new users ${tally.builds} (2/s), swaps submitted ${tally.swaps} (4 wallets), portal sign-ins ${tally.signIns} (1 in 4 a wrong password)`,
      `  swaps: ${outcome.solved} solved, ${outcome.failed} failed, ${outcome.pending} still unsettled 3 min after the traffic, of ${submitted.length} submitted`,
      `  reference: each service's own first sample ${WARM_UP_MINUTES} min in; resident memory growth from it to the last sample (target ≤ ${pct(GROWTH_LIMIT)}), and whether it rose at every sample after it (a climb)`,
      `  ${pad('service', 18)} ${pad('RSS at ref', 11)} ${pad('RSS at end', 11)} ${pad('growth', 8)} ${pad('climb', 14)} ${pad('heap at ref → end', 18)} event-loop p99 at ref → max after (ratio)`,
      ...rows.map(({ w, reference, last, growth, rising, loopMax }) =>
        reference
          ? `  ${pad(w.name, 18)} ${pad(mb(reference.rss), 11)} ${pad(mb(last.rss), 11)} ${pad(pct(growth), 8)} ${pad(rising === undefined ? 'too few samples' : rising ? 'RISING' : 'no', 14)} ${pad(`${mb(reference.heap)} → ${mb(last.heap)}`, 18)} ${reference.loopP99Ms.toFixed(1)} → ${loopMax.toFixed(1)} ms (${(loopMax / Math.max(reference.loopP99Ms, 0.001)).toFixed(2)}×)`
          : `  ${pad(w.name, 18)} no sample after ${WARM_UP_MINUTES} min (BENCH_SOAK_MINUTES too short)`,
      ),
      `  where resident memory grew from the reference to the end (MB): V8's heap as committed (its young and old generations), memory owned outside it (Buffers), and the rest (native: allocator, code, threads)`,
      ...rows
        .filter((r) => r.reference)
        .map(({ w, reference, last }) => {
          const delta = (a: number, b: number) => `${b - a >= 0 ? '+' : ''}${((b - a) / 2 ** 20).toFixed(1)}`;
          const rest = (s: Sample) => s.rss - s.heapTotal - s.external;
          const heap = `heap committed ${pad(delta(reference!.heapTotal, last.heapTotal), 7)} (young ${delta(reference!.newSpace, last.newSpace)}, old ${delta(reference!.oldSpace, last.oldSpace)})`;
          return `  ${pad(w.name, 18)} RSS ${pad(delta(reference!.rss, last.rss), 7)} ${pad(heap, 44)} external ${pad(delta(reference!.external, last.external), 7)} native ${delta(rest(reference!), rest(last))}`;
        }),
      `soak: ${
        rows.every((r) => r.reference && r.growth <= GROWTH_LIMIT && r.rising !== true) && outcome.failed === 0 && outcome.pending === 0
          ? `every service within ${pct(GROWTH_LIMIT)} of its reference and none climbing; no swap failed`
          : `over the target: ${rows
              .filter((r) => !r.reference || r.growth > GROWTH_LIMIT || r.rising === true)
              .map((r) => r.w.name)
              .concat(outcome.failed ? [`${outcome.failed} swaps failed`] : [])
              .concat(outcome.pending ? [`${outcome.pending} swaps unsettled`] : [])
              .join(', ')}`
      }`,
      '',
    ]);
  } finally {
    await platform.stop();
  }
}

const PASSWORD = 'correct horse battery staple';

async function sampleOf(adminPort: number): Promise<Sample> {
  const metrics = parseMetrics(await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text());
  const value = (name: string, space?: string) =>
    metrics.find((m) => m.name === name && (!space || m.labels.space === space))?.value ?? NaN;
  return {
    at: Date.now(),
    rss: value('process_resident_memory_bytes'),
    heap: value('nodejs_heap_size_used_bytes'),
    heapTotal: value('nodejs_heap_size_total_bytes'),
    newSpace: value('nodejs_heap_space_size_total_bytes', 'new'),
    oldSpace: value('nodejs_heap_space_size_total_bytes', 'old'),
    external: value('nodejs_external_memory_bytes'),
    loopP99Ms: value('nodejs_eventloop_lag_p99_seconds') * 1000,
  };
}

/** Starts `work` `perSecond` times a second while `running`, at most 16 at once (one that would exceed it is skipped). */
async function steady(running: () => boolean, perSecond: number, work: () => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const period = 1000 / perSecond;
  for (let next = Date.now(); running(); next += period) {
    if (inFlight.size < 16) {
      const p = work().finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await sleep(Math.max(0, next + period - Date.now()));
  }
  await Promise.all(inFlight);
}

async function signUpAccounts(portal: string, prefix: string): Promise<{ email: string; cookie: string }[]> {
  const accounts = [];
  for (let i = 0; i < 4; i++) {
    const email = `${prefix}-${i}@example.com`;
    const csrf = await csrfOf(portal);
    const res = await fetch(`${portal}/portal/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `portal_csrf=${csrf}`, 'x-csrf-token': csrf },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (res.status !== 201) throw new Error(`portal sign-up answered ${res.status}: ${await res.text()}`);
    accounts.push({ email, cookie: csrf });
  }
  return accounts;
}

async function signIn(portal: string, account: { email: string; cookie: string }, password: string): Promise<number> {
  const res = await fetch(`${portal}/portal/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `portal_csrf=${account.cookie}`, 'x-csrf-token': account.cookie },
    body: JSON.stringify({ email: account.email, password }),
  });
  return drain(res);
}

async function csrfOf(portal: string): Promise<string> {
  const res = await fetch(`${portal}/portal/api/auth/csrf`);
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function drain(res: Response): Promise<number> {
  await res.arrayBuffer();
  return res.status;
}

async function settled(sql: pg.Pool, txHashes: string[]): Promise<{ solved: number; failed: number; pending: number }> {
  const { rows } = await sql.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM relay_tracker.submissions WHERE tx_hash = ANY($1) GROUP BY status`,
    [txHashes.map((h) => h.toLowerCase())],
  );
  const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return { solved: of('solved'), failed: of('failed'), pending: txHashes.length - of('solved') - of('failed') };
}
