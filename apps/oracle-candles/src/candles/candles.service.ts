import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode, type CandlesResponse, type MarketsResponse } from '@swap/contracts';
import { CACHE, type Cache } from '@swap/service-kit';
import { CandleStore } from '../aggregation/candle-store';
import { OracleCandlesConfig } from '../oracle-candles.config';
import { INTERVALS, MAX_CANDLES_PER_REQUEST, bucketsInRange, intervalSeconds } from '../prices/intervals';
import type { CandlesQuery } from './candles.query';

/** Cached as ready JSON text per normalised query: docs/architecture/oracle-candles.md#caching. */
@Injectable()
export class CandlesService {
  /** The clock that decides which candle is still forming (tests move it). */
  now: () => number = Date.now;

  constructor(
    private readonly store: CandleStore,
    @Inject(CACHE) private readonly cache: Cache,
    private readonly config: OracleCandlesConfig,
  ) {}

  get cacheSeconds(): number {
    return Math.round(this.config.CANDLE_CACHE_TTL_MS / 1000);
  }

  candlesJson(query: CandlesQuery): Promise<string> {
    const interval = intervalSeconds(query.interval);
    const from = Number(query.from);
    const to = Number(query.to);
    const count = bucketsInRange(from, to, interval);
    if (count > MAX_CANDLES_PER_REQUEST) {
      throw new AppError(
        400,
        ErrorCode.RangeTooLarge,
        `The range from ${from} to ${to} holds ${count} candles of ${query.interval}; at most ${MAX_CANDLES_PER_REQUEST} are returned per request`,
      );
    }
    const key = `candles:v1:${query.interval}:${from}:${to}:${query.symbol}`;
    return this.cache.getOrCompute(key, this.config.CANDLE_CACHE_TTL_MS, async () => {
      // A bucket just ended may still get ticks waiting for the next flush: "forming" for a flush and a second more.
      const formingUntil = (this.now() - this.config.FLUSH_INTERVAL_MS - 1_000) / 1000;
      const items = count === 0 ? '' : await this.store.readJson(query.symbol, interval, from, to, formingUntil);
      const head: Omit<CandlesResponse, 'candles'> = { symbol: query.symbol, quote: 'USD', interval: query.interval };
      return `${JSON.stringify(head).slice(0, -1)},"candles":[${items}]}`;
    });
  }

  marketsJson(): Promise<string> {
    return this.cache.getOrCompute('markets:v1', this.config.CANDLE_CACHE_TTL_MS, async () => {
      const body: MarketsResponse = {
        quote: 'USD',
        intervals: INTERVALS.map(({ key, label, seconds }) => ({ key, label, seconds })),
        symbols: await this.store.symbols(),
      };
      return JSON.stringify(body);
    });
  }
}
