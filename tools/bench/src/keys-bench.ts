/** The key part of `npm run bench`; see docs/development.md#the-key-part. */
import { withDatabase } from '@swap/persistence';
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleIntent, unusedPort } from '@swap/testing';
import type { BenchContext } from './oracle-bench';

const INTENT = sampleIntent();

export async function benchKeys(ctx: BenchContext & { natsUrl: string }): Promise<void> {
  const url = ctx.benchDatabaseUrl;

  // Runs alternate between the two so that drift of this shared machine falls on both alike.
  const ports = {
    quote: await unusedPort(),
    swap: await unusedPort(),
    uncounted: await unusedPort(),
    quoteOff: await unusedPort(),
    swapOff: await unusedPort(),
  };
  const common = { DATABASE_URL: url, NATS_URL: ctx.natsUrl, HOST: '127.0.0.1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' };
  const enforced = { ...common, NATS_SUBJECT_PREFIX: `bench-enforce-${Date.now()}` };
  const unkeyed = { ...common, NATS_SUBJECT_PREFIX: `bench-off-${Date.now()}` };
  const registryPort = await ctx.startKeyRegistry(enforced);
  await ctx.startKeyRegistry(unkeyed, withDatabase(ctx.postgresUrl, 'swap_bench_keys_off'));
  await ctx.start('dist/apps/quote-builder/src/main.js', { ...enforced, PORT: String(ports.quote) });
  const enforcedProcess = await ctx.start('dist/apps/swap-gateway/src/main.js', { ...enforced, PORT: String(ports.swap) });
  // The same, not counting usage: what counting costs is the difference (issue: at most 3% of its CPU).
  const uncountedProcess = await ctx.start('dist/apps/swap-gateway/src/main.js', {
    ...enforced,
    PORT: String(ports.uncounted),
    USAGE_COUNTING: 'false',
  });
  await ctx.start('dist/apps/quote-builder/src/main.js', { ...unkeyed, PORT: String(ports.quoteOff) });
  const offProcess = await ctx.start('dist/apps/swap-gateway/src/main.js', { ...unkeyed, PORT: String(ports.swapOff) });
  for (const port of [ports.quote, ports.swap, ports.uncounted, ports.quoteOff]) await ctx.waitForService(port);
  await ctx.waitForService(ports.swapOff, '/healthz');

  const ops = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${registryPort}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: string; key: string }>;
  };
  const org = await ops('POST', '/ops/organisations', { name: 'bench' });
  const { key } = await ops('POST', `/ops/organisations/${org.id}/keys`, { name: 'bench' });
  await ops('PUT', '/ops/enforcement-modes/swaps', { mode: 'monitor' });
  await ops('PUT', '/ops/enforcement-modes/swaps', { mode: 'enforce' });

  const path = '/v1/swaps/intents/hash';
  const body = JSON.stringify({ intent: INTENT });
  const headers = { 'content-type': 'application/json', 'x-api-key': key };
  for (let i = 0; ; i++) {
    const res = await fetch(`http://127.0.0.1:${ports.swap}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    if (res.status === 401) break;
    if (i > 100) throw new Error('swap-gateway never applied enforce');
    await new Promise((r) => setTimeout(r, 50));
  }
  const keyless = await fetch(`http://127.0.0.1:${ports.swapOff}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = await keyless.text();
  if (keyless.status !== 200) throw new Error(`the off-mode swap-gateway answered ${keyless.status} without a key: ${answer}`);

  // The same-run reference: a bare Node server answering the very body the route answers.
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'bench-keys-')), 'body.json');
  writeFileSync(bodyFile, answer);
  const bare = { port: await unusedPort(), proxy: await unusedPort() };
  const bareProcess = await ctx.start('dist/tools/bench/src/reference-servers.js', {
    BARE_PORT: String(bare.port),
    PROXY_PORT: String(bare.proxy),
    BODY_FILE: bodyFile,
  });
  await ctx.waitFor(`http://127.0.0.1:${bare.proxy}/`);

  const run = async (port: number, seconds: number, pid?: number) => {
    const cpuBefore = cpuSeconds(pid);
    const r = await autocannon({
      url: `http://127.0.0.1:${port}${path}`,
      method: 'POST',
      body,
      headers,
      connections: ctx.connections,
      duration: seconds,
    });
    const cpu = cpuSeconds(pid) - cpuBefore;
    return {
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      cpuPerRequest: cpu / Math.max(1, r.requests.total),
    };
  };
  await run(ports.swapOff, 2);
  await run(ports.swap, 2);
  const rounds = 7;
  const slice = Math.max(2, Math.round(ctx.duration / 2));
  type Run = Awaited<ReturnType<typeof run>>;
  const results = { bare: [] as Run[], off: [] as Run[], enforce: [] as Run[], uncounted: [] as Run[] };
  await run(bare.port, 2);
  await run(ports.uncounted, 2);
  for (let i = 0; i < rounds; i++) {
    results.bare.push(await run(bare.port, slice, bareProcess.pid));
    results.off.push(await run(ports.swapOff, slice, offProcess.pid));
    results.enforce.push(await run(ports.swap, slice, enforcedProcess.pid));
    results.uncounted.push(await run(ports.uncounted, slice, uncountedProcess.pid));
  }
  const total = (rs: { rps: number }[]) => rs.reduce((sum, r) => sum + r.rps, 0) / rs.length;
  const worst = (rs: { p99: number }[]) => Math.max(...rs.map((r) => r.p99));
  const median = (rs: { p50: number }[]) => [...rs.map((r) => r.p50)].sort((a, b) => a - b)[Math.floor(rs.length / 2)];
  const summary = (rs: Run[]) => ({
    rps: total(rs),
    p50: median(rs),
    p99: worst(rs),
    non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
  });
  const reference = summary(results.bare);
  const off = summary(results.off);
  const enforce = summary(results.enforce);
  const uncounted = summary(results.uncounted);
  // The median of paired ratios is the figure least moved by whatever else the machine does.
  const ratios = results.enforce.map((r, i) => r.rps / results.off[i].rps).sort((a, b) => a - b);
  const medianRatio = ratios[Math.floor(ratios.length / 2)];
  const cpu = (rs: { cpuPerRequest: number }[]) =>
    [...rs.map((r) => r.cpuPerRequest)].sort((a, b) => a - b)[Math.floor(rs.length / 2)] * 1e6;
  const counting = results.enforce.map((r, i) => r.cpuPerRequest / results.uncounted[i].cpuPerRequest - 1).sort((a, b) => a - b);
  const countingCost = counting[Math.floor(counting.length / 2)];

  ctx.print([
    '',
    `key checks: POST /v1/swaps/intents/hash on swap-gateway, valid key sent (${ctx.connections} connections; ${rounds} alternating runs of ${slice} s per mode; uncounted: enforce with USAGE_COUNTING=false)`,
    `${'mode'.padEnd(12)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}`,
    ...(
      [
        ['bare server', reference],
        ['off', off],
        ['enforce', enforce],
        ['uncounted', uncounted],
      ] as const
    ).map(
      ([m, r]) =>
        `${m.padEnd(12)} ${r.rps.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.non2xx).padStart(8)}`,
    ),
    `enforce keeps ${(medianRatio * 100).toFixed(1)}% of the off-mode throughput (median of ${rounds} paired runs; target >= 95%); mean over all runs ${((enforce.rps / off.rps) * 100).toFixed(1)}%`,
    `reference: the bare Node server answering the same body serves ${reference.rps.toFixed(0)} req/s; off keeps ${((off.rps / reference.rps) * 100).toFixed(1)}% of it, enforce ${((enforce.rps / reference.rps) * 100).toFixed(1)}%`,
    `swap-gateway CPU per request (median; steadier than throughput on a shared machine): off ${cpu(results.off).toFixed(0)} µs, enforce ${cpu(results.enforce).toFixed(0)} µs (bare server ${cpu(results.bare).toFixed(0)} µs)`,
    `usage counting adds ${(countingCost * 100).toFixed(1)}% to swap-gateway's CPU per keyed request (median of ${rounds} same-run pairs, enforce counted ${cpu(results.enforce).toFixed(0)} µs vs uncounted ${cpu(results.uncounted).toFixed(0)} µs; target <= 3%)`,
    '',
  ]);
}

function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}
