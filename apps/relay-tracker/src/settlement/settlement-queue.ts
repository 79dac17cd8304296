import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { BusIntake, MessagingClient, type WorkQueue } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { DATABASE_POOL, LOGGER } from '@swap/service-kit';
import type pg from 'pg';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { relayTrackerJetStream } from '../jetstream';
import { openWorkQueue } from '../work-queue';
import { SettlementWorker } from './settlement.worker';

const READINESS_EVERY_MS = 2_000;
const TIMERS_EVERY_MS = 1_000;
const TIMERS_BATCH = 500;

/** An item per swap with something to do now; see docs/architecture/settlement.md#work-shared-by-replicas. */
@Injectable()
export class SettlementQueue implements OnModuleInit, OnModuleDestroy {
  private queue!: WorkQueue;
  private readonly timers: NodeJS.Timeout[] = [];
  private leaveIntake?: () => void;
  private lookingAtTimers = false;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly messaging: MessagingClient,
    private readonly worker: SettlementWorker,
    private readonly config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly intake: BusIntake,
  ) {}

  async onModuleInit(): Promise<void> {
    this.queue = await openWorkQueue({
      kind: this.config.WORK_QUEUE,
      messaging: this.messaging,
      pool: this.pool,
      resource: relayTrackerJetStream(this.config).settlement,
      table: 'relay_tracker.work_items',
      pollMs: 250,
      onError: (error) => this.logger.warn({ err: error }, 'settlement queue error'),
    });
    this.queue.start((item) => this.worker.process(item), { concurrency: this.config.SETTLEMENT_CONCURRENCY });
    this.leaveIntake = this.intake.add(this.queue);
    this.timers.push(
      setInterval(() => void this.checkReadiness(), READINESS_EVERY_MS).unref(),
      setInterval(() => void this.wakeDue(), TIMERS_EVERY_MS).unref(),
    );
  }

  async onModuleDestroy(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.leaveIntake?.();
    await this.queue.stop();
  }

  /** False when its item may be in a replica's hands: the timers hand it out then (the event set its time two seconds on). */
  add(id: string, traceparent?: string | null): Promise<boolean> {
    return this.queue.add(id, traceparent ?? undefined);
  }

  depth(): Promise<number> {
    return this.queue.depth();
  }

  redelivered(): Promise<number> {
    return this.queue.redelivered();
  }

  private async checkReadiness(): Promise<void> {
    try {
      await this.pool.query('SELECT 1');
      this.queue.resume();
    } catch {
      this.queue.pause();
    }
  }

  /** Their time is pushed a fallback period on first, so a replica dying before the hand-over loses nothing. */
  private async wakeDue(): Promise<void> {
    if (this.lookingAtTimers) return;
    this.lookingAtTimers = true;
    try {
      const { rows: due } = await this.pool.query<{ id: string; trace_parent: string | null }>(
        `UPDATE relay_tracker.submissions SET wake_at = now() + make_interval(secs => $1::double precision / 1000)
         WHERE id IN (SELECT id FROM relay_tracker.submissions WHERE wake_at <= now() ORDER BY wake_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING id::text AS id, trace_parent`,
        [this.config.FALLBACK_CHECK_MS, TIMERS_BATCH],
      );
      const busy: string[] = [];
      for (const { id, trace_parent } of due) if (!(await this.queue.add(id, trace_parent ?? undefined))) busy.push(id);
      // In a replica's hands: looked for again in a few seconds, not a fallback period.
      if (busy.length)
        await this.pool.query(
          `UPDATE relay_tracker.submissions SET wake_at = now() + interval '5 seconds' WHERE id = ANY($1::uuid[]) AND wake_at IS NOT NULL`,
          [busy],
        );
    } catch (error) {
      this.logger.warn({ err: error }, 'settlement timers could not be read');
    } finally {
      this.lookingAtTimers = false;
    }
  }
}
