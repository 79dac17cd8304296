export const INTERVALS = [
  { key: '1m', label: '1 minute', seconds: 60 },
  { key: '5m', label: '5 minutes', seconds: 300 },
  { key: '1h', label: '1 hour', seconds: 3600 },
  { key: '1d', label: '1 day', seconds: 86400 },
] as const;

export type IntervalKey = (typeof INTERVALS)[number]['key'];
export const INTERVAL_KEYS = INTERVALS.map((i) => i.key) as IntervalKey[];
export const MAX_CANDLES_PER_REQUEST = 5000;

export function intervalSeconds(key: IntervalKey): number {
  return INTERVALS.find((i) => i.key === key)!.seconds;
}

/** Buckets are aligned to UNIX time, so to UTC. */
export function bucketStart(seconds: number, interval: number): number {
  return Math.floor(seconds / interval) * interval;
}

/** Buckets starting in [from, to), whatever rows exist. */
export function bucketsInRange(from: number, to: number, interval: number): number {
  if (to <= from) return 0;
  return Math.ceil(to / interval) - Math.ceil(from / interval);
}
