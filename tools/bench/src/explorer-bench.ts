/** The explorer part of `npm run bench`; see docs/development.md#the-explorer-part. */
import { migrateService } from '@swap/service-kit';
import { unusedPort } from '@swap/testing';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { Pool } from 'undici';
import { relayTracker } from '../../../apps/relay-tracker/src/relay-tracker.definition';
import { concurrently } from './latency';
import { cpuMicrosPerRequestSince, cpuSplitText, postgresCpu } from './process-stats';
import type { BenchContext } from './oracle-bench';
import { SERVICE_ENV, SERVICE_NODE_FLAG } from '../../deploy-check/src/service-launch';

const INTENTS = Number(process.env.BENCH_EXPLORER_INTENTS ?? 10_000_000);
const USERS = Math.max(1, Math.floor(INTENTS / 10));
const FIRST_BLOCK = 1_000_000;
const START = 1_735_689_600; // 2025-01-01T00:00:00Z
const HUB = '0x92.sonic';
/** DATABASE_POOL_MAX's default, for the SQL reference too. */
const SQL_POOL = 10;
const BATCH = 500_000;
const WARM_UP_SECONDS = 2;

/** As the generator writes it: sha256 of i as a signed 64-bit big-endian integer. */
function hashOf(i: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(i));
  return `0x${createHash('sha256').update(bytes).digest('hex')}`;
}

const userAddress = (u: number) => `0x${(u + 0x1000000).toString(16).padStart(40, '0')}`;
const volumeCursor = (block: number, logIndex: number) => Buffer.from(`${block}:${logIndex}:d`).toString('base64url');
const blocks = Math.ceil(INTENTS / 4);
/** Row i (1-based) of the sixth of n rows a phase owns (each side's warm-up, then its measurement), never the same twice in a row: a row one phase read would be in PostgreSQL's buffers for the next. */
const phaseRow = (phase: 0 | 1 | 2 | 3 | 4 | 5, n: number) => {
  const sixth = Math.floor(n / 6);
  if (sixth === 0) throw new Error(`BENCH_EXPLORER_INTENTS is too small: a read needs at least six rows (this one has ${n})`);
  return (i: number) => phase * sixth + ((i * 7919 + 13) % sixth) + 1;
};

