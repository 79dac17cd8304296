import type { Logger } from '@swap/observability';
import { priceOf } from './pricing';

interface Price {
  value: bigint;
  /** Start of the candle it closes, UNIX seconds. */
  at: number;
}

/** The newest 1m close of each symbol asked about, fetched on first use (concurrent first uses share the fetch), then every PRICE_REFRESH_MS. */
export class PriceBook {
  private readonly prices = new Map<string, Price>();
  private readonly watched = new Map<string, Promise<void>>();

  constructor(
    private readonly oracleUrl: string,
    private readonly maxAgeSeconds: number,
    private readonly logger: Logger,
  ) {}

  async price(symbol: string): Promise<bigint | undefined> {
    let first = this.watched.get(symbol);
    if (!first) this.watched.set(symbol, (first = this.fetch(symbol)));
    const known = this.fresh(symbol);
    if (known !== undefined) return known;
    await first;
    return this.fresh(symbol);
  }

  /** Fetched once before anyone asks, so a first request for quote need not wait; refreshed only once asked for. */
  async prefetch(symbols: string[]): Promise<void> {
    await Promise.all([...new Set(symbols)].filter((s) => !this.watched.has(s) && !this.prices.has(s)).map((s) => this.fetch(s)));
  }

  fresh(symbol: string): bigint | undefined {
    const price = this.prices.get(symbol);
    if (!price || Date.now() / 1000 - price.at > this.maxAgeSeconds + 60) return undefined;
    return price.value;
  }

  async refresh(): Promise<void> {
    await Promise.all([...this.watched.keys()].map((s) => this.fetch(s)));
  }

  private async fetch(symbol: string): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const url = `${this.oracleUrl}/candles?symbol=${encodeURIComponent(symbol)}&interval=1m&from=${now - this.maxAgeSeconds}&to=${now + 60}`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) throw new Error(`oracle answered ${res.status}`);
      const body = (await res.json()) as { candles?: { timestamp: number; close: string }[] };
      const last = body.candles?.at(-1);
      if (last) this.prices.set(symbol, { value: priceOf(last.close), at: last.timestamp });
    } catch (error) {
      this.logger.warn({ err: error, symbol }, 'price not refreshed');
    }
  }
}
