import { migrateService, startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { createTestDatabase, testServiceEnv, uniqueId } from '@swap/testing';
import type { Tick } from '../aggregation/candle-aggregator';
import { CandleStore } from '../aggregation/candle-store';
import { CandlesService } from '../candles/candles.service';
import { IngestionService } from '../ingestion/ingestion.service';
import { oracleCandles } from '../oracle-candles.definition';
import { parsePrice } from '../prices/decimal-price';

/** For the scenario specs: a fresh database, the real Redis (own prefix), fed directly, no price source. */
export interface OracleHarness {
  service: RunningService;
  databaseUrl: string;
  ingestion: IngestionService;
  store: CandleStore;
  candles: CandlesService;
  /** Aggregates ticks and writes them, as the flush timer would. */
  ingest(ticks: [symbol: string, price: string, timeSeconds: number][]): Promise<void>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body each spec reads as it expects
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  stop(): Promise<void>;
}

export async function startOracle(env: Record<string, string> = {}): Promise<OracleHarness> {
  const db = await createTestDatabase();
  await migrateService(db.url, oracleCandles);
  const service = await startServiceFromEnv(
    oracleCandles,
    testServiceEnv({
      DATABASE_URL: db.url,
      PRICE_SOURCE: 'none',
      CACHE_KEY_PREFIX: uniqueId('oracle'),
      FLUSH_INTERVAL_MS: '60000',
      ...env,
    }),
  );
  const ingestion = service.app.get(IngestionService);
  return {
    service,
    databaseUrl: db.url,
    ingestion,
    store: service.app.get(CandleStore),
    candles: service.app.get(CandlesService),
    async ingest(ticks) {
      ingestion.ingest(ticks.map(([symbol, price, t]): Tick => ({ symbol, price: parsePrice(price), timeMs: Math.round(t * 1000) })));
      await ingestion.flush();
    },
    async get(path, headers) {
      const res = await fetch(`${service.url}${path}`, { headers });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      await service.close();
      await db.drop();
    },
  };
}
