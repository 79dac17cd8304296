/** Seeds candle history from a file; usage: docs/architecture/oracle-candles.md#backfill. */
import { parseArgs } from 'node:util';
import { INTERVAL_KEYS, type IntervalKey } from '../prices/intervals';
import { runBackfill } from './backfill';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      interval: { type: 'string', default: '1m' },
      'rebuild-rollups': { type: 'boolean', default: false },
    },
  });
  if (!values.file) throw new Error('--file is required (a .csv or .json file)');
  if (!INTERVAL_KEYS.includes(values.interval as IntervalKey)) throw new Error(`--interval must be one of ${INTERVAL_KEYS.join(', ')}`);
  const result = await runBackfill({
    databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/swap_platform',
    file: values.file,
    interval: values.interval as IntervalKey,
    rebuildRollups: values['rebuild-rollups'],
  });
  process.stdout.write(
    `imported ${result.ticks} ticks and ${result.candles} candles for ${result.symbols.join(', ') || 'no symbol'}; ${result.piecesWritten} candle pieces merged\n`,
  );
}

main().catch((error: Error) => {
  process.stderr.write(`backfill failed: ${error.message}\n`);
  process.exit(1);
});
