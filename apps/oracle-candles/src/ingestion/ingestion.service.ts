import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ServiceMetrics, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { Counter, Gauge } from 'prom-client';
import { CandleAggregator, type Tick } from '../aggregation/candle-aggregator';
import { CandleStore } from '../aggregation/candle-store';
import { MAX_PRICE } from '../prices/decimal-price';
import { OracleCandlesConfig } from '../oracle-candles.config';
import { HermesPriceSource } from './hermes-source';
import { loadMarketsConfig } from './markets-config';
import type { PriceSource } from './price-source';
import { SimulatedPriceSource } from './simulated-source';

/** Price source → in-memory aggregation → a batched write to PostgreSQL every FLUSH_INTERVAL_MS. */
@Injectable()
export class IngestionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly aggregator = new CandleAggregator();
  private source?: PriceSource;
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly ticks: Counter<'source'>;
  private readonly flushedRows: Counter;
  private readonly flushFailures: Counter;

  constructor(
    private readonly config: OracleCandlesConfig,
    private readonly store: CandleStore,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: ServiceMetrics,
  ) {
    const registers = [metrics.registry];
    this.ticks = new Counter({
      name: 'oracle_ticks_ingested_total',
      help: 'Price ticks aggregated, by source',
      labelNames: ['source'],
      registers,
    });
    this.flushedRows = new Counter({ name: 'oracle_candle_rows_written_total', help: 'Candle pieces merged into PostgreSQL', registers });
    this.flushFailures = new Counter({
      name: 'oracle_candle_write_failures_total',
      help: 'Failed candle writes (pieces are kept and retried)',
      registers,
    });
    const simulated = new Gauge({ name: 'oracle_price_source_simulated', help: '1 when prices come from the simulated feed', registers });
    simulated.set(config.PRICE_SOURCE === 'simulated' ? 1 : 0);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.source = this.createSource();
    if (this.source) {
      if (this.source.simulated) {
        this.logger.warn(
          { source: this.source.name, seed: this.config.SIMULATION_SEED },
          'PRICES ARE SIMULATED: a seeded random walk, not market data (PRICE_SOURCE=simulated)',
        );
      }
      await this.source.start((ticks) => this.ingest(ticks, this.source!.name));
    }
    this.timer = setInterval(() => void this.flush(), this.config.FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.source?.stop();
    await this.flush();
  }

  ingest(ticks: Tick[], source = 'direct'): void {
    let taken = 0;
    for (const tick of ticks) {
      // A tick the table could not hold would fail every later write with it: refuse it here.
      if (tick.price <= 0n || tick.price >= MAX_PRICE || !Number.isSafeInteger(tick.timeMs) || tick.timeMs < 0) continue;
      this.aggregator.add(tick);
      taken++;
    }
    this.ticks.inc({ source }, taken);
  }

  /** Writes what has accumulated; one write at a time, and a failed write keeps its pieces. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const rows = this.aggregator.drain();
      if (rows.length === 0) return;
      try {
        await this.store.write(rows);
        this.flushedRows.inc(rows.length);
      } catch (error) {
        this.aggregator.restore(rows);
        this.flushFailures.inc();
        this.logger.warn({ err: error, pieces: rows.length }, 'candle write failed; pieces kept for the next flush');
      }
    });
    return this.flushing;
  }

  private createSource(): PriceSource | undefined {
    const markets = loadMarketsConfig(this.config.MARKETS_FILE);
    switch (this.config.PRICE_SOURCE) {
      case 'simulated': {
        const starts = Object.fromEntries(Object.entries(markets.symbols).map(([s, m]) => [s, m.simulatedStart]));
        return new SimulatedPriceSource(starts, { seed: this.config.SIMULATION_SEED, tickMs: this.config.SIMULATION_TICK_MS });
      }
      case 'hermes': {
        const feeds = Object.fromEntries(Object.entries(markets.symbols).flatMap(([s, m]) => (m.pythFeedId ? [[s, m.pythFeedId]] : [])));
        return new HermesPriceSource({ baseUrl: this.config.HERMES_URL, feeds, logger: this.logger });
      }
      case 'none':
        return undefined;
    }
  }
}
