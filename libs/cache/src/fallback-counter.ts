import type { Cache, Counted } from './cache';
import { MemoryCache } from './memory-cache';

/** How often the fallback is reported while the shared cache stays unreachable. */
const REPORT_EVERY_MS = 60_000;

/**
 * Counts and claims in the shared cache (one for all replicas), or in this replica's memory while it
 * cannot be reached: for limits that must hold without Redis (a limit that fails open is none).
 * In memory a read (`by` 0) adds no entry, so reads cannot push counts out; at `maxLocal`
 * entries the expired go first, then the oldest.
 */
export class FallbackCounter {
  private readonly local = new Map<string, { count: number; resetAt: number }>();
  private readonly localClaims: MemoryCache;
  private reportedAt = 0;

  constructor(
    private readonly shared: Cache,
    /** Told of the cache's failure, at most once a minute. */
    private readonly onFallback: (error: unknown) => void,
    private readonly maxLocal = 100_000,
  ) {
    this.localClaims = new MemoryCache({ namespace: 'fallback', maxEntries: maxLocal });
  }

  /** Adds `by` (0: reads) to the count of `key` in a window of `windowMs` from its first count. */
  async count(key: string, by: number, windowMs: number): Promise<Counted> {
    try {
      return await this.shared.increment(key, by, windowMs);
    } catch (error) {
      this.fellBack(error);
      return this.countLocally(key, by, windowMs);
    }
  }

  /** The cache's `claim`; in this replica's memory while the cache cannot be reached. */
  async claim(key: string, token: string, ttlMs: number): Promise<boolean> {
    try {
      return await this.shared.claim(key, token, ttlMs);
    } catch (error) {
      this.fellBack(error);
      return this.localClaims.claim(key, token, ttlMs);
    }
  }

  private fellBack(error: unknown): void {
    if (Date.now() - this.reportedAt < REPORT_EVERY_MS) return;
    this.reportedAt = Date.now();
    this.onFallback(error);
  }

  private countLocally(key: string, by: number, windowMs: number): Counted {
    const now = Date.now();
    let entry = this.local.get(key);
    if (entry && entry.resetAt <= now) {
      this.local.delete(key);
      entry = undefined;
    }
    if (!entry) {
      if (by === 0) return { count: 0, resetMs: windowMs };
      if (this.local.size >= this.maxLocal) for (const [k, e] of this.local) if (e.resetAt <= now) this.local.delete(k);
      if (this.local.size >= this.maxLocal) this.local.delete(this.local.keys().next().value as string);
      entry = { count: 0, resetAt: now + windowMs };
      this.local.set(key, entry);
    }
    entry.count += by;
    return { count: entry.count, resetMs: entry.resetAt - now };
  }
}
