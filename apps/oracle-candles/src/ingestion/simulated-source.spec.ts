import { formatPrice, parsePrice } from '../prices/decimal-price';
import { SimulatedPriceSource } from './simulated-source';

describe('SimulatedPriceSource', () => {
  const starts = { ETH: '3000', USDC: '1' };

  it('ticks every configured symbol, deterministically for a seed', () => {
    const a = new SimulatedPriceSource(starts, { seed: 42, tickMs: 1000 });
    const b = new SimulatedPriceSource(starts, { seed: 42, tickMs: 1000 });
    const walkA = [1, 2, 3].flatMap((t) => a.step(t * 1000)).map((t) => `${t.symbol}:${formatPrice(t.price)}`);
    const walkB = [1, 2, 3].flatMap((t) => b.step(t * 1000)).map((t) => `${t.symbol}:${formatPrice(t.price)}`);
    expect(walkA).toEqual(walkB);
    expect(walkA.filter((x) => x.startsWith('ETH'))).toHaveLength(3);
    const other = new SimulatedPriceSource(starts, { seed: 43, tickMs: 1000 });
    expect([1, 2, 3].flatMap((t) => other.step(t * 1000)).map((t) => formatPrice(t.price))).not.toEqual(walkA.map((x) => x.split(':')[1]));
  });

  it('emits ticks on its timer once started, and stops', async () => {
    jest.useFakeTimers();
    try {
      const source = new SimulatedPriceSource(starts, { seed: 1, tickMs: 10 });
      const batches: number[] = [];
      await source.start((ticks) => batches.push(ticks.length));
      jest.advanceTimersByTime(55);
      await source.stop();
      expect(batches).toEqual([2, 2, 2, 2, 2, 2]); // one at start, five in 55 ms; each for both symbols
      jest.advanceTimersByTime(100);
      expect(batches).toHaveLength(6);
    } finally {
      jest.useRealTimers();
    }
  });

  it('moves at most 0.1% (plus rounding) a step, keeps prices positive and to 8 decimals (offending steps listed)', () => {
    const source = new SimulatedPriceSource({ X: '100' }, { seed: 1, tickMs: 1000 });
    let previous = parsePrice('100');
    const offending: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      const [tick] = source.step(i);
      const change = tick.price > previous ? tick.price - previous : previous - tick.price;
      const text = formatPrice(tick.price);
      if (change > previous / 1000n + 10n ** 10n || tick.price <= 0n || !/^\d+(\.\d{1,8})?$/.test(text))
        offending.push(`step ${i}: ${formatPrice(previous)} -> ${text}`);
      previous = tick.price;
    }
    expect(offending).toEqual([]);
  });
});
