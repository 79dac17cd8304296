import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { BusIntake, MessagingClient, type WorkQueue } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { DATABASE_POOL, LOGGER } from '@swap/service-kit';
import type pg from 'pg';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { relayTrackerJetStream } from '../jetstream';
import { openWorkQueue } from '../work-queue';
import { LOG_DAYS, WebhooksService } from './webhooks.service';

const DUE_EVERY_MS = 1_000;
const DUE_BATCH = 500;
/** A claimed delivery is due again after this, should its item be lost with its replica. */
const CLAIM_MS = 60_000;
const WAIT_FOR_EARLIER_MS = 1_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 10_000;

/** When each delivery is tried, apart from settlement's slots; see docs/architecture/webhooks.md#from-a-transition-to-a-delivery. */
@Injectable()
export class WebhookDispatcher implements OnModuleInit, OnModuleDestroy {
  private queue?: WorkQueue;
  private timer?: NodeJS.Timeout;
  private pruner?: NodeJS.Timeout;
  private leaveIntake?: () => void;
  private looking = false;
  private again = false;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly messaging: MessagingClient,
    private readonly webhooks: WebhooksService,
    private readonly config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly intake: BusIntake,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.webhooks.enabled) {
      this.logger.info('webhooks off: WEBHOOK_ENCRYPTION_KEY is not set');
      return;
    }
    this.queue = await openWorkQueue({
      kind: this.config.WORK_QUEUE,
      messaging: this.messaging,
      pool: this.pool,
      resource: relayTrackerJetStream(this.config).webhooks,
      table: 'relay_tracker.webhook_work_items',
      pollMs: 100,
      onError: (error) => this.logger.warn({ err: error }, 'webhook queue error'),
    });
    this.queue.start(
      async (item) => {
        const outcome = await this.webhooks.attempt(item.id);
        if (outcome.waits) return { retryInMs: WAIT_FOR_EARLIER_MS };
        // The swap's next event to this endpoint may have waited behind this one.
        if (outcome.ok) this.kick();
        return { done: true };
      },
      { concurrency: this.config.WEBHOOK_CONCURRENCY },
    );
    this.leaveIntake = this.intake.add(this.queue);
    this.timer = setInterval(() => this.kick(), DUE_EVERY_MS).unref();
    this.pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  async prune(): Promise<number> {
    let total = 0;
    try {
      for (let gone = PRUNE_BATCH; gone === PRUNE_BATCH; total += gone) gone = await this.webhooks.store.prune(LOG_DAYS, PRUNE_BATCH);
    } catch (error) {
      this.logger.warn({ err: error }, 'old webhook deliveries could not be deleted');
    }
    if (total) this.logger.info({ deleted: total }, 'old webhook deliveries deleted');
    return total;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.pruner);
    this.leaveIntake?.();
    await this.queue?.stop();
  }

  /** Looks for deliveries due now (a swap just moved), once more after a look in progress. */
  kick(): void {
    if (!this.queue) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    void this.handOut().finally(() => {
      this.looking = false;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async handOut(): Promise<void> {
    try {
      const due = await this.webhooks.store.claimDue(CLAIM_MS, DUE_BATCH);
      for (const id of due) await this.queue!.add(id);
    } catch (error) {
      this.logger.warn({ err: error }, 'webhook deliveries due could not be read');
    }
  }
}
