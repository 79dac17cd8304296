import type { ChildProcess } from 'node:child_process';
/**
 * The oracle-candles part of `npm run bench`:
 *  1. cached reads through api-gateway: 500 candles vs the tiny markets body, same hop;
 *  2. uncached reads of 5000 1m candles from a table of one year of 1m candles for 20
 *     symbols (about 10.5 million rows; generated once into the bench database and kept);
 *  3. ingestion: ticks aggregated and written to PostgreSQL, on this one process.
 */
import { createPrismaClient } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import autocannon from 'autocannon';
import pg from 'pg';
import { Pool } from 'undici';
import { CandleAggregator } from '../../../apps/oracle-candles/src/aggregation/candle-aggregator';
import { CandleStore } from '../../../apps/oracle-candles/src/aggregation/candle-store';
import { PrismaClient } from '../../../apps/oracle-candles/src/generated/prisma/client';
import { oracleCandles } from '../../../apps/oracle-candles/src/oracle-candles.definition';
import { parsePrice } from '../../../apps/oracle-candles/src/prices/decimal-price';

export interface BenchContext {
  postgresUrl: string;
  /** The bench's own database (`swap_bench`), quote-builder's tables migrated. */
  benchDatabaseUrl: string;
  redisUrl: string;
  duration: number;
  connections: number;
  /** Starts a built entry point; one given a PORT also gets a free ADMIN_PORT. */
  start(script: string, env: Record<string, string>): Promise<ChildProcess>;
  freePort(): Promise<number>;
  waitFor(url: string): Promise<void>;
  /** Waits for the service started on this PORT to answer on its admin port (`/readyz` unless told). */
  waitForService(port: number, path?: string): Promise<void>;
  print(lines: string[]): void;
}

const SYMBOLS = Array.from({ length: 20 }, (_, i) => `SYM${String(i + 1).padStart(2, '0')}`);
const YEAR_MINUTES = 525_600;
const START = 1_735_689_600; // 2025-01-01T00:00:00Z

