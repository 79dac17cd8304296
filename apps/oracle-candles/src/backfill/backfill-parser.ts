import { parse } from 'csv-parse/sync';
import type { Tick } from '../aggregation/candle-aggregator';
import { parsePrice, type Price } from '../prices/decimal-price';
import { INTERVAL_KEYS, intervalSeconds, type IntervalKey } from '../prices/intervals';

export interface HistoricCandle {
  symbol: string;
  interval: number;
  bucket: number;
  open: Price;
  high: Price;
  low: Price;
  close: Price;
}

export interface BackfillData {
  ticks: Tick[];
  candles: HistoricCandle[];
}

export class BackfillError extends Error {}

type Row = Record<string, unknown>;

/** Formats: docs/architecture/oracle-candles.md#backfill; a candle's timestamp must be its bucket start. */
export function parseBackfill(text: string, format: 'csv' | 'json', defaultInterval: IntervalKey = '1m'): BackfillData {
  let rows: Row[];
  try {
    rows = format === 'json' ? (JSON.parse(text) as Row[]) : (parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Row[]);
  } catch (error) {
    throw new BackfillError(`cannot read the ${format.toUpperCase()} file: ${(error as Error).message}`);
  }
  if (!Array.isArray(rows)) throw new BackfillError('a JSON backfill file must hold an array of rows');
  const data: BackfillData = { ticks: [], candles: [] };
  const problems: string[] = [];
  rows.forEach((row, index) => {
    const where = format === 'csv' ? `line ${index + 2}` : `row ${index}`;
    try {
      readRow(row, defaultInterval, data);
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message}`);
    }
  });
  if (problems.length)
    throw new BackfillError(
      `${problems.length} bad row(s):\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? '\n  …' : ''}`,
    );
  return data;
}

function readRow(row: Row, defaultInterval: IntervalKey, data: BackfillData): void {
  const symbol = text(row, 'symbol');
  if (!/^\S{1,64}$/.test(symbol)) throw new Error(`symbol must be 1 to 64 characters without spaces`);
  const seconds = timestamp(text(row, 'timestamp'));
  if (row.price !== undefined) {
    data.ticks.push({ symbol, price: price(row, 'price'), timeMs: seconds * 1000 });
    return;
  }
  const intervalKey = (row.interval === undefined || row.interval === '' ? defaultInterval : text(row, 'interval')) as IntervalKey;
  if (!INTERVAL_KEYS.includes(intervalKey)) throw new Error(`interval must be one of ${INTERVAL_KEYS.join(', ')}`);
  const interval = intervalSeconds(intervalKey);
  if (seconds % interval !== 0) throw new Error(`timestamp ${seconds} is not the start of a ${intervalKey} bucket`);
  const candle = {
    symbol,
    interval,
    bucket: seconds,
    open: price(row, 'open'),
    high: price(row, 'high'),
    low: price(row, 'low'),
    close: price(row, 'close'),
  };
  const max = [candle.open, candle.close, candle.low].reduce((a, b) => (b > a ? b : a));
  const min = [candle.open, candle.close, candle.high].reduce((a, b) => (b < a ? b : a));
  if (candle.high < max) throw new Error('high is below open, close or low');
  if (candle.low > min) throw new Error('low is above open, close or high');
  data.candles.push(candle);
}

function text(row: Row, field: string): string {
  const value = row[field];
  if (value === undefined || value === null || value === '') throw new Error(`${field} is required`);
  return String(value);
}

function price(row: Row, field: string): Price {
  const value = parsePrice(text(row, field));
  if (value <= 0n) throw new Error(`${field} must be positive`);
  return value;
}

function timestamp(value: string): number {
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  // A zone is required: a time without one would be read in the importing machine's zone.
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    throw new Error(`timestamp must be UNIX seconds or ISO 8601 with a zone (Z or ±hh:mm), got ${JSON.stringify(value)}`);
  }
  if (ms % 1000 !== 0) throw new Error('timestamp must be a whole second');
  return ms / 1000;
}
