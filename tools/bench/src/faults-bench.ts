/** The faults part of `npm run bench -- faults`; see docs/development.md#the-faults-part. */
import { createSwapClient } from '@swap/client';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { CutProxy } from './cut-proxy';
import { startDevnetPlatform } from './devnet-platform';
import type { BenchContext } from './oracle-bench';
import { sleep, until } from './process-stats';
import { HUB, SwapMaker, type Prepared } from './settlement-swaps';

const CUT_SECONDS = Number(process.env.BENCH_FAULTS_CUT_SECONDS ?? 30);
/** Steady traffic before each cut, and the time the last cut's swaps get to settle is bounded below. */
const CALM_SECONDS = Number(process.env.BENCH_FAULTS_CALM_SECONDS ?? 15);
const READY_TARGET_MS = 10_000;
/** A cut dependency's swaps settle within this of the cut's end, or the bench says so. */
const SETTLE_LIMIT_MS = 240_000;

interface Phase {
  dependency: string;
  /** Builds (or their intent hash) refused while it was cut, by answer: nothing was sent for them. */
  refused: Map<string, number>;
  retries: number;
  swaps: Prepared[];
  /** Per service, ms from the restore to its readiness answering 200 again (0: never unready). */
  readyAfterMs: Map<string, number>;
  /** Services whose readiness answered other than 200 during the cut. */
  unready: Set<string>;
}

