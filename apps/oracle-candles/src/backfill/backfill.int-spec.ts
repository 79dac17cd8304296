import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOracle, type OracleHarness } from '../testing/oracle-harness';
import { BackfillError } from './backfill-parser';
import { runBackfill } from './backfill';

describe('backfill importer', () => {
  let oracle: OracleHarness;
  let dir: string;
  const read = async (symbol: string, interval: string, to = 86400) =>
    (await oracle.get(`/v1/be/oracle/candles?symbol=${symbol}&interval=${interval}&from=0&to=${to}`)).body.candles;

  beforeAll(async () => {
    oracle = await startOracle({ CANDLE_CACHE_TTL_MS: '0' });
    dir = await mkdtemp(join(tmpdir(), 'backfill-'));
  });
  afterAll(() => oracle.stop());

  it('loads 1m OHLC candles from CSV and rolls them up; a second run changes nothing', async () => {
    const file = join(dir, 'ohlc.csv');
    await writeFile(
      file,
      'symbol,timestamp,open,high,low,close\nHIST,0,10,12,9,11\nHIST,60,11,15,10.5,14\nHIST,1970-01-01T00:05:00Z,14,14,13,13.25\n',
    );
    const result = await runBackfill({ databaseUrl: oracle.databaseUrl, file });
    expect(result).toMatchObject({ ticks: 0, candles: 3, symbols: ['HIST'] });
    await runBackfill({ databaseUrl: oracle.databaseUrl, file, rebuildRollups: true });
    expect(await read('HIST', '1m')).toHaveLength(3);
    expect(await read('HIST', '5m')).toEqual([
      { timestamp: 0, open: '10', high: '15', low: '9', close: '14' },
      { timestamp: 300, open: '14', high: '14', low: '13', close: '13.25' },
    ]);
    expect(await read('HIST', '1d')).toEqual([{ timestamp: 0, open: '10', high: '15', low: '9', close: '13.25' }]);
  });

  it('loads ticks from JSON', async () => {
    const file = join(dir, 'ticks.json');
    await writeFile(
      file,
      JSON.stringify([
        { symbol: 'JT', timestamp: 5, price: '1.5' },
        { symbol: 'JT', timestamp: 65, price: '2' },
      ]),
    );
    await runBackfill({ databaseUrl: oracle.databaseUrl, file });
    expect(await read('JT', '5m')).toEqual([{ timestamp: 0, open: '1.5', high: '2', low: '1.5', close: '2' }]);
  });

  it('refuses a file with bad rows, naming each, and writes nothing', async () => {
    const file = join(dir, 'bad.csv');
    await writeFile(file, 'symbol,timestamp,open,high,low,close\nBAD,30,1,2,1,1\nBAD,60,1,0.5,1,1\nBAD,120,abc,2,1,1\n');
    const error = await runBackfill({ databaseUrl: oracle.databaseUrl, file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackfillError);
    expect((error as Error).message).toContain('line 2: timestamp 30 is not the start of a 1m bucket');
    expect((error as Error).message).toContain('line 3: high is below open, close or low');
    expect((error as Error).message).toContain('line 4: not a decimal price');
    expect(await read('BAD', '1m')).toEqual([]);
  });
});
