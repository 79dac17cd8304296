import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from '@swap/observability';
import { DATABASE_POOL, LOGGER } from '@swap/service-kit';
import type pg from 'pg';
import { QuoteBuilderConfig } from '../quote-builder.config';

const EVERY_MS = 10 * 60_000;
/** The first run, a minute after start (a replica restarted more often than EVERY_MS still purges). */
const FIRST_AFTER_MS = 60_000;
const BATCH = 5_000;

/**
 * Stored quotes are kept QUOTE_RETENTION_AFTER_EXPIRY_MS past their expiry (a day), then
 * deleted in batches, by every replica in turn (rows one takes are skipped by the others).
 */
@Injectable()
export class QuotePurge implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private first?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly config: QuoteBuilderConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const run = () => void this.purge().catch((error: Error) => this.logger.warn({ err: error }, 'quote purge failed'));
    this.first = setTimeout(run, FIRST_AFTER_MS);
    this.timer = setInterval(run, EVERY_MS);
    this.first.unref();
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.first);
    clearInterval(this.timer);
  }

  /** Deletes every quote past its retention (by created_at, which is indexed: expiry is creation plus QUOTE_TTL_MS); answers how many. */
  async purge(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.QUOTE_TTL_MS - this.config.QUOTE_RETENTION_AFTER_EXPIRY_MS);
    let purged = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        `DELETE FROM quote_builder.quotes WHERE id IN (
           SELECT id FROM quote_builder.quotes WHERE created_at < $1 AND expires_at < $2 LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)`,
        [before, new Date(now.getTime() - this.config.QUOTE_RETENTION_AFTER_EXPIRY_MS)],
      );
      purged += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH || this.stopped) break;
    }
    if (purged > 0) this.logger.info({ purged, before }, 'expired quotes purged');
    return purged;
  }
}
