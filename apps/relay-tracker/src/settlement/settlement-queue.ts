import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { WorkQueues } from '@swap/contracts';
import { BusIntake, JetStreamWorkQueue, MessagingClient, NatsBus, PgWorkQueue, type WorkQueue } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { PrismaClient } from '../generated/prisma/client';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { SettlementWorker } from './settlement.worker';

const READINESS_EVERY_MS = 2_000;
const SWEEP_EVERY_MS = 60_000;
/** The first sweep soon after start: a replica that keeps being restarted still sweeps. */
const FIRST_SWEEP_MS = 5_000;

/**
 * Settlement's work: one item per swap in flight, shared by the replicas through the
 * WorkQueue (`WORK_QUEUE`: JetStream in cluster mode, a PostgreSQL table in the embedded
 * default), worked by SettlementWorker. A replica whose database stops answering stops taking work until it
 * answers again; a sweep puts back any swap in flight that lost its item (a crash between
 * the insert and the hand-over), so none is forgotten.
 */
@Injectable()
export class SettlementQueue implements OnModuleInit, OnModuleDestroy {
  private queue!: WorkQueue;
  private readonly timers: NodeJS.Timeout[] = [];
  private leaveIntake?: () => void;

  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    private readonly worker: SettlementWorker,
    private readonly config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly intake: BusIntake,
  ) {}

  async onModuleInit(): Promise<void> {
    const onError = (error: unknown) => this.logger.warn({ err: error }, 'settlement queue error');
    if (this.config.WORK_QUEUE === 'jetstream') {
      const bus = this.messaging.bus;
      if (!(bus instanceof NatsBus)) throw new Error('WORK_QUEUE=jetstream needs NATS (the embedded default uses WORK_QUEUE=postgres)');
      this.queue = await JetStreamWorkQueue.open(bus.connection, {
        ...WorkQueues.settlement,
        prefix: bus.subjectPrefix || undefined,
        ackWaitMs: this.config.WORK_LEASE_MS,
        onError,
      });
    } else {
      this.queue = new PgWorkQueue((text, ...params) => this.db.$queryRawUnsafe(text, ...params), {
        table: 'relay_tracker.work_items',
        leaseMs: this.config.WORK_LEASE_MS,
        pollMs: Math.min(250, this.config.STEP_POLL_MS),
        onError,
      });
    }
    this.queue.start((item) => this.worker.process(item), { concurrency: this.config.SETTLEMENT_CONCURRENCY });
    // The service's readiness gate pauses the queue too while its database or NATS is down.
    this.leaveIntake = this.intake.add(this.queue);
    this.timers.push(
      setInterval(() => void this.checkReadiness(), READINESS_EVERY_MS).unref(),
      setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref(),
      setTimeout(() => void this.sweep(), FIRST_SWEEP_MS).unref(),
    );
  }

  async onModuleDestroy(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.leaveIntake?.();
    await this.queue.stop();
  }

  add(id: string): Promise<void> {
    return this.queue.add(id);
  }

  depth(): Promise<number> {
    return this.queue.depth();
  }

  private async checkReadiness(): Promise<void> {
    try {
      await this.db.$queryRaw`SELECT 1`;
      this.queue.resume();
    } catch {
      this.queue.pause();
    }
  }

  /** Swaps in flight that nobody touched for two minutes get their item again (a second add of a queued one changes nothing). */
  private async sweep(): Promise<void> {
    try {
      const orphans = await this.db.$queryRaw<{ id: string }[]>`
        SELECT s.id::text AS id FROM relay_tracker.submissions s
        WHERE s.status NOT IN ('solved', 'failed') AND s.updated_at < now() - interval '2 minutes'
        LIMIT 1000`;
      for (const { id } of orphans) await this.queue.add(id);
      if (orphans.length) this.logger.warn({ count: orphans.length }, 'swaps in flight without work put back');
    } catch (error) {
      this.logger.warn({ err: error }, 'settlement sweep failed');
    }
  }
}
