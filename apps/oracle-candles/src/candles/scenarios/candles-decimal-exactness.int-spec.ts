import pg from 'pg';
import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

describe('candles: exact decimal prices', () => {
  let oracle: OracleHarness;
  beforeAll(async () => (oracle = await startOracle()));
  afterAll(() => oracle.stop());

  it('stores and returns 18-decimal prices exactly, with no floating point on the way', async () => {
    await oracle.ingest([
      ['TINY', '0.000000000000000001', 0],
      ['TINY', '0.100000000000000003', 10],
      ['TINY', '99999999999999999999.999999999999999999', 20],
      ['TINY', '0.300000000000000004', 30],
    ]);
    const res = await oracle.get('/v1/be/oracle/candles?symbol=TINY&interval=1m&from=0&to=60');
    expect(res.body.candles).toEqual([
      {
        timestamp: 0,
        open: '0.000000000000000001',
        high: '99999999999999999999.999999999999999999',
        low: '0.000000000000000001',
        close: '0.300000000000000004',
      },
    ]);
  });

  it('compares prices that differ only in the 18th decimal', async () => {
    await oracle.ingest([
      ['NEAR', '1.000000000000000002', 0],
      ['NEAR', '1.000000000000000001', 1],
      ['NEAR', '1.000000000000000003', 2],
    ]);
    const [candle] = (await oracle.get('/v1/be/oracle/candles?symbol=NEAR&interval=1d&from=0&to=86400')).body.candles;
    expect(candle).toMatchObject({
      open: '1.000000000000000002',
      high: '1.000000000000000003',
      low: '1.000000000000000001',
      close: '1.000000000000000003',
    });
  });
});

describe('candles: the JSON PostgreSQL writes', () => {
  let oracle: OracleHarness;
  beforeAll(async () => (oracle = await startOracle()));
  afterAll(() => oracle.stop());

  it('is byte for byte what JSON.stringify writes for the same rows read plainly, forming candles marked', async () => {
    const now = Math.floor(Date.now() / 60_000) * 60;
    await oracle.ingest([
      ['BYTES', '1.5', now - 600],
      ['BYTES', '2.000000000000000010', now - 590],
      ['BYTES', '100', now - 300],
      ['BYTES', '0.000000000000000001', now - 299],
      ['BYTES', '3.25', now],
    ]);
    const from = now - 900;
    const to = now + 60;
    const text = await (await fetch(`${oracle.service.url}/v1/be/oracle/candles?symbol=BYTES&interval=1m&from=${from}&to=${to}`)).text();

    const pool = new pg.Pool({ connectionString: oracle.databaseUrl, max: 1 });
    try {
      const { rows } = await pool.query<{ bucket: string; open: string; high: string; low: string; close: string }>(
        `SELECT bucket, trim_scale(open) AS open, trim_scale(high) AS high, trim_scale(low) AS low, trim_scale(close) AS close
         FROM oracle_candles.candles WHERE symbol = 'BYTES' AND interval_s = 60 AND bucket >= $1 AND bucket < $2 ORDER BY bucket`,
        [from, to],
      );
      expect(rows).toHaveLength(3);
      const formingSince = (Date.now() - oracle.candles['config'].FLUSH_INTERVAL_MS - 1_000) / 1000;
      const candles = rows.map((r) => ({
        timestamp: Number(r.bucket),
        open: r.open,
        high: r.high,
        low: r.low,
        close: r.close,
        ...(Number(r.bucket) + 60 > formingSince ? { final: false } : {}),
      }));
      expect(text).toBe(JSON.stringify({ symbol: 'BYTES', quote: 'USD', interval: '1m', candles }));
      expect(JSON.parse(text).candles.at(-1)).toMatchObject({ timestamp: now, final: false });
    } finally {
      await pool.end();
    }
  });
});
