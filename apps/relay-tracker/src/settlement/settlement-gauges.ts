import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { SubmissionStatus } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { ChainEventFeed } from '../chain-events/chain-event-feed';
import { PrismaClient } from '../generated/prisma/client';
import { RelayTrackerMetrics } from '../relay-tracker.metrics';
import { SettlementQueue } from './settlement-queue';

const EVERY_MS = 5_000;
const IN_FLIGHT: SubmissionStatus[] = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution'];

@Injectable()
export class SettlementGauges implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: PrismaClient,
    private readonly queue: SettlementQueue,
    private readonly feed: ChainEventFeed,
    private readonly metrics: RelayTrackerMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.refresh(), EVERY_MS);
    this.timer.unref();
    void this.refresh();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    try {
      const counts = await this.db.$queryRawUnsafe<{ status: SubmissionStatus; n: number; oldest: number }[]>(
        `SELECT status::text AS status, count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS oldest
         FROM relay_tracker.submissions WHERE status::text = ANY($1::text[]) GROUP BY status`,
        IN_FLIGHT,
      );
      for (const status of IN_FLIGHT) {
        const row = counts.find((c) => c.status === status);
        this.metrics.swaps.set({ status }, row?.n ?? 0);
        this.metrics.oldestSwap.set({ status }, Math.max(0, row?.oldest ?? 0));
      }
      this.metrics.workPending.set(await this.queue.depth());
      this.metrics.workRedelivered.set(await this.queue.redelivered());
      const backlog = await this.feed.backlog();
      if (backlog) {
        this.metrics.eventsPending.set(backlog.pending);
        this.metrics.eventsRedelivered.set(backlog.redelivered);
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'settlement gauges not refreshed');
    }
  }
}
