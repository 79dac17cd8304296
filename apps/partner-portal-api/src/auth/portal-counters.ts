import { Inject, Injectable } from '@nestjs/common';
import { FallbackCounter, type Counted } from '@swap/cache';
import type { Logger } from '@swap/observability';
import { CACHE, LOGGER, type Cache } from '@swap/service-kit';

/**
 * Failed sign-ins and invitations sent, counted in the shared cache (Redis: one count across
 * replicas), or in this replica's memory while it cannot be reached: a limit that fails open is none.
 */
@Injectable()
export class PortalCounters {
  private readonly counter: FallbackCounter;

  constructor(@Inject(CACHE) cache: Cache, @Inject(LOGGER) logger: Logger) {
    this.counter = new FallbackCounter(cache, (error) =>
      logger.warn({ err: error }, 'sign-in failures and invitations counted in this replica’s memory: the shared cache is unreachable'),
    );
  }

  /** Adds `by` (0: reads) to the count of `key` in a window of `windowMs`. */
  count(key: string, by: number, windowMs: number): Promise<Counted> {
    return this.counter.count(key, by, windowMs);
  }
}
