import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { createPrismaClient } from '@swap/persistence';
import { CandleAggregator } from '../aggregation/candle-aggregator';
import { CandleStore } from '../aggregation/candle-store';
import { PrismaClient } from '../generated/prisma/client';
import type { IntervalKey } from '../prices/intervals';
import { parseBackfill } from './backfill-parser';

export interface BackfillOptions {
  databaseUrl: string;
  file: string;
  interval?: IntervalKey;
  /** Recompute 5m/1h/1d from the stored 1m candles over the imported range afterwards. */
  rebuildRollups?: boolean;
}

export interface BackfillResult {
  ticks: number;
  candles: number;
  piecesWritten: number;
  symbols: string[];
}

const BATCH = 5_000;

/** The same merge as live ticks: re-running an import, or importing over live data, never double-counts. */
export async function runBackfill(options: BackfillOptions): Promise<BackfillResult> {
  const text = await readFile(options.file, 'utf8');
  const data = parseBackfill(text, extname(options.file).toLowerCase() === '.json' ? 'json' : 'csv', options.interval);
  const db = createPrismaClient(PrismaClient, { url: options.databaseUrl, schema: 'oracle_candles', poolMax: 2 });
  const store = new CandleStore(db.client, db.pool);
  const aggregator = new CandleAggregator();
  let piecesWritten = 0;
  const flush = async (force = false) => {
    if (aggregator.size >= BATCH || (force && aggregator.size > 0)) {
      const rows = aggregator.drain();
      await store.write(rows);
      piecesWritten += rows.length;
    }
  };
  try {
    for (const tick of data.ticks) {
      aggregator.add(tick);
      await flush();
    }
    for (const c of data.candles) {
      aggregator.addCandle(c.symbol, c.interval, c.bucket, c);
      await flush();
    }
    await flush(true);
    const symbols = [...new Set([...data.ticks.map((t) => t.symbol), ...data.candles.map((c) => c.symbol)])].sort();
    if (options.rebuildRollups) {
      const spans = new Map<string, { from: number; to: number }>();
      const widen = (symbol: string, seconds: number) => {
        const span = spans.get(symbol) ?? { from: seconds, to: seconds };
        spans.set(symbol, { from: Math.min(span.from, seconds), to: Math.max(span.to, seconds) });
      };
      for (const t of data.ticks) widen(t.symbol, Math.floor(t.timeMs / 1000));
      for (const c of data.candles) widen(c.symbol, c.bucket);
      for (const [symbol, span] of spans) await store.rebuildRollups(symbol, span.from, span.to + 86_400);
    }
    return { ticks: data.ticks.length, candles: data.candles.length, piecesWritten, symbols };
  } finally {
    await db.close();
  }
}
