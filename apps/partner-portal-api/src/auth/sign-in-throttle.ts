import { Inject, Injectable } from '@nestjs/common';
import { MemoryCache, type Counted } from '@swap/cache';
import type { Logger } from '@swap/observability';
import { CACHE, LOGGER, type Cache } from '@swap/service-kit';

/** How often the fallback is reported while the shared cache stays unreachable. */
const REPORT_EVERY_MS = 60_000;

/**
 * Failed sign-ins counted in the shared cache (Redis: one count across replicas), or in this
 * replica's memory while it cannot be reached: a throttle that fails open is no throttle.
 */
@Injectable()
export class SignInThrottle {
  private readonly local = new MemoryCache({ namespace: 'portal-sign-in', maxEntries: 100_000 });
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
      return this.local.increment(key, by, windowMs);
    }
  }
}
