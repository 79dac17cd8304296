import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

describe('candles: the candle still forming', () => {
  let oracle: OracleHarness;
  beforeAll(async () => (oracle = await startOracle({ CANDLE_CACHE_TTL_MS: '0', FLUSH_INTERVAL_MS: '1000' })));
  afterAll(() => oracle.stop());

  it('carries final: false while its bucket is open (and one flush interval after); closed candles omit the field', async () => {
    const start = 1_800_000_000 - (1_800_000_000 % 3600); // an hour boundary
    await oracle.ingest([
      ['SOL', '140', start + 10],
      ['SOL', '141', start + 70],
    ]);
    oracle.candles.now = () => (start + 90) * 1000; // inside the second minute
    const minutes = await oracle.get(`/v1/be/oracle/candles?symbol=SOL&interval=1m&from=${start}&to=${start + 3600}`);
    expect(minutes.body.candles).toEqual([
      { timestamp: start, open: '140', high: '140', low: '140', close: '140' },
      { timestamp: start + 60, open: '141', high: '141', low: '141', close: '141', final: false },
    ]);
    const hours = await oracle.get(`/v1/be/oracle/candles?symbol=SOL&interval=1h&from=${start}&to=${start + 3600}`);
    expect(hours.body.candles[0]).toMatchObject({ timestamp: start, open: '140', close: '141', final: false });

    const justEnded = start + 3600;
    oracle.candles.now = () => justEnded * 1000 + 500; // ended half a second ago: late ticks may still be waiting for a flush
    expect((await oracle.get(`/v1/be/oracle/candles?symbol=SOL&interval=1h&from=${start}&to=${start + 3600}`)).body.candles[0].final).toBe(
      false,
    );
    oracle.candles.now = () => (justEnded + 1 + 1) * 1000 + 1; // FLUSH_INTERVAL_MS (1 s here) and a second later
    const later = await oracle.get(`/v1/be/oracle/candles?symbol=SOL&interval=1h&from=${start}&to=${start + 3600}`);
    expect(later.body.candles[0]).not.toHaveProperty('final');
  });
});
