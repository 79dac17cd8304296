import { INTERVALS, bucketStart } from '../prices/intervals';
import type { Price } from '../prices/decimal-price';
import { candleOfTick, mergeCandles, type PartialCandle } from './partial-candle';

export interface Tick {
  symbol: string;
  price: Price;
  timeMs: number;
}

export interface PendingCandle extends PartialCandle {
  symbol: string;
  interval: number;
  bucket: number;
}

const INTERVAL_SECONDS = INTERVALS.map((i) => i.seconds);

/** Folds ticks into every interval at once; a failed write's pieces are merged back (`restore()`). */
export class CandleAggregator {
  private pending = new Map<string, PendingCandle>();

  get size(): number {
    return this.pending.size;
  }

  add(tick: Tick): void {
    const piece = candleOfTick(tick.price, tick.timeMs);
    const seconds = Math.floor(tick.timeMs / 1000);
    for (const interval of INTERVAL_SECONDS) this.merge(tick.symbol, interval, bucketStart(seconds, interval), piece);
  }

  /** Backfilled history: merged into its bucket and every longer interval's bucket containing it. */
  addCandle(symbol: string, interval: number, bucket: number, candle: Omit<PartialCandle, 'openTime' | 'closeTime'>): void {
    if (bucket % interval !== 0) throw new Error(`candle at ${bucket} is not aligned to ${interval} s`);
    const piece: PartialCandle = { ...candle, openTime: bucket * 1000, closeTime: (bucket + interval) * 1000 - 1 };
    for (const target of INTERVAL_SECONDS) {
      if (target >= interval) this.merge(symbol, target, bucketStart(bucket, target), piece);
    }
  }

  /** In key order: a stable lock order for writers. */
  drain(): PendingCandle[] {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    return rows.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : a.interval - b.interval || a.bucket - b.bucket));
  }

  restore(rows: PendingCandle[]): void {
    for (const row of rows) this.merge(row.symbol, row.interval, row.bucket, row);
  }

  private merge(symbol: string, interval: number, bucket: number, piece: PartialCandle): void {
    const key = `${symbol}\u0000${interval}\u0000${bucket}`;
    const existing = this.pending.get(key);
    const merged = existing ? mergeCandles(existing, piece) : piece;
    this.pending.set(key, { symbol, interval, bucket, ...pick(merged) });
  }
}

function pick(c: PartialCandle): PartialCandle {
  return { open: c.open, openTime: c.openTime, high: c.high, low: c.low, close: c.close, closeTime: c.closeTime };
}
