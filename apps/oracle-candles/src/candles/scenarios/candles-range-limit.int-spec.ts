import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

describe('candles: at most 5000 candles per request', () => {
  let oracle: OracleHarness;
  beforeAll(async () => (oracle = await startOracle()));
  afterAll(() => oracle.stop());

  it('serves a range of exactly 5000 buckets', async () => {
    await oracle.ingest([['ETH', '3000', 60 * 4999 + 5]]);
    const res = await oracle.get(`/v1/be/oracle/candles?symbol=ETH&interval=1m&from=0&to=${5000 * 60}`);
    expect(res.status).toBe(200);
    expect(res.body.candles.map((c: { timestamp: number }) => c.timestamp)).toEqual([4999 * 60]);
  });

  it('refuses 5001 buckets with 400, counting buckets in the range rather than rows found', async () => {
    const res = await oracle.get(`/v1/be/oracle/candles?symbol=NOTHING&interval=1m&from=0&to=${5000 * 60 + 1}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      code: 'RANGE_TOO_LARGE',
      message: 'The range from 0 to 300001 holds 5001 candles of 1m; at most 5000 are returned per request',
    });
  });

  it('applies the limit per interval: 5000 days is fine, 5001 days is not', async () => {
    expect((await oracle.get(`/v1/be/oracle/candles?symbol=ETH&interval=1d&from=0&to=${5000 * 86400}`)).status).toBe(200);
    expect((await oracle.get(`/v1/be/oracle/candles?symbol=ETH&interval=1d&from=0&to=${5000 * 86400 + 1}`)).status).toBe(400);
  });

  it('counts buckets that start inside the range when from is not aligned', async () => {
    // from=1 excludes the bucket at 0, so [1, 5001*60) holds buckets 60 … 5000*60: 5000 of them.
    expect((await oracle.get(`/v1/be/oracle/candles?symbol=ETH&interval=1m&from=1&to=${5001 * 60}`)).status).toBe(200);
    expect((await oracle.get(`/v1/be/oracle/candles?symbol=ETH&interval=1m&from=0&to=${5001 * 60}`)).status).toBe(400);
  });
});
