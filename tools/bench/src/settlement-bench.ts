/** The settlement part of `npm run bench`; see docs/development.md#the-settlement-part. */
import { unusedPort } from '@swap/testing';
import autocannon from 'autocannon';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { Address } from 'viem';
import { startDevnetPlatform, type Service } from './devnet-platform';
import type { BenchContext } from './oracle-bench';
import {
  machineCpu,
  mapLimit,
  metricSum,
  natsMessagesIn,
  pct,
  percentile,
  processCpuSeconds,
  processCpuSplit,
  rowsWritten,
  until,
} from './process-stats';
import { benchStatusStreams, streamLines } from './status-streams-bench';
import {
  FillWatcher,
  HUB,
  OTHER_SPOKE,
  pollUntilSolved,
  stage,
  stagesOf,
  submit,
  SwapMaker,
  type Prepared,
  type Stages,
} from './settlement-swaps';

const LATENCY_SWAPS = Number(process.env.BENCH_SETTLEMENT_LATENCY_SWAPS ?? 40);
const BATCH = Number(process.env.BENCH_SETTLEMENT_BATCH ?? 120);
/** Settled by fresh replicas before a batch is measured (code compiled, connections open). */
const WARM_UP = Number(process.env.BENCH_SETTLEMENT_WARM_UP ?? 40);
/** relay-tracker's SETTLEMENT_CONCURRENCY default. */
const CONCURRENCY = 32;
/** PostgreSQL flushes an idle backend's statistics after PGSTAT_IDLE_INTERVAL (10 s). */
const STATS_SETTLE_MS = 11_000;
const TOKEN_LIST = '/v1/swaps/tokens/0xa4b1.arbitrum';
/** The devnet slows as it grows, so each count is measured early and late. */
const REPLICA_COUNTS = (process.env.BENCH_SETTLEMENT_REPLICAS ?? '1,2,2,1').split(',').map(Number);

interface Batch {
  replicas: number;
  perSecond: number;
  seconds: number;
  machineBusy: number;
  /** Per settled swap, by service (relay-tracker: all replicas together). */
  cpuMs: Record<string, number>;
  rpcCalls: number;
  trackerSystemShare: number;
  rows: number;
  natsMessages: number;
  stages: Stages;
  /** The median time of a plain hub transfer, sent and mined, before the batch. */
  hubPaceMs: number;
}

