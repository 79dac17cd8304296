import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

describe('candles: missing and malformed parameters', () => {
  let oracle: OracleHarness;
  const q = (params: string) => oracle.get(`/v1/be/oracle/candles?${params}`);
  const fields = (body: { details: { field: string; message: string }[] }) => body.details.map((d) => `${d.field}: ${d.message}`);

  beforeAll(async () => (oracle = await startOracle()));
  afterAll(() => oracle.stop());

  it.each([
    ['interval=1m&from=0&to=60', 'symbol: symbol is required'],
    ['symbol=ETH&from=0&to=60', 'interval: interval is required'],
    ['symbol=ETH&interval=1m&to=60', 'from: from is required'],
    ['symbol=ETH&interval=1m&from=0', 'to: to is required'],
  ])('names the missing parameter (%s)', async (params, expected) => {
    const res = await q(params);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(fields(res.body)).toEqual([expected]);
  });

  it('names every missing parameter at once', async () => {
    const res = await q('');
    expect(fields(res.body)).toEqual(['symbol: symbol is required', 'interval: interval is required', 'from: from is required', 'to: to is required']);
  });

  it.each(['2m', '1M', '60', '1w', ''])('refuses interval %j', async (interval) => {
    const res = await q(`symbol=ETH&interval=${interval}&from=0&to=60`);
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['interval: interval must be one of 1m, 5m, 1h, 1d']);
  });

  it.each(['abc', '1.5', '-60', '1e3', '0x10', ' 60', '1234567890123'])('refuses from=%j', async (from) => {
    const res = await q(`symbol=ETH&interval=1m&from=${encodeURIComponent(from)}&to=60`);
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['from: from must be a non-negative integer (UNIX seconds)']);
  });

  it('refuses a malformed to, a symbol with spaces, a repeated parameter and an unknown one', async () => {
    expect(fields((await q('symbol=ETH&interval=1m&from=0&to=soon')).body)).toEqual(['to: to must be a non-negative integer (UNIX seconds)']);
    expect(fields((await q('symbol=E%20TH&interval=1m&from=0&to=60')).body)).toEqual(['symbol: symbol must be a symbol without spaces']);
    expect((await q('symbol=ETH&symbol=BTC&interval=1m&from=0&to=60')).status).toBe(400);
    expect((await q('symbol=ETH&interval=1m&from=0&to=60&limit=5')).body.message).toBe('property limit should not exist');
  });
});
