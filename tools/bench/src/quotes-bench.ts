/** The quotes part of `npm run bench`; see docs/development.md#the-quotes-part. */
import { unusedPort } from '@swap/testing';
import autocannon from 'autocannon';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sequentialLatency } from './latency';
import { cpuPerRequestSince, natsServerPid } from './process-stats';
import { Subjects } from '@swap/contracts';
import type { BenchContext } from './oracle-bench';
import { parseMetrics } from '../../ops/src/prometheus-text';

/** `stage` undefined: the sample is skipped. */
const STAGE_SERIES: { on: 'quote' | 'swap'; metric: string; stage: (labels: Record<string, string>) => string | undefined }[] = [
  { on: 'quote', metric: 'quote_stage_seconds', stage: (l) => l.stage },
  { on: 'quote', metric: 'bus_reply_seconds', stage: (l) => (l.subject === Subjects.quoteRequest ? 'reply' : undefined) },
  { on: 'quote', metric: 'bus_message_duration_seconds', stage: (l) => (l.subject === Subjects.quoteRequest ? 'handler' : undefined) },
  {
    on: 'swap',
    metric: 'http_request_duration_seconds',
    stage: (l) => (l.route === '/v1/swaps/quote' && l.status_code === '200' ? 'swap-gateway' : undefined),
  },
];

async function quoteStages(adminPorts: { quote: number; swap: number }): Promise<Map<string, { sum: number; count: number }>> {
  const read = async (port: number) => parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
  const samples = { quote: await read(adminPorts.quote), swap: await read(adminPorts.swap) };
  const stages = new Map<string, { sum: number; count: number }>();
  for (const { on, metric, stage } of STAGE_SERIES) {
    for (const m of samples[on]) {
      const field = m.name === `${metric}_sum` ? 'sum' : m.name === `${metric}_count` ? 'count' : undefined;
      const name = field && stage(m.labels);
      if (!field || !name) continue;
      const s = stages.get(name) ?? { sum: 0, count: 0 };
      s[field] += m.value;
      stages.set(name, s);
    }
  }
  return stages;
}

const DELAYS_MS = [5, 16, 27, 38, 50];
const RFQ_DEADLINE_MS = 300;

