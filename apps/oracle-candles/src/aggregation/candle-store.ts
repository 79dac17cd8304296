import { Inject, Injectable } from '@nestjs/common';
import { DATABASE_POOL } from '@swap/service-kit';
import type pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { priceToNumericText } from '../prices/decimal-price';
import { INTERVALS } from '../prices/intervals';
import type { PendingCandle } from './candle-aggregator';

const ROLLUP_INTERVALS = INTERVALS.map((i) => i.seconds).filter((s) => s > 60);

/** partial-candle.ts's merge, in SQL: the stored row is `c`, the incoming piece EXCLUDED. */
const MERGE_RULE = Prisma.sql`
  open = CASE WHEN (EXCLUDED.open_time, EXCLUDED.open) < (c.open_time, c.open) THEN EXCLUDED.open ELSE c.open END,
  open_time = LEAST(c.open_time, EXCLUDED.open_time),
  high = GREATEST(c.high, EXCLUDED.high),
  low = LEAST(c.low, EXCLUDED.low),
  close = CASE WHEN (EXCLUDED.close_time, EXCLUDED.close) > (c.close_time, c.close) THEN EXCLUDED.close ELSE c.close END,
  close_time = GREATEST(c.close_time, EXCLUDED.close_time),
  updated_at = now()`;

/** One JSON text of candles (see readJson); $1 symbol, $2 interval (s), $3 from, $4 to, $5 forming since. */
const READ_JSON_SQL = `
  SELECT coalesce(string_agg(
    '{"timestamp":' || bucket || ',"open":"' || trim_scale(open) || '","high":"' || trim_scale(high)
      || '","low":"' || trim_scale(low) || '","close":"' || trim_scale(close) || '"'
      || CASE WHEN bucket + $2::int > $5::float8 THEN ',"final":false}' ELSE '}' END,
    ',' ORDER BY bucket), '')
  FROM oracle_candles.candles
  WHERE symbol = $1 AND interval_s = $2::int AND bucket >= $3::bigint AND bucket < $4::bigint`;

@Injectable()
export class CandleStore {
  private readonly knownSymbols = new Set<string>();

  constructor(
    private readonly db: PrismaClient,
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
  ) {}

  /** One statement; replicas racing on a bucket converge: docs/architecture/oracle-candles.md#aggregation. */
  async write(rows: PendingCandle[]): Promise<void> {
    if (rows.length === 0) return;
    const symbols = rows.map((r) => r.symbol);
    const intervals = rows.map((r) => r.interval);
    const buckets = rows.map((r) => String(r.bucket));
    const opens = rows.map((r) => priceToNumericText(r.open));
    const highs = rows.map((r) => priceToNumericText(r.high));
    const lows = rows.map((r) => priceToNumericText(r.low));
    const closes = rows.map((r) => priceToNumericText(r.close));
    const openTimes = rows.map((r) => String(r.openTime));
    const closeTimes = rows.map((r) => String(r.closeTime));
    await this.db.$executeRaw`
      INSERT INTO oracle_candles.candles AS c (symbol, interval_s, bucket, open, high, low, close, open_time, close_time)
      SELECT * FROM unnest(${symbols}::text[], ${intervals}::int[], ${buckets}::bigint[], ${opens}::numeric[], ${highs}::numeric[],
                           ${lows}::numeric[], ${closes}::numeric[], ${openTimes}::bigint[], ${closeTimes}::bigint[])
      ON CONFLICT (symbol, interval_s, bucket) DO UPDATE SET ${MERGE_RULE}`;
    const fresh = [...new Set(symbols)].filter((s) => !this.knownSymbols.has(s));
    if (fresh.length) {
      await this.db.$executeRaw`INSERT INTO oracle_candles.markets (symbol) SELECT unnest(${fresh}::text[]) ON CONFLICT DO NOTHING`;
      for (const s of fresh) this.knownSymbols.add(s);
    }
  }

  /** Merged with the same rule as every write, so longer-interval history and racing writes are never lost. */
  async rebuildRollups(symbol: string, from: number, to: number): Promise<void> {
    for (const interval of ROLLUP_INTERVALS) {
      const lo = Math.floor(from / interval) * interval;
      const hi = Math.ceil(to / interval) * interval;
      await this.db.$executeRaw`
        INSERT INTO oracle_candles.candles AS c (symbol, interval_s, bucket, open, high, low, close, open_time, close_time)
        SELECT symbol, ${interval}::int, (bucket / ${interval}::int) * ${interval}::int AS b,
               (array_agg(open ORDER BY open_time, open))[1], max(high), min(low),
               (array_agg(close ORDER BY close_time DESC, close DESC))[1], min(open_time), max(close_time)
        FROM oracle_candles.candles
        WHERE symbol = ${symbol} AND interval_s = 60 AND bucket >= ${lo} AND bucket < ${hi}
        GROUP BY symbol, b
        ON CONFLICT (symbol, interval_s, bucket) DO UPDATE SET ${MERGE_RULE}`;
    }
  }

  /** The items of a JSON array, oldest first, written by PostgreSQL: docs/architecture/oracle-candles.md#reading-candles. */
  async readJson(symbol: string, interval: number, from: number, to: number, formingSince: number): Promise<string> {
    // The pg pool, not the ORM: the hottest read. Unnamed: PGlite serves every connection from one session.
    const { rows } = await this.pool.query<[string]>({
      text: READ_JSON_SQL,
      values: [symbol, interval, from, to, formingSince],
      rowMode: 'array',
    });
    return rows[0][0];
  }

  async symbols(): Promise<string[]> {
    const rows = await this.db.market.findMany({ select: { symbol: true }, orderBy: { symbol: 'asc' } });
    return rows.map((r) => r.symbol);
  }
}
