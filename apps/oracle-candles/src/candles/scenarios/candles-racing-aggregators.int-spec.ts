import { createPrismaClient } from '@swap/persistence';
import { CandleAggregator, type Tick } from '../../aggregation/candle-aggregator';
import { CandleStore } from '../../aggregation/candle-store';
import { PrismaClient } from '../../generated/prisma/client';
import { parsePrice } from '../../prices/decimal-price';
import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

/** A seeded list of ticks over two hours for three symbols. */
function ticks(seed: number, count: number): Tick[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => ({
    symbol: ['A', 'B', 'C'][Math.floor(next() * 3)],
    price: parsePrice(`${100 + Math.floor(next() * 1000)}.${Math.floor(next() * 1e6)}`),
    timeMs: Math.floor(next() * 7_200_000),
  }));
}

describe('candles: two aggregators racing on the same data', () => {
  let oracle: OracleHarness;
  beforeAll(async () => (oracle = await startOracle({ CANDLE_CACHE_TTL_MS: '0' })));
  afterAll(() => oracle.stop());

  it('converge on the candles one aggregator alone would write: nothing double-counted or lost', async () => {
    const all = ticks(7, 4_000);
    // The reference: one aggregator, all ticks, one write, into its own symbols.
    const reference = new CandleAggregator();
    for (const t of all) reference.add({ ...t, symbol: `ref-${t.symbol}` });
    await oracle.store.write(reference.drain());

    // Two replicas (own connections) both receive every tick, in different orders and
    // batches, and write concurrently.
    const replicas = [1, 2].map(() => createPrismaClient(PrismaClient, { url: oracle.databaseUrl, schema: 'oracle_candles', poolMax: 2 }));
    const stores = replicas.map((r) => new CandleStore(r.client, r.pool));
    const orders = [all, [...all].reverse()];
    await Promise.all(
      stores.map(async (store, i) => {
        const aggregator = new CandleAggregator();
        for (let start = 0; start < all.length; start += 250) {
          for (const t of orders[i].slice(start, start + 250)) aggregator.add(t);
          await store.write(aggregator.drain());
        }
      }),
    );
    for (const r of replicas) await r.close();

    for (const symbol of ['A', 'B', 'C']) {
      for (const interval of ['1m', '5m', '1h', '1d']) {
        const raced = (await oracle.get(`/v1/be/oracle/candles?symbol=${symbol}&interval=${interval}&from=0&to=86400`)).body.candles;
        const alone = (await oracle.get(`/v1/be/oracle/candles?symbol=ref-${symbol}&interval=${interval}&from=0&to=86400`)).body.candles;
        expect(raced.length).toBeGreaterThan(0);
        expect({ symbol, interval, raced }).toEqual({ symbol, interval, raced: alone });
      }
    }
  });
});
