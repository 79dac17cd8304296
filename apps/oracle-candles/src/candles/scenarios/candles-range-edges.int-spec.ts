import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

const T = 1_700_000_040; // a minute boundary (1_700_000_040 % 60 === 0)

describe('candles: range edges, ordering, empty answers', () => {
  let oracle: OracleHarness;
  const q = (params: string) => oracle.get(`/v1/be/oracle/candles?${params}`);

  beforeAll(async () => {
    oracle = await startOracle();
    await oracle.ingest([
      ['ETH', '10', T + 1],
      ['ETH', '11', T + 61],
      ['ETH', '12', T + 121],
      ['BTC', '50000', T + 1],
    ]);
  });
  afterAll(() => oracle.stop());

  it('includes the candle starting at from and excludes the one starting at to, oldest first', async () => {
    const res = await q(`symbol=ETH&interval=1m&from=${T}&to=${T + 120}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      symbol: 'ETH',
      quote: 'USD',
      interval: '1m',
      candles: [
        { timestamp: T, open: '10', high: '10', low: '10', close: '10' },
        { timestamp: T + 60, open: '11', high: '11', low: '11', close: '11' },
      ],
    });
  });

  it('leaves out a candle whose start lies before an unaligned from', async () => {
    const res = await q(`symbol=ETH&interval=1m&from=${T + 1}&to=${T + 180}`);
    expect(res.body.candles.map((c: { timestamp: number }) => c.timestamp)).toEqual([T + 60, T + 120]);
  });

  it('answers an empty range with 200 and no candles', async () => {
    for (const params of [`from=${T}&to=${T}`, `from=${T + 10}&to=${T}`, `from=${T + 1}&to=${T + 59}`]) {
      const res = await q(`symbol=ETH&interval=1m&${params}`);
      expect({ params, status: res.status, candles: res.body.candles }).toEqual({ params, status: 200, candles: [] });
    }
  });

  it('answers an unknown symbol with 200 and no candles', async () => {
    const res = await q(`symbol=DOGE&interval=1m&from=${T}&to=${T + 600}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ symbol: 'DOGE', quote: 'USD', interval: '1m', candles: [] });
  });

  it('matches the symbol in exact case', async () => {
    expect((await q(`symbol=eth&interval=1m&from=${T}&to=${T + 600}`)).body.candles).toEqual([]);
    expect((await q(`symbol=ETH&interval=1m&from=${T}&to=${T + 600}`)).body.candles).toHaveLength(3);
  });

  it('omits buckets without ticks rather than carrying the last price forward', async () => {
    await oracle.ingest([['ETH', '13', T + 301]]);
    const res = await q(`symbol=ETH&interval=1m&from=${T}&to=${T + 360}`);
    expect(res.body.candles.map((c: { timestamp: number }) => c.timestamp)).toEqual([T, T + 60, T + 120, T + 300]);
  });

  it('keeps symbols apart', async () => {
    const res = await q(`symbol=BTC&interval=1h&from=${T - 3600}&to=${T + 3600}`);
    expect(res.body.candles).toEqual([
      { timestamp: Math.floor(T / 3600) * 3600, open: '50000', high: '50000', low: '50000', close: '50000' },
    ]);
  });
});
