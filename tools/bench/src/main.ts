/** `npm run bench`, its parts and variables: docs/development.md#benchmarks. */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase, withDatabase } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { unusedPort } from '@swap/testing';
import pg from 'pg';
import { keyRegistry } from '../../../apps/key-registry/src/key-registry.definition';
import { quoteBuilder } from '../../../apps/quote-builder/src/quote-builder.definition';
import { benchIntents } from './intents-bench';
import { benchKeys } from './keys-bench';
import { sequentialLatency } from './latency';
import { cpuMicrosPerRequestSince } from './process-stats';
import { benchQuotes } from './quotes-bench';
import { benchExplorer } from './explorer-bench';
import { benchSettlement } from './settlement-bench';
import { benchSoak } from './soak-bench';
import { benchFaults } from './faults-bench';
import { benchOracle, type BenchContext } from './oracle-bench';
import { generateSigningKeysEnv } from '@swap/messaging';
import { SERVICE_ENV, SERVICE_NODE_FLAG } from '../../deploy-check/src/service-launch';

const ROOT = join(__dirname, '..', '..', '..', '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ROUTE = '/v1/swaps/tokens/0xa4b1.arbitrum';
const TRACING_PAIRS = Number(process.env.BENCH_TRACING_PAIRS ?? 5);
const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const BENCH_DATABASE_URL = withDatabase(POSTGRES_URL, 'swap_bench');

interface Measurement {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpu?: Record<string, number>;
}

type GatewayPids = { 'swap-gateway': number | undefined; 'api-gateway': number | undefined };

const children: ChildProcess[] = [];

const adminPorts = new Map<number, number>();

/** The run's signing key pairs, in this process' environment too: a step that speaks for partner-portal-api signs with its key (status-streams-bench's webhook). */
const signingKeysEnv = generateSigningKeysEnv();
Object.assign(process.env, signingKeysEnv);

/** A service (one given a PORT) also gets a free ADMIN_PORT. */
async function start(script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<ChildProcess> {
  // The bench's NATS is the machine's own, without authorization.
  const full: Record<string, string> = { ...signingKeysEnv, NATS_ALLOW_ANONYMOUS: 'true', ...env };
  if (full.PORT) {
    full.ADMIN_PORT ??= String(await unusedPort());
    adminPorts.set(Number(full.PORT), Number(full.ADMIN_PORT));
  }
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const shipped = script.startsWith('dist/apps/') ? [SERVICE_NODE_FLAG] : [];
  // Traced only where a run asks for it: OTEL_* of the shell would trace the untraced references too.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const child = spawn(process.execPath, [...shipped, ...extra, ...nodeArgs, join(ROOT, script)], {
    env: { ...inherited, ...(shipped.length ? SERVICE_ENV : {}), ...full },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function waitForService(port: number, path = '/readyz'): Promise<void> {
  const admin = adminPorts.get(port);
  if (admin === undefined) throw new Error(`no service was started on port ${port}`);
  await waitFor(`http://127.0.0.1:${admin}${path}`);
}

async function waitFor(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function measure(name: string, url: string, pids?: GatewayPids): Promise<Measurement> {
  await autocannon({ url, connections: CONNECTIONS, duration: Math.min(2, DURATION) }); // warm-up
  const cpuSince = pids && cpuMicrosPerRequestSince(pids);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  const cpu = cpuSince && Object.fromEntries(cpuSince(r.requests.total).map((p) => [p.name, p.user + p.system]));
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, cpu };
}

async function benchGateway(): Promise<void> {
  const ports = {
    quote: await unusedPort(),
    swap: await unusedPort(),
    gateway: await unusedPort(),
    bare: await unusedPort(),
    proxy: await unusedPort(),
  };
  const common = { NATS_URL, LOG_LEVEL, HOST: '127.0.0.1', DATABASE_URL: BENCH_DATABASE_URL };
  await start('dist/apps/quote-builder/src/main.js', { ...common, PORT: String(ports.quote) });
  const swapGateway = await start('dist/apps/swap-gateway/src/main.js', { ...common, PORT: String(ports.swap) });
  const apiGateway = await start('dist/apps/api-gateway/src/main.js', {
    ...common,
    PORT: String(ports.gateway),
    UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${ports.swap}`,
  });
  for (const port of [ports.quote, ports.swap, ports.gateway]) await waitForService(port);

  // The reference servers answer the very body the measured route answers.
  const body = Buffer.from(await (await fetch(`http://127.0.0.1:${ports.swap}${ROUTE}`)).arrayBuffer());
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-')), 'body.json');
  writeFileSync(bodyFile, body);
  await start('dist/tools/bench/src/reference-servers.js', {
    BARE_PORT: String(ports.bare),
    PROXY_PORT: String(ports.proxy),
    BODY_FILE: bodyFile,
  });
  await waitFor(`http://127.0.0.1:${ports.proxy}${ROUTE}`);

  const bare = await measure('bare Node http server', `http://127.0.0.1:${ports.bare}${ROUTE}`);
  const bareProxy = await measure('minimal undici proxy -> bare server', `http://127.0.0.1:${ports.proxy}${ROUTE}`);
  const direct = await measure('swap-gateway direct', `http://127.0.0.1:${ports.swap}${ROUTE}`);
  const viaGateway = await measure('api-gateway -> swap-gateway', `http://127.0.0.1:${ports.gateway}${ROUTE}`);

  const latencySeconds = Math.max(2, Math.round(DURATION / 2));
  const lat = {
    bare: await sequentialLatency(`http://127.0.0.1:${ports.bare}`, { method: 'GET', path: ROUTE }, latencySeconds),
    bareProxy: await sequentialLatency(`http://127.0.0.1:${ports.proxy}`, { method: 'GET', path: ROUTE }, latencySeconds),
    direct: await sequentialLatency(`http://127.0.0.1:${ports.swap}`, { method: 'GET', path: ROUTE }, latencySeconds),
    viaGateway: await sequentialLatency(`http://127.0.0.1:${ports.gateway}`, { method: 'GET', path: ROUTE }, latencySeconds),
  };

  const rows = [bare, bareProxy, direct, viaGateway];
  const lines = [
    '',
    `GET ${ROUTE}  (${body.length}-byte JSON body; ${CONNECTIONS} connections; ${DURATION} s per run after a warm-up; services log at ${LOG_LEVEL})`,
    '',
    `${'path'.padEnd(40)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'non-2xx'.padStart(8)}`,
    ...rows.map(
      (m) =>
        `${m.name.padEnd(40)} ${m.rps.toFixed(0).padStart(9)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${String(m.errors).padStart(7)} ${String(m.non2xx).padStart(8)}`,
    ),
    '',
    `Unloaded latency (1 connection, sequential, ${latencySeconds} s each):`,
    `${'path'.padEnd(40)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'samples'.padStart(8)}`,
    ...(
      [
        ['bare Node http server', lat.bare],
        ['minimal undici proxy -> bare server', lat.bareProxy],
        ['swap-gateway direct', lat.direct],
        ['api-gateway -> swap-gateway', lat.viaGateway],
      ] as const
    ).map(([name, l]) => `${name.padEnd(40)} ${l.p50.toFixed(3).padStart(8)} ${l.p99.toFixed(3).padStart(8)} ${String(l.n).padStart(8)}`),
    '',
    `swap-gateway: the token list from memory at ${pct(direct.rps / bare.rps)} of the bare server's throughput (target >= 30%)`,
    `reference: bare proxy keeps ${pct(bareProxy.rps / bare.rps)} of the bare server's throughput`,
    `gateway:   api-gateway keeps ${pct(viaGateway.rps / direct.rps)} of swap-gateway's direct throughput = ${pct(viaGateway.rps / direct.rps / (bareProxy.rps / bare.rps))} of the bare proxy's ratio (target >= 80%)`,
    `reference: bare proxy adds ${(lat.bareProxy.p50 - lat.bare.p50).toFixed(3)} ms at p50 unloaded`,
    `gateway:   adds ${(lat.viaGateway.p50 - lat.direct.p50).toFixed(3)} ms at p50 unloaded (target < 2 ms), ${(lat.viaGateway.p99 - lat.direct.p99).toFixed(3)} ms at p99`,
    `gateway:   under ${CONNECTIONS}-connection load p50 goes from ${direct.p50.toFixed(0)} to ${viaGateway.p50.toFixed(0)} ms: queueing, as throughput halves`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  await benchTracing(common, {
    url: `http://127.0.0.1:${ports.gateway}${ROUTE}`,
    pids: { 'swap-gateway': swapGateway.pid, 'api-gateway': apiGateway.pid },
  });
}

/** The same two services with every request traced (parent-based, always on: the worst case), exporting to a collector on this machine. */
async function benchTracing(common: Record<string, string>, untraced: { url: string; pids: GatewayPids }): Promise<void> {
  const ports = { sink: await unusedPort(), swap: await unusedPort(), gateway: await unusedPort() };
  await start('dist/tools/bench/src/otlp-sink.js', { OTLP_PORT: String(ports.sink) });
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${ports.sink}`, OTEL_TRACES_SAMPLER: 'parentbased_always_on' };
  const swapGateway = await start('dist/apps/swap-gateway/src/main.js', { ...common, ...tracing, PORT: String(ports.swap) });
  const apiGateway = await start('dist/apps/api-gateway/src/main.js', {
    ...common,
    ...tracing,
    PORT: String(ports.gateway),
    UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${ports.swap}`,
  });
  for (const port of [ports.swap, ports.gateway]) await waitForService(port);
  const tracedPids: GatewayPids = { 'swap-gateway': swapGateway.pid, 'api-gateway': apiGateway.pid };
  const measureUntraced = () => measure('untraced', untraced.url, untraced.pids);
  const measureTraced = () => measure('traced', `http://127.0.0.1:${ports.gateway}${ROUTE}`, tracedPids);
  const pairs: [Measurement, Measurement][] = [];
  // Every other pair measures the traced path first, so a drift of the machine within a pair favours neither.
  for (let i = 0; i < TRACING_PAIRS; i++) {
    if (i % 2 === 0) pairs.push([await measureUntraced(), await measureTraced()]);
    else {
      const traced = await measureTraced();
      pairs.push([await measureUntraced(), traced]);
    }
  }
  const cpuMedian = (side: 0 | 1, service: keyof GatewayPids) => median(pairs.map((pair) => pair[side].cpu?.[service] ?? 0));
  const cpuLine = (service: keyof GatewayPids) => {
    const [off, on] = [cpuMedian(0, service), cpuMedian(1, service)];
    return `${service} ${off.toFixed(0)} -> ${on.toFixed(0)} µs (+${(on - off).toFixed(0)}, ${pct(on / off)})`;
  };
  const exports = ((await (await fetch(`http://127.0.0.1:${ports.sink}/`)).json()) as { exports: number }).exports;
  const ratios = pairs.map(([off, on]) => on.rps / off.rps).sort((a, b) => a - b);
  print([
    '',
    `Tracing: api-gateway -> swap-gateway with every request traced (parent-based always-on sampler), OTLP to a collector on this machine (${exports} exports taken):`,
    `${'pair'.padEnd(6)} ${'untraced req/s'.padStart(15)} ${'traced req/s'.padStart(13)} ${'traced p99 ms'.padStart(14)} ${'ratio'.padStart(7)}`,
    ...pairs.map(
      ([off, on], i) =>
        `${String(i + 1).padEnd(6)} ${off.rps.toFixed(0).padStart(15)} ${on.rps.toFixed(0).padStart(13)} ${on.p99.toFixed(2).padStart(14)} ${pct(on.rps / off.rps).padStart(7)}`,
    ),
    `tracing:   the traced gateway path keeps ${pct(ratios[Math.floor(ratios.length / 2)])} of the untraced throughput (median of ${pairs.length} same-run pairs; target >= 85%)`,
    `  CPU per request (user+kernel, median of the pairs), untraced -> traced: ${cpuLine('api-gateway')}, ${cpuLine('swap-gateway')}`,
  ]);
}

const print = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function startKeyRegistry(env: Record<string, string>, databaseUrl = BENCH_DATABASE_URL): Promise<number> {
  await ensureDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('DROP SCHEMA IF EXISTS key_registry CASCADE');
  await client.end();
  await migrateService(databaseUrl, keyRegistry);
  const port = await unusedPort();
  await start('dist/apps/key-registry/src/main.js', { ...env, DATABASE_URL: databaseUrl, PORT: String(port) });
  await waitForService(port);
  return port;
}

async function main(): Promise<void> {
  const only = process.argv[2];
  await ensureDatabase(BENCH_DATABASE_URL);
  await migrateService(BENCH_DATABASE_URL, quoteBuilder);
  if (!only || only === 'gateway') await benchGateway();
  const ctx: BenchContext = {
    postgresUrl: POSTGRES_URL,
    benchDatabaseUrl: BENCH_DATABASE_URL,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    duration: DURATION,
    connections: CONNECTIONS,
    start,
    waitFor,
    waitForService,
    adminPortOf: (port: number) => adminPorts.get(port)!,
    startKeyRegistry,
    print,
  };
  if (!only || only === 'keys') await benchKeys({ ...ctx, natsUrl: NATS_URL });
  if (!only || only === 'intents') await benchIntents({ ...ctx, natsUrl: NATS_URL });
  if (!only || only === 'quotes') await benchQuotes({ ...ctx, natsUrl: NATS_URL });
  if (!only || only === 'oracle') await benchOracle(ctx);
  if (!only || only === 'explorer') await benchExplorer({ ...ctx, natsUrl: NATS_URL });
  if (!only || only === 'settlement') await benchSettlement(ctx);
  // Long by design (20 and 5 min): only when asked for by name.
  if (only === 'soak') await benchSoak(ctx);
  if (only === 'faults') await benchFaults(ctx);
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)
  process.once(signal, () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(code);
  });

main()
  .catch((error: Error) => {
    process.stderr.write(`bench failed: ${error.stack ?? error.message}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
  });
