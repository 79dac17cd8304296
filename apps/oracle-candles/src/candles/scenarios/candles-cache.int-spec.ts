import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

describe('candles: response cache', () => {
  let oracle: OracleHarness;
  beforeAll(async () => (oracle = await startOracle({ CANDLE_CACHE_TTL_MS: '10000' })));
  afterAll(() => oracle.stop());

  it('says in Cache-Control that responses are cached about 10 seconds', async () => {
    const res = await oracle.get('/v1/be/oracle/candles?symbol=ETH&interval=1m&from=0&to=60');
    expect(res.headers.get('cache-control')).toBe('public, max-age=10');
    expect((await oracle.get('/v1/be/oracle/markets')).headers.get('cache-control')).toBe('public, max-age=10');
  });

  it('serves a repeated query from the cache until it expires', async () => {
    await oracle.ingest([['CACHED', '1', 10]]);
    const url = '/v1/be/oracle/candles?symbol=CACHED&interval=1m&from=0&to=120';
    expect((await oracle.get(url)).body.candles).toHaveLength(1);
    await oracle.ingest([['CACHED', '2', 70]]);
    expect((await oracle.get(url)).body.candles).toHaveLength(1); // still the cached answer
    expect((await oracle.get(`${url.replace('to=120', 'to=121')}`)).body.candles).toHaveLength(2); // another query
  });

  it('computes concurrent identical misses once', async () => {
    const read = jest.spyOn(oracle.store, 'readJson');
    const url = '/v1/be/oracle/candles?symbol=STAMPEDE&interval=5m&from=0&to=3000';
    const answers = await Promise.all(Array.from({ length: 20 }, () => oracle.get(url)));
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
    expect(read).toHaveBeenCalledTimes(1);
    read.mockRestore();
  });
});