export async function benchFaults(ctx: BenchContext): Promise<void> {
  const prefix = `bench-faults-${Date.now().toString(36)}`;
  const proxies: CutProxy[] = [];
  // Closed however the start ends: a listening proxy would keep the bench's process alive.
  const closeProxies = async () => {
    for (const proxy of proxies) await proxy.stop();
  };
  let platform;
  try {
    proxies.push(await CutProxy.start('PostgreSQL', ctx.benchDatabaseUrl), await CutProxy.start('Redis', ctx.redisUrl));
    const [database, redis] = proxies;
    platform = await startDevnetPlatform(ctx, {
      prefix,
      // Every service reaches each dependency through a proxy the bench cuts; the solvers and the bench's own wallets do not.
      env: async ({ devnet, natsUrl, dataDir }) => {
        const started = async (name: string, url: string) => {
          const proxy = await CutProxy.start(name, url);
          proxies.push(proxy);
          return proxy;
        };
        const nats = await started('NATS', natsUrl);
        const relay = await started('the relay API', devnet.relayApiUrl);
        const profile = JSON.parse(readFileSync(devnet.profilePath, 'utf8')) as { chains: { hub?: boolean; rpcUrls: string[] }[] };
        const hubChain = profile.chains.find((c) => c.hub)!;
        const hub = await started('the hub RPC', hubChain.rpcUrls[0]);
        hubChain.rpcUrls = [hub.rewrite(hubChain.rpcUrls[0])];
        const profilePath = join(dataDir, 'profile-through-proxies.json');
        writeFileSync(profilePath, JSON.stringify(profile));
        return {
          DATABASE_URL: database.rewrite(ctx.benchDatabaseUrl),
          REDIS_URL: redis.rewrite(ctx.redisUrl),
          NATS_URL: nats.rewrite(natsUrl),
          CHAIN_PROFILE: profilePath,
          RELAY_API_URL: relay.rewrite(devnet.relayApiUrl),
        };
      },
    });
  } catch (error) {
    await closeProxies();
    throw error;
  }
  try {
    await platform.runTrackers(2);
    const readiness = platform.admins().map(({ name, adminPort }) => ({ name, url: `http://127.0.0.1:${adminPort}/readyz` }));
    const ready = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined))?.status === 200;

    const swaps = new SwapMaker(platform.directory, platform.gateway);
    await swaps.approveAll();
    const api = createSwapClient({ baseUrl: platform.gateway });
    const calm: Phase = { dependency: 'none', refused: new Map(), retries: 0, swaps: [], readyAfterMs: new Map(), unready: new Set() };
    let phase = calm;
    const submits: Promise<unknown>[] = [];
    const lost: { swap: Prepared; error: string }[] = [];
    let stopped = false;
    // Four wallets, each building, sending and submitting a swap every half second; a submit is not awaited before the next.
    const traffic = [0, 1, 2, 3].map(async (wallet) => {
      while (!stopped) {
        const current = phase;
        const swap = await swaps.prepare(wallet, HUB).catch((error: Error) => {
          const answer = / answered (\d{3})/.exec(error.message)?.[1] ?? error.message.slice(0, 40);
          current.refused.set(answer, (current.refused.get(answer) ?? 0) + 1);
        });
        if (swap) {
          current.swaps.push(swap);
          submits.push(
            api
              .submit(JSON.parse(swap.body), { retryForMs: CUT_SECONDS * 1000 + 60_000, onRetry: () => current.retries++ })
              .catch((error: Error) => lost.push({ swap, error: error.message })),
          );
        }
        await sleep(500);
      }
    });

    const phases: Phase[] = [];
    for (const proxy of proxies) {
      await sleep(CALM_SECONDS * 1000);
      phase = { dependency: proxy.name, refused: new Map(), retries: 0, swaps: [], readyAfterMs: new Map(), unready: new Set() };
      phases.push(phase);
      await proxy.cut();
      const cutEnds = Date.now() + CUT_SECONDS * 1000;
      while (Date.now() < cutEnds) {
        for (const r of readiness) if (!(await ready(r.url))) phase.unready.add(r.name);
        await sleep(Math.min(1_000, Math.max(0, cutEnds - Date.now())));
      }
      await proxy.restore();
      const restored = Date.now();
      await Promise.all(
        readiness.map(async (r) => {
          for (;;) {
            if (await ready(r.url)) return void phase.readyAfterMs.set(r.name, Date.now() - restored);
            if (Date.now() - restored >= 60_000) return void phase.readyAfterMs.set(r.name, Infinity);
            await sleep(100);
          }
        }),
      );
      phase = calm;
    }
    await sleep(CALM_SECONDS * 1000);
    stopped = true;
    await Promise.all(traffic);
    await Promise.all(submits);

    const all = [calm, ...phases].flatMap((p) => p.swaps);
    await until(
      async () => (await outcomes(platform.sql, all)).pending === 0,
      SETTLE_LIMIT_MS,
      'swaps still unsettled after the faults',
      500,
    ).catch(() => undefined);
    const rows = [];
    for (const p of [...phases, calm]) rows.push({ p, o: await outcomes(platform.sql, p.swaps) });
    const secs = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'never (60 s)');
    ctx.print([
      '',
      `faults: each dependency cut for ${CUT_SECONDS} s (every connection closed, new ones refused, by a TCP proxy on loopback) under a steady stream of swaps from 4 wallets, ${CALM_SECONDS} s apart; 2 relay-tracker replicas on JetStream, ${cpus().length} cores`,
      `  reference: the same stream with nothing cut, ${calm.swaps.length} swaps: ${rows.at(-1)!.o.solved} solved, ${rows.at(-1)!.o.failed} failed, ${rows.at(-1)!.o.pending} unsettled`,
      `  ${'cut'.padEnd(16)} ${'swaps sent'.padEnd(11)} ${'solved'.padEnd(7)} ${'failed'.padEnd(7)} ${'unsettled'.padEnd(10)} ${'builds refused'.padEnd(15)} ${'submits retried'.padEnd(16)} ${'unready during the cut'.padEnd(40)} all ready again after (target ≤ ${READY_TARGET_MS / 1000} s)`,
      ...rows
        .filter((r) => r.p !== calm)
        .map(({ p, o }) => {
          const slowest = Math.max(...p.readyAfterMs.values());
          return `  ${p.dependency.padEnd(16)} ${String(p.swaps.length).padEnd(11)} ${String(o.solved).padEnd(7)} ${String(o.failed).padEnd(7)} ${String(o.pending).padEnd(10)} ${(refusedText(p.refused) || '0').padEnd(15)} ${String(p.retries).padEnd(16)} ${([...p.unready].join(', ') || 'none').padEnd(40)} ${secs(slowest)}`;
        }),
      ...rows.flatMap(({ o }) => o.failedMessages.map((m) => `  failed: ${m}`)),
      ...rows.flatMap(({ p, o }) => o.unsettled.slice(0, 5).map((m) => `  unsettled (${p.dependency} cut): ${m}`)),
      ...lost.map((l) => `  LOST (submit given up): ${l.swap.txHash}: ${l.error}`),
      `faults: ${
        lost.length === 0 &&
        rows.every((r) => r.o.failed === 0 && r.o.pending === 0) &&
        phases.every((p) => Math.max(...p.readyAfterMs.values()) <= READY_TARGET_MS) &&
        // A cut dependency is a clear 503 (or 504), never a 500 or no answer.
        phases.every((p) => [...p.refused.keys()].every((answer) => answer === '503' || answer === '504'))
          ? `no swap lost or failed, every refused build a 503 or 504, every service ready within ${READY_TARGET_MS / 1000} s of each cut's end`
          : 'over the target (above)'
      }`,
      '',
    ]);
  } finally {
    await platform.stop();
    await closeProxies();
  }
}

async function outcomes(
  sql: pg.Pool,
  swaps: Prepared[],
): Promise<{ solved: number; failed: number; pending: number; failedMessages: string[]; unsettled: string[] }> {
  const { rows } = await sql.query<{ tx_hash: string; status: string; user_message: string | null }>(
    `SELECT tx_hash, status, user_message FROM relay_tracker.submissions WHERE tx_hash = ANY($1)`,
    [swaps.map((s) => s.txHash.toLowerCase())],
  );
  const solved = rows.filter((r) => r.status === 'solved').length;
  const failed = rows.filter((r) => r.status === 'failed');
  return {
    solved,
    failed: failed.length,
    pending: swaps.length - solved - failed.length,
    failedMessages: failed.map((r) => `${r.tx_hash}: ${r.user_message}`),
    unsettled: swaps.flatMap((s) => {
      const row = rows.find((r) => r.tx_hash === s.txHash.toLowerCase());
      return row?.status === 'solved' || row?.status === 'failed' ? [] : [`${s.txHash}: ${row?.status ?? 'never stored'}`];
    }),
  };
}

/** "244 (503)": the answers the refused builds got. */
function refusedText(refused: Map<string, number>): string {
  const total = [...refused.values()].reduce((a, b) => a + b, 0);
  return total ? `${total} (${[...refused].map(([answer, n]) => (refused.size > 1 ? `${n}× ${answer}` : answer)).join(', ')})` : '';
}
