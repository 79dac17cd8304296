import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

describe('candles: late and repeated ticks', () => {
  let oracle: OracleHarness;
  const minute = async (symbol: string) =>
    (await oracle.get(`/v1/be/oracle/candles?symbol=${symbol}&interval=1m&from=0&to=60`)).body.candles[0];

  beforeAll(async () => (oracle = await startOracle({ CANDLE_CACHE_TTL_MS: '0' })));
  afterAll(() => oracle.stop());

  it('merges a tick that arrives after its candle was written, by its own time', async () => {
    await oracle.ingest([
      ['LATE', '20', 20],
      ['LATE', '30', 40],
    ]);
    expect(await minute('LATE')).toEqual({ timestamp: 0, open: '20', high: '30', low: '20', close: '30' });
    await oracle.ingest([['LATE', '5', 1]]); // happened first, arrived last: the new open and low
    expect(await minute('LATE')).toEqual({ timestamp: 0, open: '5', high: '30', low: '5', close: '30' });
    await oracle.ingest([['LATE', '25', 30]]); // in the middle: changes nothing but is not lost
    expect(await minute('LATE')).toEqual({ timestamp: 0, open: '5', high: '30', low: '5', close: '30' });
    await oracle.ingest([['LATE', '31', 59]]); // the real last tick, late
    expect(await minute('LATE')).toEqual({ timestamp: 0, open: '5', high: '31', low: '5', close: '31' });
  });

  it('ignores a tick repeated within one flush and across flushes', async () => {
    const ticks: [string, string, number][] = [
      ['DUP', '10', 1],
      ['DUP', '12', 2],
      ['DUP', '11', 3],
    ];
    await oracle.ingest([...ticks, ...ticks]);
    await oracle.ingest(ticks);
    await oracle.ingest([ticks[0]]);
    expect(await minute('DUP')).toEqual({ timestamp: 0, open: '10', high: '12', low: '10', close: '11' });
  });
});
