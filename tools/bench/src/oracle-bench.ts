import type { ChildProcess } from 'node:child_process';
/** The oracle-candles part of `npm run bench`; see docs/development.md#the-oracle-part. */
import { migrateService } from '@swap/service-kit';
import { unusedPort } from '@swap/testing';
import autocannon from 'autocannon';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { oracleCandles } from '../../../apps/oracle-candles/src/oracle-candles.definition';
import { parseMetrics } from '../../ops/src/prometheus-text';
import { bareStreamRate, startHermesStream } from './hermes-stream';
import { concurrently } from './latency';

export interface BenchContext {
  postgresUrl: string;
  /** `swap_bench`, quote-builder's tables migrated. */
  benchDatabaseUrl: string;
  redisUrl: string;
  duration: number;
  connections: number;
  start(script: string, env: Record<string, string>, nodeArgs?: string[]): Promise<ChildProcess>;
  waitFor(url: string): Promise<void>;
  waitForService(port: number, path?: string): Promise<void>;
  adminPortOf(port: number): number;
  /** On a fresh key_registry schema, every family off: the signed key set every swap-gateway needs. */
  startKeyRegistry(env: Record<string, string>, databaseUrl?: string): Promise<number>;
  print(lines: string[]): void;
}

const SYMBOLS = Array.from({ length: 20 }, (_, i) => `SYM${String(i + 1).padStart(2, '0')}`);
const YEAR_MINUTES = 525_600;
const START = 1_735_689_600; // 2025-01-01T00:00:00Z

export async function benchOracle(ctx: BenchContext): Promise<void> {
  const url = ctx.benchDatabaseUrl;
  await migrateService(url, oracleCandles);
  const rows = await ensureYearOfCandles(url, ctx);

  const oraclePort = await unusedPort();
  const gatewayPort = await unusedPort();
  const common = {
    DATABASE_URL: url,
    REDIS_URL: ctx.redisUrl,
    PRICE_SOURCE: 'none',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  };
  await ctx.start('dist/apps/oracle-candles/src/main.js', { ...common, PORT: String(oraclePort), CACHE_KEY_PREFIX: `bench-${Date.now()}` });
  await ctx.start('dist/apps/api-gateway/src/main.js', {
    ...common,
    PORT: String(gatewayPort),
    UPSTREAM_ORACLE_CANDLES_URL: `http://127.0.0.1:${oraclePort}`,
  });
  await ctx.waitForService(oraclePort);
  await ctx.waitForService(gatewayPort);

  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const cachedPath = `/v1/be/oracle/candles?symbol=SYM01&interval=1m&from=${START}&to=${START + 500 * 60}`;
  const cachedBody = await (await fetch(`${gateway}${cachedPath}`)).text();
  const markets = await measure(`${gateway}/v1/be/oracle/markets`, ctx);
  const cached = await measure(`${gateway}${cachedPath}`, ctx);
  const candleCount = (JSON.parse(cachedBody) as { candles: unknown[] }).candles.length;

  const uncached = await uncachedReads(`http://127.0.0.1:${oraclePort}`, ctx);
  const sql = await sqlReads(url, ctx);
  const ingestion = await ingestThroughService(url, ctx);

  ctx.print([
    '',
    `oracle-candles (PostgreSQL table oracle_candles.candles: ${rows.toLocaleString('en')} rows: 20 symbols × 1 year of 1m candles)`,
    '',
    `${'path (through api-gateway)'.padEnd(44)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}`,
    `${'GET /v1/be/oracle/markets'.padEnd(44)} ${markets.rps.toFixed(0).padStart(9)} ${markets.p50.toFixed(2).padStart(8)} ${markets.p99.toFixed(2).padStart(8)} ${String(markets.non2xx).padStart(8)}`,
    `${`GET candles, ${candleCount} candles, cached (${cachedBody.length} B)`.padEnd(44)} ${cached.rps.toFixed(0).padStart(9)} ${cached.p50.toFixed(2).padStart(8)} ${cached.p99.toFixed(2).padStart(8)} ${String(cached.non2xx).padStart(8)}`,
    `cached candles keep ${((cached.rps / markets.rps) * 100).toFixed(1)}% of the markets throughput (target >= 50%)`,
    '',
    `uncached reads of 5000 1m candles, a new range each, ${ctx.connections} concurrent clients, ${Math.max(5, ctx.duration)} s:`,
    `  ${'oracle-candles, direct'.padEnd(42)} ${uncached.rps.toFixed(0).padStart(7)} reads/s  p50 ${uncached.p50.toFixed(1).padStart(6)} ms  p99 ${uncached.p99.toFixed(1).padStart(6)} ms  (${uncached.n} reads, ${uncached.bytes} B each)`,
    `  ${`reference: the same rows, one SQL query (pool ${SQL_POOL})`.padEnd(42)} ${sql.rps.toFixed(0).padStart(7)} reads/s  p50 ${sql.p50.toFixed(1).padStart(6)} ms  p99 ${sql.p99.toFixed(1).padStart(6)} ms  (${sql.n} queries)`,
    `uncached candles: ${((uncached.rps / sql.rps) * 100).toFixed(1)}% of plain SQL throughput, p99 ${(uncached.p99 / sql.p99).toFixed(2)}x plain SQL`,
    '',
    `ingestion through oracle-candles (Hermes stand-in stream, 20 feeds, ${ingestion.seconds} s):`,
    `  ${'oracle-candles (aggregated, merged into PostgreSQL)'.padEnd(52)} ${ingestion.serviceRate.toFixed(0).padStart(8)} ticks/s  (${ingestion.rows.toLocaleString('en')} candle rows written, ${ingestion.failures} failed writes)`,
    `  ${'reference: a bare Node reader of the same stream'.padEnd(52)} ${ingestion.bareRate.toFixed(0).padStart(8)} ticks/s`,
    `  the service ingests ${((ingestion.serviceRate / ingestion.bareRate) * 100).toFixed(1)}% of what a bare reader parses`,
    '',
  ]);
}