export async function benchQuotes(ctx: BenchContext & { natsUrl: string }): Promise<void> {
  const ports = {
    quote: await unusedPort(),
    swap: await unusedPort(),
    gateway: await unusedPort(),
    bare: await unusedPort(),
    proxy: await unusedPort(),
  };
  const common = {
    DATABASE_URL: ctx.benchDatabaseUrl,
    NATS_URL: ctx.natsUrl,
    NATS_SUBJECT_PREFIX: `bench-quotes-${Date.now()}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    RFQ_DEADLINE_MS: String(RFQ_DEADLINE_MS),
  };
  // The bench is one client asking far more than the keyless solver API's per-client limit allows.
  const quoteBuilder = await ctx.start('dist/apps/quote-builder/src/main.js', {
    ...common,
    PORT: String(ports.quote),
    SOLVER_API_QUOTES_PER_MINUTE: '1000000000',
    SOLVER_API_EXECUTES_PER_MINUTE: '1000000000',
  });
  await ctx.startKeyRegistry(common); // the signed key set swap-gateway checks keys with (families off)
  const swapGateway = await ctx.start('dist/apps/swap-gateway/src/main.js', { ...common, PORT: String(ports.swap) });
  const apiGateway = await ctx.start('dist/apps/api-gateway/src/main.js', {
    ...common,
    PORT: String(ports.gateway),
    UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${ports.swap}`,
    UPSTREAM_QUOTE_BUILDER_URL: `http://127.0.0.1:${ports.quote}`,
  });
  for (const port of [ports.quote, ports.swap, ports.gateway]) await ctx.waitForService(port);

  const operator = `http://127.0.0.1:${ports.quote}/ops/solvers`;
  const stamp = Date.now().toString(36);
  const solvers = [];
  for (const [i, delayMs] of DELAYS_MS.entries()) {
    const res = await fetch(operator, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-${stamp}-${i}` }),
    });
    solvers.push({ credential: ((await res.json()) as { credential: string }).credential, delayMs });
  }
  const benchSolvers = await ctx.start('dist/tools/bench/src/bench-solvers.js', {
    MARKETPLACE_URL: `ws://127.0.0.1:${ports.gateway}/v1/intent/solvers/connect`,
    BENCH_SOLVERS: JSON.stringify(solvers),
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const listed = (await (await fetch(operator)).json()) as { name: string; connected: number }[];
    if (listed.filter((s) => s.name.startsWith(`bench-${stamp}-`) && s.connected > 0).length === DELAYS_MS.length) break;
    if (Date.now() > deadline) throw new Error('bench solvers did not connect');
    await new Promise((r) => setTimeout(r, 100));
  }

  const body = JSON.stringify({
    tokenSrc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    tokenSrcChainKey: '0xa4b1.arbitrum',
    tokenDst: '0x50c42dEAcD8Fc9773493ED674b675bE577f2634b',
    tokenDstChainKey: '0x92.sonic',
    amount: '2500000000',
    quoteType: 'exact_input',
    partnerFee: { address: '0x000000000000000000000000000000000000fee5', percentage: 10 },
  });
  const gateway = `http://127.0.0.1:${ports.gateway}`;
  const first = await fetch(`${gateway}/v1/swaps/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const firstText = await first.text();
  if (first.status !== 200) throw new Error(`quote answered ${first.status}: ${firstText}`);

  const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-quotes-')), 'body.json');
  writeFileSync(bodyFile, firstText);
  await ctx.start('dist/tools/bench/src/reference-servers.js', {
    BARE_PORT: String(ports.bare),
    PROXY_PORT: String(ports.proxy),
    BODY_FILE: bodyFile,
  });
  await ctx.waitFor(`http://127.0.0.1:${ports.proxy}/`);
  const bare = await autocannon({ url: `http://127.0.0.1:${ports.bare}/`, connections: ctx.connections, duration: ctx.duration });

  // One quote at a time, so the figure is the marketplace's own latency.
  const seconds = Math.max(3, Math.round(ctx.duration / 2));
  const stagesBefore = await quoteStages({ quote: ctx.adminPortOf(ports.quote), swap: ctx.adminPortOf(ports.swap) });
  const latency = await sequentialLatency(gateway, { method: 'POST', path: '/v1/swaps/quote', body }, seconds);
  const stagesAfter = await quoteStages({ quote: ctx.adminPortOf(ports.quote), swap: ctx.adminPortOf(ports.swap) });
  const stageMeans = [...stagesAfter]
    .map(([stage, after]) => {
      const before = stagesBefore.get(stage) ?? { sum: 0, count: 0 };
      const count = after.count - before.count;
      return `${stage} ${count > 0 ? (((after.sum - before.sum) / count) * 1000).toFixed(2) : '-'}`;
    })
    .join(', ');
  const hubBody = JSON.stringify({
    token_src: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
    token_dst: '0x50c42dEAcD8Fc9773493ED674b675bE577f2634b',
    amount: '2497500000',
    quote_type: 'exact_input',
  });
  const solverApi = await sequentialLatency(gateway, { method: 'POST', path: '/v1/intent/quote', body: hubBody }, seconds);
  // The same hops without a marketplace: refused (400) after the same validation.
  const refused = JSON.stringify({ ...JSON.parse(body), tokenSrcChainKey: 'nowhere' });
  const path = await sequentialLatency(gateway, { method: 'POST', path: '/v1/swaps/quote', body: refused, status: 400 }, seconds);
  const slowest = Math.max(...DELAYS_MS);
  // Each after idling as long as a quote waits for its slowest solver.
  const idlePath = await sequentialLatency(
    gateway,
    { method: 'POST', path: '/v1/swaps/quote', body: refused, status: 400, pauseMs: slowest },
    seconds,
  );
  const bareOrigin = `http://127.0.0.1:${ports.bare}`;
  const bareHop = await sequentialLatency(bareOrigin, { method: 'GET', path: '/' }, Math.min(2, seconds));
  const idleBareHop = await sequentialLatency(bareOrigin, { method: 'GET', path: '/', pauseMs: slowest }, seconds);
  const connections = Number(process.env.BENCH_QUOTE_CONNECTIONS ?? 50);
  const options = {
    url: `${gateway}/v1/swaps/quote`,
    method: 'POST' as const,
    body,
    headers: { 'content-type': 'application/json' },
    connections,
  };
  await autocannon({ ...options, duration: Math.min(2, ctx.duration) });
  const processes = {
    'api-gateway': apiGateway.pid,
    'swap-gateway': swapGateway.pid,
    'quote-builder': quoteBuilder.pid,
    solvers: benchSolvers.pid,
    'nats-server': natsServerPid(),
  };
  const cpuSince = cpuPerRequestSince(processes);
  const loaded = await autocannon({ ...options, duration: ctx.duration });
  const cpuPerQuote = cpuSince(loaded.requests.total);
  const bound = connections / (slowest / 1000);
  ctx.print([
    '',
    `quotes: POST /v1/swaps/quote through api-gateway (cluster mode, NATS, PostgreSQL), 5 solvers answering in ${DELAYS_MS.join('/')} ms, RFQ deadline ${RFQ_DEADLINE_MS} ms`,
    `  reference: bare Node server ${bare.requests.average.toFixed(0)} req/s (${ctx.connections} connections)`,
    `  unloaded, 1 at a time, POST /v1/swaps/quote (${latency.n} quotes): p50 ${latency.p50.toFixed(1)} ms (slowest solver ${slowest} ms + ${(latency.p50 - slowest).toFixed(1)} ms; target + 5 ms), p99 ${latency.p99.toFixed(1)} ms (target < ${RFQ_DEADLINE_MS + 20} ms)`,
    `  unloaded, 1 at a time, POST /v1/intent/quote (solver API, no swap-gateway hop; ${solverApi.n} quotes): p50 ${solverApi.p50.toFixed(1)} ms (+ ${(solverApi.p50 - slowest).toFixed(1)} ms), p99 ${solverApi.p99.toFixed(1)} ms`,
    `  reference path: the same request refused by quote-builder (400, no solvers asked): p50 ${path.p50.toFixed(1)} ms, so the marketplace itself (RFQ, WebSockets, the record) adds ${(latency.p50 - slowest - path.p50).toFixed(1)} ms to the slowest answer`,
    `  the refused request after ${slowest} ms of idling before each (as a quote's hops wake after the solvers' wait): p50 ${idlePath.p50.toFixed(1)} ms`,
    `  reference: one bare HTTP round trip to another process, p50 ${bareHop.p50.toFixed(2)} ms back to back, ${idleBareHop.p50.toFixed(2)} ms after ${slowest} ms of idling (this machine's cost of waking an idle process)`,
    `  quote-builder's stages, unloaded (mean ms; quote_stage_seconds, bus_reply_seconds): ${stageMeans}`,
    `  loaded (${connections} connections, ${ctx.duration} s): ${loaded.requests.average.toFixed(0)} quotes/s (${((loaded.requests.average / bare.requests.average) * 100).toFixed(2)}% of the bare server), p50 ${loaded.latency.p50.toFixed(0)} ms, p99 ${loaded.latency.p99.toFixed(0)} ms, non-2xx ${loaded.non2xx}, errors ${loaded.errors + loaded.timeouts}`,
    `  CPU per loaded quote, µs user+kernel: ${cpuPerQuote.join(', ')}`,
    `  latency bound at ${connections} connections: ${bound.toFixed(0)} quotes/s (connections / slowest solver's ${slowest} ms)`,
    `quotes: ${((loaded.requests.average / bound) * 100).toFixed(0)}% of the latency bound, unloaded p50 slowest + ${(latency.p50 - slowest).toFixed(1)} ms (refused ${path.p50.toFixed(1)} ms)`,
    '',
  ]);
}