export async function benchExplorer(ctx: BenchContext & { natsUrl: string }): Promise<void> {
  const url = ctx.benchDatabaseUrl;
  await migrateService(url, relayTracker);
  const sizes = await ensureIndex(url, ctx);

  const port = await unusedPort();
  const tracker = await ctx.start('dist/apps/relay-tracker/src/main.js', {
    DATABASE_URL: url,
    NATS_URL: ctx.natsUrl,
    REDIS_URL: ctx.redisUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  });
  await ctx.waitForService(port);
  const origin = `http://127.0.0.1:${port}`;
  const seconds = Math.max(5, ctx.duration);

  const reads: { name: string; rows: number; service: (k: number) => string; sql: string; params: (k: number) => unknown[] }[] = [
    {
      name: 'intent by hash (with its events)',
      rows: INTENTS,
      service: (k) => `/v1/be/intent/${hashOf(k)}`,
      sql: `SELECT i.*, e.kind, e.tx_hash AS event_tx, e.log_index AS event_log, e.block_number AS event_block, e.block_time AS event_time, e.data
            FROM relay_tracker.explorer_intents i
            LEFT JOIN relay_tracker.chain_events e ON e.intent_hash = i.intent_hash AND e.kind IN ('intent_created', 'intent_filled', 'intent_cancelled')
            WHERE i.intent_hash = $1 ORDER BY e.block_number, e.log_index`,
      params: (k) => [hashOf(k)],
    },
    {
      name: 'a user’s history page (limit 50)',
      rows: USERS,
      service: (k) => `/v1/be/intent/user/${userAddress(k - 1)}?limit=50`,
      sql: `SELECT i.*, e.kind, e.tx_hash AS event_tx, e.log_index AS event_log, e.block_number AS event_block, e.block_time AS event_time, e.data
            FROM (SELECT * FROM relay_tracker.explorer_intents WHERE src_address = $1 OR creator = $1
                  ORDER BY block_number DESC, log_index DESC LIMIT 50) i
            LEFT JOIN relay_tracker.chain_events e ON e.intent_hash = i.intent_hash AND e.kind IN ('intent_created', 'intent_filled', 'intent_cancelled')
            ORDER BY i.block_number DESC, i.log_index DESC, e.block_number, e.log_index`,
      params: (k) => [userAddress(k - 1)],
    },
    {
      name: 'a volume page (50 fills, keyset)',
      rows: blocks - 60,
      service: (k) => `/v1/be/solver/volume?limit=50&cursor=${volumeCursor(FIRST_BLOCK + 50 + k, 0)}`,
      sql: `SELECT * FROM relay_tracker.explorer_fills WHERE (block_number, log_index) < ($1, $2)
            ORDER BY block_number DESC, log_index DESC LIMIT 51`,
      params: (k) => [FIRST_BLOCK + 50 + k, 0],
    },
  ];

  const floorPort = await unusedPort();
  // With the services' own node flag and allocator setting, as relay-tracker runs.
  const floorProcess = await ctx.start(
    'dist/tools/bench/src/explorer-floor.js',
    {
      ...SERVICE_ENV,
      FLOOR_PORT: String(floorPort),
      DATABASE_URL: url,
      FLOOR_POOL: String(SQL_POOL),
      READS: JSON.stringify(reads.map((r) => r.sql)),
    },
    [SERVICE_NODE_FLAG],
  );
  await ctx.waitFor(`http://127.0.0.1:${floorPort}/ready`);
  const floorPath = (index: number, bytes: number, params: unknown[]) =>
    `/?read=${index}&bytes=${bytes}&params=${encodeURIComponent(JSON.stringify(params))}`;
  const http = new Pool(origin, { connections: ctx.connections });
  const floorHttp = new Pool(`http://127.0.0.1:${floorPort}`, { connections: ctx.connections });
  const sql = new pg.Pool({ connectionString: url, max: SQL_POOL });
  const lines = [
    '',
    `explorer reads (relay-tracker direct; hub index of ${sizes.intents.toLocaleString('en')} intents, ${sizes.fills.toLocaleString('en')} fills, ${sizes.events.toLocaleString('en')} hub events), ${ctx.connections} concurrent clients, ${seconds} s each:`,
  ];
  try {
    const viaHttp = (pool: Pool, path: (k: number) => string) => (row: (i: number) => number) => async (i: number) => {
      const at = path(row(i));
      const res = await pool.request({ method: 'GET', path: at });
      const body = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${at} answered ${res.statusCode}: ${body.slice(0, 200)}`);
      return body.length;
    };
    for (const [index, read] of reads.entries()) {
      const viaService = viaHttp(http, read.service);
      const viaSql = (row: (i: number) => number) => (i: number) => sql.query(read.sql, read.params(row(i))).then(() => undefined);
      // Warmed up (connections, prepared plans, the JIT) on rows of their own; no phase reads another phase's rows.
      await concurrently(ctx.connections, WARM_UP_SECONDS, viaService(phaseRow(0, read.rows)));
      const serviceCpu = cpuMicrosPerRequestSince({ bench: process.pid, 'relay-tracker': tracker.pid, postgres: postgresCpu });
      const service = await concurrently(ctx.connections, seconds, viaService(phaseRow(1, read.rows)));
      const serviceSplit = serviceCpu(service.n);
      await concurrently(ctx.connections, WARM_UP_SECONDS, viaSql(phaseRow(2, read.rows)));
      const plainCpu = cpuMicrosPerRequestSince({ bench: process.pid, postgres: postgresCpu });
      const plain = await concurrently(ctx.connections, seconds, viaSql(phaseRow(3, read.rows)));
      const plainSplit = plainCpu(plain.n);
      const viaFloor = viaHttp(floorHttp, (k) => floorPath(index, service.bytes, read.params(k)));
      await concurrently(ctx.connections, WARM_UP_SECONDS, viaFloor(phaseRow(4, read.rows)));
      const floorCpu = cpuMicrosPerRequestSince({ bench: process.pid, floor: floorProcess.pid, postgres: postgresCpu });
      const bare = await concurrently(ctx.connections, seconds, viaFloor(phaseRow(5, read.rows)));
      const floorSplit = floorCpu(bare.n);
      const share = (service.rps / plain.rps) * 100;
      const p99 = service.p99 / plain.p99;
      const shareOf = (a: typeof service, b: typeof service) => `${((a.rps / b.rps) * 100).toFixed(1)}%`;
      lines.push(
        `  ${read.name}:`,
        measuredRow('relay-tracker', service, `${service.n} reads, ${service.bytes} B each`),
        measuredRow(`reference: one SQL query (pool ${SQL_POOL})`, plain, `${plain.n} queries`),
        measuredRow('floor: the query over node:http', bare, `${bare.n} reads`),
        `    CPU per read, µs user+kernel: relay-tracker path ${cpuLine(serviceSplit)}; reference ${cpuLine(plainSplit)}; floor ${cpuLine(floorSplit)}`,
        `    throughput ${share.toFixed(1)}% of the reference (target >= 50%): ${share >= 50 ? 'met' : 'NOT met'}; p99 ${p99.toFixed(2)}x the reference's (target <= 1.5x): ${p99 <= 1.5 ? 'met' : 'NOT met'}`,
        `    floor (the reference's query and client, relay-tracker's bytes from a bare node:http server): throughput ${shareOf(bare, plain)} of the reference, p99 ${(bare.p99 / plain.p99).toFixed(2)}x; relay-tracker ${shareOf(service, bare)} of the floor's throughput, p99 ${(service.p99 / bare.p99).toFixed(2)}x`,
      );
    }
  } finally {
    await http.close();
    await floorHttp.close();
    await sql.end();
  }
  ctx.print([...lines, '']);
}

