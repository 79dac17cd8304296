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
    expect(fields(res.body)).toEqual([
      'symbol: symbol is required',
      'interval: interval is required',
      'from: from is required',
      'to: to is required',
    ]);
  });

  it.each(['2m', '1M', '60', '1w', ''])('refuses interval %j', async (interval) => {
    const res = await q(`symbol=ETH&interval=${interval}&from=0&to=60`);
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['interval: interval must be one of 1m, 5m, 1h, 1d']);
  });

  it.each(['abc', '1.5', '-60', '1e3', '0x10', ' 60', '1234567890123'])('refuses from=%j', async (from) => {
    const res = await q(`symbol=ETH&interval=1m&from=${encodeURIComponent(from)}&to=60`);
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['from: from must be UNIX seconds: a non-negative integer of at most 12 digits']);
  });

  it('refuses a malformed to, a symbol with spaces and a repeated parameter; ignores an unknown one (a cache-buster)', async () => {
    expect(fields((await q('symbol=ETH&interval=1m&from=0&to=soon')).body)).toEqual([
      'to: to must be UNIX seconds: a non-negative integer of at most 12 digits',
    ]);
    expect(fields((await q('symbol=E%20TH&interval=1m&from=0&to=60')).body)).toEqual(['symbol: symbol must be a symbol without spaces']);
    const repeated = await q('symbol=ETH&symbol=BTC&interval=1m&from=0&to=60');
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe('the query parameter symbol must be given once');
    const busted = await q('symbol=ETH&interval=1m&from=0&to=60&_=1763816400');
    expect(busted.status).toBe(200);
    expect(busted.body).toEqual((await q('symbol=ETH&interval=1m&from=0&to=60')).body);
  });
});
