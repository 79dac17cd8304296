/** One USD candle (spec: Oracle candles response → Candle item). */
export interface Candle {
  /** Bucket start, UNIX seconds; the candle covers [timestamp, timestamp + interval). */
  timestamp: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** `false` on the candle still forming; closed candles omit the field. */
  final?: false;
}

export interface CandlesResponse {
  symbol: string;
  quote: 'USD';
  interval: string;
  candles: Candle[];
}

export interface MarketsResponse {
  quote: 'USD';
  intervals: { key: string; label: string; seconds: number }[];
  symbols: string[];
}
