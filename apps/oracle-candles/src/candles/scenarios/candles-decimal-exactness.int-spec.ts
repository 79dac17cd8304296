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
