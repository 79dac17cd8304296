import type { Price } from '../prices/decimal-price';

/** `openTime`/`closeTime` (ms) make the merge order-independent: docs/architecture/oracle-candles.md#aggregation. */
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
