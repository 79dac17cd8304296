import { formatPrice, parsePrice } from '../prices/decimal-price';
import { CandleAggregator, type PendingCandle, type Tick } from './candle-aggregator';
import { mergeCandles, candleOfTick } from './partial-candle';

const tick = (price: string, timeMs: number, symbol = 'ETH'): Tick => ({ symbol, price: parsePrice(price), timeMs });
const show = (c: PendingCandle) => ({
  bucket: c.bucket,
  interval: c.interval,
  o: formatPrice(c.open),
  h: formatPrice(c.high),
  l: formatPrice(c.low),
  c: formatPrice(c.close),
});

describe('CandleAggregator', () => {
  it('builds open (first), high, low, close (last) by tick time, in every interval', () => {
    const agg = new CandleAggregator();
    agg.add(tick('10', 60_000)); // 00:01:00
    agg.add(tick('12', 60_500));
    agg.add(tick('9', 61_000));
    agg.add(tick('11', 119_999));
    const rows = agg.drain().map(show);
    expect(rows).toEqual([
      { bucket: 60, interval: 60, o: '10', h: '12', l: '9', c: '11' },
      { bucket: 0, interval: 300, o: '10', h: '12', l: '9', c: '11' },
      { bucket: 0, interval: 3600, o: '10', h: '12', l: '9', c: '11' },
      { bucket: 0, interval: 86400, o: '10', h: '12', l: '9', c: '11' },
    ]);
    expect(agg.size).toBe(0);
  });

  it('puts a late tick in its place by time, not by arrival', () => {
    const agg = new CandleAggregator();
    agg.add(tick('11', 30_000));
    agg.add(tick('10', 1_000)); // arrives late but happened first: it is the open
    agg.add(tick('13', 59_000));
    agg.add(tick('12', 45_000)); // late, but not the last tick: close stays 13
    expect(show(agg.drain()[0])).toEqual({ bucket: 0, interval: 60, o: '10', h: '13', l: '10', c: '13' });
  });

  it('ignores repeated ticks', () => {
    const once = new CandleAggregator();
    const twice = new CandleAggregator();
    const ticks = [tick('10', 1_000), tick('12', 2_000), tick('8', 3_000)];
    for (const t of ticks) once.add(t);
    for (const t of [...ticks, ...ticks.reverse()]) twice.add(t);
    expect(twice.drain()).toEqual(once.drain());
  });

  it('restores pieces whose write failed, merged with newer ticks', () => {
    const agg = new CandleAggregator();
    agg.add(tick('10', 1_000));
    const failed = agg.drain();
    agg.add(tick('20', 2_000));
    agg.restore(failed);
    expect(show(agg.drain()[0])).toEqual({ bucket: 0, interval: 60, o: '10', h: '20', l: '10', c: '20' });
  });

  it('rolls a backfilled 1m candle into the 5m, 1h and 1d buckets that hold it', () => {
    const agg = new CandleAggregator();
    agg.addCandle('BTC', 60, 3_600 + 240, { open: parsePrice('5'), high: parsePrice('7'), low: parsePrice('4'), close: parsePrice('6') });
    expect(agg.drain().map((c) => [c.interval, c.bucket])).toEqual([
      [60, 3_840],
      [300, 3_600],
      [3_600, 3_600],
      [86_400, 0],
    ]);
    expect(() => agg.addCandle('BTC', 60, 61, { open: 1n, high: 1n, low: 1n, close: 1n })).toThrow(/not aligned/);
  });
});

describe('mergeCandles', () => {
  it('is commutative and breaks equal-time ties by price, so arrival order never matters', () => {
    const a = candleOfTick(parsePrice('10'), 1_000);
    const b = candleOfTick(parsePrice('11'), 1_000);
    expect(mergeCandles(a, b)).toEqual(mergeCandles(b, a));
    expect(formatPrice(mergeCandles(a, b).open)).toBe('10');
    expect(formatPrice(mergeCandles(a, b).close)).toBe('11');
  });
});
