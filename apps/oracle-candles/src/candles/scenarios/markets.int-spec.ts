import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

describe('markets', () => {
  let oracle: OracleHarness;
  beforeAll(async () => (oracle = await startOracle({ CANDLE_CACHE_TTL_MS: '0' })));
  afterAll(() => oracle.stop());

  it('lists USD, the four intervals, and exactly the symbols with candle data, growing as data arrives', async () => {
    expect((await oracle.get('/v1/be/oracle/markets')).body).toEqual({
      quote: 'USD',
      intervals: [
        { key: '1m', label: '1 minute', seconds: 60 },
        { key: '5m', label: '5 minutes', seconds: 300 },
        { key: '1h', label: '1 hour', seconds: 3600 },
        { key: '1d', label: '1 day', seconds: 86400 },
      ],
      symbols: [],
    });
    await oracle.ingest([['ETH', '3000', 0]]);
    expect((await oracle.get('/v1/be/oracle/markets')).body.symbols).toEqual(['ETH']);
    await oracle.ingest([['BTC', '90000', 0]]);
    expect((await oracle.get('/v1/be/oracle/markets')).body.symbols).toEqual(['BTC', 'ETH']);
  });

  it('is public: a missing, wrong or odd key changes nothing', async () => {
    const variants: Record<string, string>[] = [{}, { 'x-api-key': 'svc_not-a-real-key' }, { 'x-api-key': '' }];
    for (const headers of variants) {
      expect((await oracle.get('/v1/be/oracle/markets', headers)).status).toBe(200);
      expect((await oracle.get('/v1/be/oracle/candles?symbol=ETH&interval=1m&from=0&to=60', headers)).status).toBe(200);
    }
  });
});
