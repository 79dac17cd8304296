import { parsePrice } from '../../prices/decimal-price';
import { startOracle, type OracleHarness } from '../../testing/oracle-harness';

/**
 * A hand-computed fixture. Day 0, hour 0: minutes 0, 1 and 5; hour 1: minute 60; day 1:
 * one tick. Ticks arrive shuffled and over several flushes.
 *
 *   1m  @0     O100 H110 L100 C105     1m @60   O104 H104 L95 C99     1m @300  O98 H120 L98 C120
 *   1m  @3600  O121 H121 L90  C90      1m @86400 O200 H200 L200 C200
 *   5m  @0     O100 H110 L95  C99      5m @300  O98 H120 L98 C120     5m @3600 O121 H121 L90 C90
 *   1h  @0     O100 H120 L95  C120     1h @3600 O121 H121 L90 C90
 *   1d  @0     O100 H121 L90  C90      1d @86400 O200 H200 L200 C200
 */
const TICKS: [string, string, number][] = [
  ['X', '110', 30],
  ['X', '105', 59],
  ['X', '99', 119],
  ['X', '100', 0],
  ['X', '104', 61],
  ['X', '95', 90],
  ['X', '98', 300],
  ['X', '120', 330],
  ['X', '90', 3659],
  ['X', '121', 3600],
  ['X', '200', 86410],
];

const c = (timestamp: number, open: string, high: string, low: string, close: string) => ({ timestamp, open, high, low, close });

const EXPECTED = {
  '1m': [
    c(0, '100', '110', '100', '105'),
    c(60, '104', '104', '95', '99'),
    c(300, '98', '120', '98', '120'),
    c(3600, '121', '121', '90', '90'),
    c(86400, '200', '200', '200', '200'),
  ],
  '5m': [
    c(0, '100', '110', '95', '99'),
    c(300, '98', '120', '98', '120'),
    c(3600, '121', '121', '90', '90'),
    c(86400, '200', '200', '200', '200'),
  ],
  '1h': [c(0, '100', '120', '95', '120'), c(3600, '121', '121', '90', '90'), c(86400, '200', '200', '200', '200')],
  '1d': [c(0, '100', '121', '90', '90'), c(86400, '200', '200', '200', '200')],
};

describe('candles: roll-ups 1m → 5m → 1h → 1d', () => {
  let oracle: OracleHarness;
  const read = async (symbol: string, interval: string) =>
    (await oracle.get(`/v1/be/oracle/candles?symbol=${symbol}&interval=${interval}&from=0&to=${2 * 86400}`)).body.candles;

  beforeAll(async () => {
    oracle = await startOracle({ CANDLE_CACHE_TTL_MS: '0' });
    await oracle.ingest(TICKS.slice(0, 4));
    await oracle.ingest(TICKS.slice(4, 9));
    await oracle.ingest(TICKS.slice(9));
  });
  afterAll(() => oracle.stop());

  it.each(Object.entries(EXPECTED))('%s candles match the hand-computed fixture', async (interval, expected) => {
    expect(await read('X', interval)).toEqual(expected);
  });

  it('gives the same longer candles when history arrives as 1m candles (backfill) instead of ticks', async () => {
    for (const m of EXPECTED['1m']) {
      oracle.ingestion.aggregator.addCandle('Y', 60, m.timestamp, {
        open: parsePrice(m.open),
        high: parsePrice(m.high),
        low: parsePrice(m.low),
        close: parsePrice(m.close),
      });
    }
    await oracle.ingestion.flush();
    for (const interval of ['5m', '1h', '1d'] as const) expect(await read('Y', interval)).toEqual(EXPECTED[interval]);
  });

  it('rebuilding the roll-ups from the stored 1m candles changes nothing', async () => {
    await oracle.store.rebuildRollups('X', 0, 2 * 86400);
    for (const [interval, expected] of Object.entries(EXPECTED)) expect(await read('X', interval)).toEqual(expected);
  });
});
