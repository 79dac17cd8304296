import type { Tick } from '../aggregation/candle-aggregator';
import { parsePrice, type Price } from '../prices/decimal-price';
import type { PriceSource } from './price-source';

const TICK_UNIT = 10n ** 10n; // 1e-8 USD in 1e-18 units

/** mulberry32: the same seed gives the same walk. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** SIMULATED prices (a seeded walk, ±0.1% a step) for sandboxes: never where real prices matter. */
export class SimulatedPriceSource implements PriceSource {
  readonly name = 'simulated';
  readonly simulated = true;
  private readonly prices = new Map<string, Price>();
  private readonly random: () => number;
  private timer?: NodeJS.Timeout;

  constructor(
    starts: Record<string, string>,
    private readonly options: { seed: number; tickMs: number; now?: () => number },
  ) {
    for (const [symbol, start] of Object.entries(starts)) this.prices.set(symbol, parsePrice(start));
    this.random = prng(options.seed);
  }

  step(timeMs: number): Tick[] {
    const ticks: Tick[] = [];
    for (const [symbol, price] of this.prices) {
      const basisPointTenths = BigInt(Math.floor(this.random() * 21) - 10); // -10..10 → ±0.1%
      // Kept to 8 decimals, like the prices of real feeds.
      const next = ((price + (price * basisPointTenths) / 10_000n) / TICK_UNIT) * TICK_UNIT;
      const bounded = next > 0n ? next : TICK_UNIT;
      this.prices.set(symbol, bounded);
      ticks.push({ symbol, price: bounded, timeMs });
    }
    return ticks;
  }

  async start(onTicks: (ticks: Tick[]) => void): Promise<void> {
    const now = this.options.now ?? Date.now;
    onTicks(this.step(now()));
    this.timer = setInterval(() => onTicks(this.step(now())), this.options.tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
  }
}