function measuredRow(label: string, m: { rps: number; p50: number; p99: number }, tail: string): string {
  return `    ${label.padEnd(34)} ${m.rps.toFixed(0).padStart(7)} reads/s  p50 ${m.p50.toFixed(1).padStart(6)} ms  p99 ${m.p99.toFixed(1).padStart(6)} ms  (${tail})`;
}

function cpuLine(split: { name: string; user: number; system: number }[]): string {
  const total = split.reduce((sum, p) => sum + p.user + p.system, 0);
  return `${cpuSplitText(split).join(', ')} (${total.toFixed(0)} in all)`;
}

async function ensureIndex(url: string, ctx: BenchContext): Promise<{ intents: number; fills: number; events: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const count = async (table: string) => Number((await client.query(`SELECT count(*) FROM relay_tracker.${table}`)).rows[0].count);
  try {
    if ((await count('explorer_intents')) !== INTENTS) {
      ctx.print([`generating a hub index of ${INTENTS.toLocaleString('en')} intents into the bench database (once; kept for later runs)…`]);
      await client.query('TRUNCATE relay_tracker.explorer_intents, relay_tracker.explorer_fills, relay_tracker.chain_events');
      // Indexes after the rows (one sort each), triggers off: the rows are written as the triggers would keep them.
      const { rows: indexes } = await client.query<{ name: string; def: string }>(
        `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'relay_tracker'
         AND tablename IN ('explorer_intents', 'explorer_fills', 'chain_events') AND indexname NOT LIKE '%_pkey'`,
      );
      for (const index of indexes) await client.query(`DROP INDEX relay_tracker."${index.name}"`);
      await client.query('ALTER TABLE relay_tracker.chain_events DISABLE TRIGGER USER');
      try {
        for (let from = 1; from <= INTENTS; from += BATCH) {
          const to = Math.min(INTENTS, from + BATCH - 1);
          await client.query(GENERATE_INTENTS, [from, to, HUB, FIRST_BLOCK, START, USERS]);
          // Batches of a multiple of 4 intents: each batch's blocks are its own.
          await client.query(GENERATE_EVENTS, [FIRST_BLOCK + (from - 1) / 4, FIRST_BLOCK + Math.floor((to - 1) / 4)]);
          if (to % 2_000_000 === 0 || to === INTENTS) ctx.print([`  ${to.toLocaleString('en')} intents`]);
        }
      } finally {
        await client.query('ALTER TABLE relay_tracker.chain_events ENABLE TRIGGER USER');
      }
      for (const index of indexes) await client.query(index.def);
      await client.query('VACUUM ANALYZE relay_tracker.explorer_intents');
      await client.query('VACUUM ANALYZE relay_tracker.explorer_fills');
      await client.query('VACUUM ANALYZE relay_tracker.chain_events');
    }
    return { intents: await count('explorer_intents'), fills: await count('explorer_fills'), events: await count('chain_events') };
  } finally {
    await client.end();
  }
}