export async function benchSettlement(ctx: BenchContext): Promise<void> {
  const platform = await startDevnetPlatform(ctx, { prefix: `bench-settle-${Date.now().toString(36)}` });
  const { directory, sql, monitor, nats, swapGateway, apiGateway, quote, keyRegistryPort, gateway } = platform;
  try {
    const nodeArgs = process.env.BENCH_TRACKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const runTrackers = (replicas: number) => platform.runTrackers(replicas, { SETTLEMENT_CONCURRENCY: String(CONCURRENCY) }, nodeArgs);
    await runTrackers(1);

    const swaps = new SwapMaker(directory, gateway);
    await swaps.approveAll();
    const watcher = new FillWatcher(swaps.client(HUB), directory.hub.contracts!.intents as Address);
    watcher.start();

    const latencies: Record<'hub' | 'spoke', number[]> = { hub: [], spoke: [] };
    for (let i = 0; i < LATENCY_SWAPS; i += 4) {
      const group = await Promise.all([0, 1, 2, 3].map((j) => swaps.prepare(j, (i + j) % 2 === 0 ? HUB : OTHER_SPOKE)));
      await Promise.all(
        group.map(async (swap) => {
          await submit(gateway, swap);
          const solvedAt = await pollUntilSolved(gateway, swap, 25);
          // The watcher reads the hub every 25 ms too: it may see the fill after the status route showed it solved.
          await until(() => watcher.seen.has(swap.intentHash!), 2_000, `solved without a fill seen: ${swap.txHash}`, 5);
          const filledAt = watcher.seen.get(swap.intentHash!)!;
          latencies[JSON.parse(swap.body).intent.dstChain === directory.hub.relayChainId ? 'hub' : 'spoke'].push(
            Math.max(0, solvedAt - filledAt),
          );
        }),
      );
    }

    // Writes while no swap moves (the followers' cursors, every block).
    const idleRows = await rowsWritten(sql, 'relay_tracker');
    const idleCpu = processCpuSeconds(platform.trackers[0].pid);
    await new Promise((r) => setTimeout(r, STATS_SETTLE_MS));
    const idleRowsPerSecond = ((await rowsWritten(sql, 'relay_tracker')) - idleRows) / (STATS_SETTLE_MS / 1000);
    const idleCpuMsPerSecond = ((processCpuSeconds(platform.trackers[0].pid) - idleCpu) * 1000) / (STATS_SETTLE_MS / 1000);

    const batches: Batch[] = [];
    for (const replicas of REPLICA_COUNTS) {
      if (replicas !== platform.trackers.length) await runTrackers(replicas);
      if (WARM_UP > 0) {
        const warmUp = await swaps.batch(WARM_UP);
        await mapLimit(warmUp, 50, (swap) => submit(gateway, swap));
        await until(async () => (await settledCount(sql, warmUp)) === warmUp.length, 120_000, 'the warm-up batch did not settle', 50);
      }
      const batch = await swaps.batch(BATCH);
      const hubPaceMs = await swaps.hubRoundTripMs();
      const services = [...platform.trackers, swapGateway, apiGateway, quote];
      const trackerSplit = () =>
        platform.trackers
          .map((t) => processCpuSplit(t.pid))
          .reduce((a, b) => ({ user: a.user + b.user, system: a.system + b.system }), { user: 0, system: 0 });
      const splitBefore = trackerSplit();
      const before = {
        machine: machineCpu(),
        cpu: services.map((s) => processCpuSeconds(s.pid)),
        rpc: await sumOver(platform.trackers, ctx, 'chain_rpc_requests_total'),
        rows: await rowsWritten(sql, 'relay_tracker'),
        nats: await natsMessagesIn(monitor),
      };
      const started = performance.now();
      await mapLimit(batch, 50, (swap) => submit(gateway, swap));
      await until(
        async () => (await settledCount(sql, batch)) === batch.length,
        300_000,
        `the batch of ${batch.length} did not settle`,
        50,
      );
      const seconds = (performance.now() - started) / 1000;
      const machine = machineCpu();
      const cpu = services.map((s) => processCpuSeconds(s.pid));
      const splitAfter = trackerSplit();
      const rpc = await sumOver(platform.trackers, ctx, 'chain_rpc_requests_total');
      const nats2 = await natsMessagesIn(monitor);
      await new Promise((r) => setTimeout(r, STATS_SETTLE_MS));
      const rows = (await rowsWritten(sql, 'relay_tracker')) - before.rows - idleRowsPerSecond * (seconds + STATS_SETTLE_MS / 1000);
      const solved = await solvedCount(sql, batch);
      if (solved !== batch.length) throw new Error(`${batch.length - solved} of the batch failed`);
      const perSwapMs = (i: number) => ((cpu[i] - before.cpu[i]) * 1000) / batch.length;
      const cpuMs: Record<string, number> = { 'relay-tracker': platform.trackers.reduce((sum, _t, i) => sum + perSwapMs(i), 0) };
      for (const [i, s] of services.entries()) if (i >= platform.trackers.length) cpuMs[s.name] = perSwapMs(i);
      batches.push({
        replicas,
        perSecond: batch.length / seconds,
        seconds,
        machineBusy: (machine.busy - before.machine.busy) / Math.max(1, machine.total - before.machine.total),
        cpuMs,
        rpcCalls: (rpc - before.rpc) / batch.length,
        trackerSystemShare:
          (splitAfter.system - splitBefore.system) /
          Math.max(0.01, splitAfter.user + splitAfter.system - splitBefore.user - splitBefore.system),
        rows: Math.max(0, rows) / batch.length,
        natsMessages: (nats2 - before.nats) / batch.length,
        stages: await stagesOf(sql, batch, watcher),
        hubPaceMs,
      });
    }
    watcher.stop();

    const sample = (
      await sql.query<{ tx_hash: string; src_chain_key: string }>(
        `SELECT tx_hash, src_chain_key FROM relay_tracker.submissions WHERE status = 'solved' LIMIT 1`,
      )
    ).rows[0];
    const statusPath = `/v1/swaps/submit-tx/status?txHash=${sample.tx_hash}&srcChainKey=${sample.src_chain_key}`;
    const statusBody = await (await fetch(`${gateway}${statusPath}`)).text();
    const bodyFile = join(platform.dataDir, 'status.json');
    writeFileSync(bodyFile, statusBody);
    const bare = { port: await unusedPort(), proxy: await unusedPort(), sse: await unusedPort() };
    const references = await ctx.start('dist/tools/bench/src/reference-servers.js', {
      BARE_PORT: String(bare.port),
      PROXY_PORT: String(bare.proxy),
      SSE_PORT: String(bare.sse),
      BODY_FILE: bodyFile,
    });
    await ctx.waitFor(`http://127.0.0.1:${bare.proxy}/`);
    const load = async (url: string) => {
      await autocannon({ url, connections: ctx.connections, duration: Math.min(2, ctx.duration) });
      return autocannon({ url, connections: ctx.connections, duration: ctx.duration });
    };
    const bareRun = await load(`http://127.0.0.1:${bare.port}/`);
    const tokens = await load(`${gateway}${TOKEN_LIST}`);
    const polls = await load(`${gateway}${statusPath}`);

    const streams = await benchStatusStreams({
      gateway,
      swapGatewayPid: swapGateway.pid,
      swapGatewayUrl: `http://127.0.0.1:${swapGateway.port}`,
      apiGatewayPid: apiGateway.pid,
      bare: { url: `http://127.0.0.1:${bare.sse}/`, pid: references.pid },
      swaps,
      keyRegistry: `http://127.0.0.1:${keyRegistryPort}`,
      natsUrl: nats.url,
    });

    const fmt = (xs: number[]) =>
      xs.length === 0
        ? 'not measured'
        : `p50 ${percentile(xs, 0.5).toFixed(0)} ms, p95 ${percentile(xs, 0.95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length} swaps)`;
    const mean = (replicas: number, of: (b: Batch) => number) => {
      const runs = batches.filter((b) => b.replicas === replicas);
      return runs.length ? runs.reduce((sum, b) => sum + of(b), 0) / runs.length : NaN;
    };
    const perSecond = { one: mean(1, (b) => b.perSecond), two: mean(2, (b) => b.perSecond) };
    const cpuPerSwap = { one: mean(1, (b) => b.cpuMs['relay-tracker']), two: mean(2, (b) => b.cpuMs['relay-tracker']) };
    // Now, so a profiling run's relay-tracker writes its profile before the bench ends.
    for (const t of platform.trackers) if (t.pid) process.kill(t.pid, 'SIGTERM');
    await Promise.all(platform.trackers.map((t) => t.exited));
    ctx.print([
      '',
      `settlement: cluster mode on the devnet (JetStream, devnet relayer, 2 reference solvers; relay-tracker's followers poll every 250 ms; anvil blocks every 1 s plus instant mining; ${cpus().length} cores)`,
      `  IntentFilled on the hub → solved on the status route (both watched every 25 ms; one seen solved before its fill was seen counts 0):`,
      `    destination hub:   ${fmt(latencies.hub)}  (target p50 < 300, p95 < 600)`,
      `    destination spoke: ${fmt(latencies.spoke)}  (includes the relayer's delivery to the spoke)`,
      `  relay-tracker with no swap moving: ${idleCpuMsPerSecond.toFixed(1)} ms of CPU per second (one replica following 3 chains every 250 ms, leases, timers)`,
      `  a batch of ${BATCH} Arbitrum → hub swaps submitted at once, ${CONCURRENCY} handler slots per replica (after a warm-up batch of ${WARM_UP}):`,
      ...batches.flatMap((b) => [
        `    ${b.replicas} relay-tracker replica${b.replicas > 1 ? 's' : ''}: ${b.perSecond.toFixed(1)} swaps/s (${b.seconds.toFixed(1)} s); the machine's CPUs ${pct(b.machineBusy)} busy; the hub's pace before it: a transfer sent and mined in ${b.hubPaceMs.toFixed(0)} ms`,
        `relay-tracker CPU per swap: ${b.cpuMs['relay-tracker'].toFixed(1)} ms`,
        `      (${pct(b.trackerSystemShare)} of it in the kernel: its socket traffic to PostgreSQL, NATS, Redis and the chains)`,
        `RPC calls per swap: ${b.rpcCalls.toFixed(2)}`,
        `      per settled swap: CPU ${Object.entries(b.cpuMs)
          .filter(([name]) => name !== 'relay-tracker')
          .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
          .join(
            ', ',
          )}; ${b.rows.toFixed(1)} rows written in relay-tracker's tables (idle followers' ${idleRowsPerSecond.toFixed(1)} rows/s taken off); ${b.natsMessages.toFixed(1)} NATS messages`,
        `      where a swap's time went (p50 / max, s): submit → posted_execution ${stage(b.stages.toMarketplace)}; posted → filled (the 2 solvers) ${stage(b.stages.toFill)}; filled → solved ${stage(b.stages.toSolved)}`,
      ]),
      `    2 replicas carry ${(perSecond.two / perSecond.one).toFixed(2)}× the swaps/s of one end to end (mean of each count's batches; target ≥ 0.9 on this machine, where load generator, chains and services share ${cpus().length} cores); CPU per swap ${(cpuPerSwap.two / cpuPerSwap.one).toFixed(2)}× one replica's (target ≤ 1.2)`,
      `  status reads, GET ${statusPath.split('?')[0]} (${statusBody.length}-byte body, ${ctx.connections} connections, ${ctx.duration} s), api-gateway → swap-gateway → Redis:`,
      `status reads: ${polls.requests.average.toFixed(0)} req/s = ${pct(polls.requests.average / tokens.requests.average)} of the token list`,
      `    reference: the token list through the same gateway ${tokens.requests.average.toFixed(0)} req/s; bare Node server ${bareRun.requests.average.toFixed(0)} req/s (status reads ${pct(polls.requests.average / bareRun.requests.average)} of it)`,
      `    status reads p50 ${polls.latency.p50} ms, p99 ${polls.latency.p99} ms (target < 20), non-2xx ${polls.non2xx}; the token list p99 ${tokens.latency.p99} ms`,
      ...streamLines(streams),
      '',
    ]);
  } finally {
    await platform.stop();
  }
}

async function sumOver(services: Service[], ctx: BenchContext, metric: string): Promise<number> {
  let total = 0;
  for (const s of services) total += await metricSum(ctx.adminPortOf(s.port), metric);
  return total;
}

async function settledCount(sql: pg.Pool, batch: Prepared[]): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM relay_tracker.submissions WHERE tx_hash = ANY($1) AND status IN ('solved', 'failed')`,
    [batch.map((s) => s.txHash.toLowerCase())],
  );
  return rows[0].n;
}

async function solvedCount(sql: pg.Pool, batch: Prepared[]): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM relay_tracker.submissions WHERE tx_hash = ANY($1) AND status = 'solved'`,
    [batch.map((s) => s.txHash.toLowerCase())],
  );
  return rows[0].n;
}