export async function benchOracle(ctx: BenchContext): Promise<void> {
  const url = ctx.benchDatabaseUrl;
  await migrateService(url, oracleCandles);
  const rows = await ensureYearOfCandles(url, ctx);

  // 1 + 2: oracle-candles and the gateway as processes, as in a cluster.
  const oraclePort = await ctx.freePort();
  const gatewayPort = await ctx.freePort();
  const common = { DATABASE_URL: url, REDIS_URL: ctx.redisUrl, PRICE_SOURCE: 'none', HOST: '127.0.0.1', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' };
  await ctx.start('dist/apps/oracle-candles/src/main.js', { ...common, PORT: String(oraclePort), CACHE_KEY_PREFIX: `bench-${Date.now()}` });
  await ctx.start('dist/apps/api-gateway/src/main.js', { ...common, PORT: String(gatewayPort), UPSTREAM_ORACLE_CANDLES_URL: `http://127.0.0.1:${oraclePort}` });
  await ctx.waitForService(oraclePort);
  await ctx.waitForService(gatewayPort);

  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const cachedPath = `/v1/be/oracle/candles?symbol=SYM01&interval=1m&from=${START}&to=${START + 500 * 60}`;
  const cachedBody = await (await fetch(`${gateway}${cachedPath}`)).text();
  const markets = await measure(`${gateway}/v1/be/oracle/markets`, ctx);
  const cached = await measure(`${gateway}${cachedPath}`, ctx);
  const candleCount = (JSON.parse(cachedBody) as { candles: unknown[] }).candles.length;

  const uncached = await uncachedReads(`http://127.0.0.1:${oraclePort}`, ctx.duration);
  const ingestion = await ingest(url);

  ctx.print([
    '',
    `oracle-candles (PostgreSQL table oracle_candles.candles: ${rows.toLocaleString('en')} rows: 20 symbols × 1 year of 1m candles)`,
    '',
    `${'path (through api-gateway)'.padEnd(44)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}`,
    `${'GET /v1/be/oracle/markets'.padEnd(44)} ${markets.rps.toFixed(0).padStart(9)} ${markets.p50.toFixed(2).padStart(8)} ${markets.p99.toFixed(2).padStart(8)} ${String(markets.non2xx).padStart(8)}`,
    `${`GET candles, ${candleCount} candles, cached (${cachedBody.length} B)`.padEnd(44)} ${cached.rps.toFixed(0).padStart(9)} ${cached.p50.toFixed(2).padStart(8)} ${cached.p99.toFixed(2).padStart(8)} ${String(cached.non2xx).padStart(8)}`,
    `cached candles keep ${((cached.rps / markets.rps) * 100).toFixed(1)}% of the markets throughput (target >= 50%)`,
    '',
    `uncached reads of 5000 1m candles (direct, sequential, a new range each time): ${uncached.n} reads, p50 ${uncached.p50.toFixed(1)} ms, p99 ${uncached.p99.toFixed(1)} ms (target p99 < 50 ms), ${uncached.bytes} B each`,
    '',
    `ingestion (one process): ${ingestion.ticks.toLocaleString('en')} ticks of 20 symbols, aggregated in memory: ${ingestion.memoryRate.toFixed(0)} ticks/s;`,
    `  with every candle piece merged into PostgreSQL (a flush per 20 000 ticks): ${ingestion.totalRate.toFixed(0)} ticks/s (target >= 20 000)`,
    '',
  ]);
}

async function measure(url: string, ctx: BenchContext) {
  await autocannon({ url, connections: ctx.connections, duration: Math.min(2, ctx.duration) });
  const r = await autocannon({ url, connections: ctx.connections, duration: ctx.duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

/** Generates the year of candles once (the bench database keeps it between runs). */
async function ensureYearOfCandles(url: string, ctx: BenchContext): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const expected = SYMBOLS.length * YEAR_MINUTES;
    const have = Number((await client.query(`SELECT count(*) FROM oracle_candles.candles WHERE interval_s = 60 AND symbol LIKE 'SYM%'`)).rows[0].count);
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

async function uncachedReads(origin: string, seconds: number) {
  const pool = new Pool(origin, { connections: 1 });
  const samples: number[] = [];
  let bytes = 0;
  const until = performance.now() + Math.max(5, seconds) * 1000;
  try {
    for (let i = 0; performance.now() < until; i++) {
      const symbol = SYMBOLS[i % SYMBOLS.length];
      const from = START + ((i * 7919) % (YEAR_MINUTES - 6000)) * 60; // a different range every time: never a cache hit
      const started = performance.now();
      const res = await pool.request({ method: 'GET', path: `/v1/be/oracle/candles?symbol=${symbol}&interval=1m&from=${from}&to=${from + 5000 * 60}` });
      const body = await res.body.text();
      samples.push(performance.now() - started);
      if (res.statusCode !== 200 || !body.includes(`"timestamp":${from + 4999 * 60}`)) throw new Error(`unexpected answer ${res.statusCode}`);
      bytes = body.length;
    }
  } finally {
    await pool.close();
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { n: samples.length, p50: at(0.5), p99: at(0.99), bytes };
}

async function ingest(url: string) {
  const db = createPrismaClient(PrismaClient, { url, schema: 'oracle_candles', poolMax: 2 });
  const store = new CandleStore(db.client);
  const total = 400_000;
  const prices = SYMBOLS.map((_, i) => parsePrice(`${1000 + i}.12345678`));
  const base = Date.UTC(2026, 0, 1);
  const ticks = Array.from({ length: total }, (_, i) => ({
    symbol: `ING${String(i % 20).padStart(2, '0')}`,
    price: prices[i % 20] + BigInt(i % 1000) * 10n ** 10n,
    timeMs: base + Math.floor(i / 20) * 50, // 20 ticks per symbol per second of market time
  }));
  try {
    const memoryOnly = new CandleAggregator();
    let started = performance.now();
    for (const t of ticks) memoryOnly.add(t);
    const memoryRate = total / ((performance.now() - started) / 1000);

    const aggregator = new CandleAggregator();
    started = performance.now();
    for (let i = 0; i < total; i++) {
      aggregator.add(ticks[i]);
      if ((i + 1) % 20_000 === 0) await store.write(aggregator.drain());
    }
    await store.write(aggregator.drain());
    const totalRate = total / ((performance.now() - started) / 1000);
    await db.client.$executeRaw`DELETE FROM oracle_candles.candles WHERE symbol LIKE 'ING%'`;
    return { ticks: total, memoryRate, totalRate };
  } finally {
    await db.close();
  }
}
