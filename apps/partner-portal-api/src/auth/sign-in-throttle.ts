import { Inject, Injectable } from '@nestjs/common';
import type { Counted } from '@swap/cache';
import type { Logger } from '@swap/observability';
import { CACHE, LOGGER, type Cache } from '@swap/service-kit';

/** How often the fallback is reported while the shared cache stays unreachable. */
const REPORT_EVERY_MS = 60_000;
/** Counts kept in memory at most; only failures add one (a read never does), so a flood of guesses is throttled before it fills it. */
const MAX_LOCAL_COUNTS = 100_000;

/**
 * Failed sign-ins counted in the shared cache (Redis: one count across replicas), or in this
 * replica's memory while it cannot be reached: a throttle that fails open is no throttle.
 */
@Injectable()
export class SignInThrottle {
  private readonly local = new Map<string, { count: number; resetAt: number }>();
  private reportedAt = 0;

  constructor(
    @Inject(CACHE) private readonly cache: Cache,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Adds `by` (0: reads) to the count of `key` in a window of `windowMs`. */
  async count(key: string, by: number, windowMs: number): Promise<Counted> {
    try {
      return await this.cache.increment(key, by, windowMs);
    } catch (error) {
      if (Date.now() - this.reportedAt >= REPORT_EVERY_MS) {
        this.reportedAt = Date.now();
        this.logger.warn({ err: error }, 'sign-in failures counted in this replica’s memory: the shared cache is unreachable');
      }
      return this.countLocally(key, by, windowMs);
    }
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
      if (this.local.size >= MAX_LOCAL_COUNTS) for (const [k, e] of this.local) if (e.resetAt <= now) this.local.delete(k);
      if (this.local.size >= MAX_LOCAL_COUNTS) this.local.delete(this.local.keys().next().value as string);
      entry = { count: 0, resetAt: now + windowMs };
      this.local.set(key, entry);
    }
    entry.count += by;
    return { count: entry.count, resetMs: entry.resetAt - now };
  }
}
