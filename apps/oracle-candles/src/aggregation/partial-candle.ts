import type { Price } from '../prices/decimal-price';

/**
 * What is known of one candle so far. `openTime`/`closeTime` (ms) are the times of the
 * ticks that set open and close, so pieces can be merged in any order and any number of
 * times with the same result: open is the earliest tick, close the latest (ties broken
 * by price, so the order of arrival never matters), high the maximum, low the minimum.
 * That makes merging commutative, associative and idempotent: late ticks, repeated
 * ticks, and two replicas writing the same ticks all land on the same candle.
 */
export interface PartialCandle {
  open: Price;
  openTime: number;
  high: Price;
  low: Price;
  close: Price;
  closeTime: number;
}

export function candleOfTick(price: Price, timeMs: number): PartialCandle {
  return { open: price, openTime: timeMs, high: price, low: price, close: price, closeTime: timeMs };
}

export function mergeCandles(a: PartialCandle, b: PartialCandle): PartialCandle {
  const bOpensFirst = b.openTime < a.openTime || (b.openTime === a.openTime && b.open < a.open);
  const bClosesLast = b.closeTime > a.closeTime || (b.closeTime === a.closeTime && b.close > a.close);
  return {
    open: bOpensFirst ? b.open : a.open,
    openTime: bOpensFirst ? b.openTime : a.openTime,
    high: b.high > a.high ? b.high : a.high,
    low: b.low < a.low ? b.low : a.low,
    close: bClosesLast ? b.close : a.close,
    closeTime: bClosesLast ? b.closeTime : a.closeTime,
  };
}