async function measure(url: string, ctx: BenchContext) {
  await autocannon({ url, connections: ctx.connections, duration: Math.min(2, ctx.duration) });
  const r = await autocannon({ url, connections: ctx.connections, duration: ctx.duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

async function ensureYearOfCandles(url: string, ctx: BenchContext): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const expected = SYMBOLS.length * YEAR_MINUTES;
    const have = Number(
      (await client.query(`SELECT count(*) FROM oracle_candles.candles WHERE interval_s = 60 AND symbol LIKE 'SYM%'`)).rows[0].count,
    );
    if (have !== expected) {
      ctx.print([`generating ${expected.toLocaleString('en')} 1m candles into the bench database (once; kept for later runs)…`]);
      await client.query(`DELETE FROM oracle_candles.candles WHERE symbol LIKE 'SYM%'`);
      for (const symbol of SYMBOLS) {
        await client.query(
          `INSERT INTO oracle_candles.candles (symbol, interval_s, bucket, open, high, low, close, open_time, close_time)
           SELECT $1, 60, b, p, p + 1.5, p - 1.25, p + 0.5, b * 1000, b * 1000 + 59999
           FROM (SELECT b, round((1000 + 100 * sin(b / 3600.0) + (b % 97) / 10.0)::numeric, 8) AS p
                 FROM generate_series($2::bigint, $2::bigint + ($3::bigint - 1) * 60, 60) AS b) t`,
          [symbol, START, YEAR_MINUTES],
        );
      }
      await client.query(`INSERT INTO oracle_candles.markets (symbol) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [SYMBOLS]);
      await client.query('VACUUM ANALYZE oracle_candles.candles');
    }
    return Number((await client.query(`SELECT count(*) FROM oracle_candles.candles`)).rows[0].count);
  } finally {
    await client.end();
  }
}

/** DATABASE_POOL_MAX's default, for the SQL reference too. */
const SQL_POOL = 10;

/** Never a cache hit. */
function rangeOf(i: number) {
  const from = START + ((i * 7919) % (YEAR_MINUTES - 6000)) * 60;
  return { symbol: SYMBOLS[i % SYMBOLS.length], from, to: from + 5000 * 60 };
}

async function uncachedReads(origin: string, ctx: BenchContext) {
  const pool = new Pool(origin, { connections: ctx.connections });
  try {
    return await concurrently(ctx.connections, Math.max(5, ctx.duration), async (i) => {
      const { symbol, from, to } = rangeOf(i);
      const res = await pool.request({ method: 'GET', path: `/v1/be/oracle/candles?symbol=${symbol}&interval=1m&from=${from}&to=${to}` });
      const body = await res.body.text();
      if (res.statusCode !== 200 || !body.includes(`"timestamp":${from + 4999 * 60}`))
        throw new Error(`unexpected answer ${res.statusCode}`);
      return body.length;
    });
  } finally {
    await pool.close();
  }
}

async function sqlReads(url: string, ctx: BenchContext) {
  const pool = new pg.Pool({ connectionString: url, max: SQL_POOL });
  try {
    return await concurrently(ctx.connections, Math.max(5, ctx.duration), async (i) => {
      const { symbol, from, to } = rangeOf(i);
      const { rows } = await pool.query(
        'SELECT bucket, open, high, low, close FROM oracle_candles.candles WHERE symbol = $1 AND interval_s = 60 AND bucket >= $2 AND bucket < $3 ORDER BY bucket',
        [symbol, from, to],
      );
      if (rows.length !== 5000) throw new Error(`expected 5000 rows, got ${rows.length}`);
    });
  } finally {
    await pool.end();
  }
}

async function ingestionCounters(adminPort: number) {
  const samples = parseMetrics(await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text());
  const sum = (name: string) => samples.filter((m) => m.name === name).reduce((total, m) => total + m.value, 0);
  return {
    ticks: sum('oracle_ticks_ingested_total'),
    rows: sum('oracle_candle_rows_written_total'),
    failures: sum('oracle_candle_write_failures_total'),
    at: performance.now(),
  };
}

async function ingestThroughService(url: string, ctx: BenchContext) {
  const symbols = Array.from({ length: 20 }, (_, i) => `ING${String(i + 1).padStart(2, '0')}`);
  const stream = await startHermesStream(symbols);
  const seconds = Math.max(5, ctx.duration);
  try {
    const bareRate = await bareStreamRate(stream, seconds);

    const marketsFile = join(mkdtempSync(join(tmpdir(), 'bench-markets-')), 'markets.json');
    writeFileSync(
      marketsFile,
      JSON.stringify({
        symbols: Object.fromEntries(Object.entries(stream.feeds).map(([s, id]) => [s, { pythFeedId: id, simulatedStart: '1000' }])),
        aliases: {},
      }),
    );
    const port = await unusedPort();
    const child = await ctx.start('dist/apps/oracle-candles/src/main.js', {
      DATABASE_URL: url,
      REDIS_URL: ctx.redisUrl,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      PORT: String(port),
      CACHE_KEY_PREFIX: `bench-ingest-${Date.now()}`,
      PRICE_SOURCE: 'hermes',
      HERMES_URL: stream.url,
      MARKETS_FILE: marketsFile,
    });
    try {
      await ctx.waitForService(port);
      const admin = ctx.adminPortOf(port);
      const warmUntil = performance.now() + 10_000;
      while ((await ingestionCounters(admin)).ticks === 0 && performance.now() < warmUntil) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1000));
      const first = await ingestionCounters(admin);
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const last = await ingestionCounters(admin);
      return {
        seconds,
        bareRate,
        serviceRate: (last.ticks - first.ticks) / ((last.at - first.at) / 1000),
        rows: last.rows - first.rows,
        failures: last.failures,
      };
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
  } finally {
    await stream.close();
    const pgClient = new pg.Client({ connectionString: url });
    await pgClient.connect();
    await pgClient.query(`DELETE FROM oracle_candles.candles WHERE symbol LIKE 'ING%'`);
    await pgClient.query(`DELETE FROM oracle_candles.markets WHERE symbol LIKE 'ING%'`);
    await pgClient.end();
  }
}