/** Four per hub block, a user per ten intents, a hub wallet per hundred; nine in ten filled two blocks later. */
const GENERATE_INTENTS = `
WITH g AS (
  SELECT i,
    '0x' || encode(sha256(int8send(i)), 'hex') AS hash,
    '0x' || encode(sha256(int8send(-i)), 'hex') AS tx,
    '0x' || encode(sha256(int8send(i + 9000000000000000000)), 'hex') AS fill_tx,
    '0x' || lpad(to_hex(i % ($6::bigint * 10 / 100) + 1), 40, '0') AS creator,
    '0x' || lpad(to_hex((i - 1) % $6::bigint + 16777216), 40, '0') AS usr,
    '0x' || lpad(to_hex(4096 + i % 8), 40, '0') AS tin,
    '0x' || lpad(to_hex(4096 + (i + 3) % 8), 40, '0') AS tout,
    '0x' || lpad(to_hex(8192 + i % 10), 40, '0') AS solver,
    (ARRAY[23, 30, 4, 146])[1 + i % 4] AS src,
    (ARRAY[146, 23, 30, 4])[1 + i % 4] AS dst,
    i % 10 <> 0 AS filled,
    $4::bigint + (i - 1) / 4 AS block
  FROM generate_series($1::bigint, $2::bigint) AS i
), ins AS (
  INSERT INTO relay_tracker.explorer_intents (intent_hash, chain_key, tx_hash, log_index, block_number, block_time, intent, creator, src_address,
    src_chain, dst_chain, input_token, output_token, deadline, remaining_input, received_output, pending_payment, cancelled, open)
  SELECT hash, $3, tx, ((i - 1) % 4)::int, block, to_timestamp($5::bigint + (i - 1) / 4),
    jsonb_build_object('intentId', i::text, 'creator', creator, 'inputToken', tin, 'outputToken', tout, 'inputAmount', '1000000',
      'minOutputAmount', '990000', 'deadline', ($5::bigint + (i - 1) / 4 + 600)::text, 'allowPartialFill', false, 'srcChain', src::text,
      'dstChain', dst::text, 'srcAddress', usr, 'dstAddress', usr, 'solver', '0x0000000000000000000000000000000000000000', 'data', '0x'),
    creator, usr, src, dst, tin, tout, $5::bigint + (i - 1) / 4 + 600,
    CASE WHEN filled THEN 0 ELSE 1000000 END, CASE WHEN filled THEN 995000 ELSE 0 END, false, false, NOT filled
  FROM g
)
INSERT INTO relay_tracker.explorer_fills (block_number, log_index, chain_key, intent_hash, tx_hash, block_time, solver, input_token, output_token,
  input_amount, output_amount)
SELECT block + 2, 100 + ((i - 1) % 4)::int, $3, hash, fill_tx, to_timestamp($5::bigint + (i - 1) / 4 + 2), solver, tin, tout, 1000000, 995000
FROM g WHERE filled`;

const GENERATE_EVENTS = `
INSERT INTO relay_tracker.chain_events (chain_key, block_number, block_hash, log_index, tx_hash, block_time, kind, intent_hash, data)
SELECT chain_key, block_number, '0xbench', log_index, tx_hash, block_time, 'intent_created', intent_hash, jsonb_build_object('intent', intent)
FROM relay_tracker.explorer_intents WHERE block_number BETWEEN $1 AND $2
UNION ALL
SELECT chain_key, block_number, '0xbench', log_index, tx_hash, block_time, 'intent_filled', intent_hash,
  jsonb_build_object('remainingInput', '0', 'receivedOutput', output_amount::text, 'pendingPayment', false, 'solver', solver)
FROM relay_tracker.explorer_fills WHERE block_number - 2 BETWEEN $1 AND $2`;
