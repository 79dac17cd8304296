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

/**
 * Folds ticks into candles in memory, for every interval at once (a tick is merged into
 * its 1m, 5m, 1h and 1d buckets; merging is associative, so this equals rolling the 1m
 * candles up). `drain()` hands the accumulated pieces to the store, which merges them
 * into the stored rows with the same rule; nothing is lost if a write fails, because
 * the pieces are merged back with `restore()`.
 */
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

  /**
   * A whole candle of `interval` starting at `bucket` (backfilled history): merged into its
   * own bucket and into every longer interval's bucket that contains it.
   */
  addCandle(symbol: string, interval: number, bucket: number, candle: Omit<PartialCandle, 'openTime' | 'closeTime'>): void {
    if (bucket % interval !== 0) throw new Error(`candle at ${bucket} is not aligned to ${interval} s`);
    const piece: PartialCandle = { ...candle, openTime: bucket * 1000, closeTime: (bucket + interval) * 1000 - 1 };
    for (const target of INTERVAL_SECONDS) {
      if (target >= interval) this.merge(symbol, target, bucketStart(bucket, target), piece);
    }
  }

  /** Everything accumulated since the last drain, in key order (a stable lock order for writers). */
  drain(): PendingCandle[] {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    return rows.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : a.interval - b.interval || a.bucket - b.bucket));
  }

  /** Puts back pieces whose write failed, merged with whatever arrived meanwhile. */
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
