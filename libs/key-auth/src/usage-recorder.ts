import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Constructor } from '@swap/config';
import { AppError, USAGE_BATCH_MAX_AGE_MS, USAGE_BATCH_ROWS, type UsageBatch, type UsageOutcome, type UsageRow } from '@swap/contracts';
import type { Logger, ServiceMetrics } from '@swap/observability';
import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { Counter, Gauge } from 'prom-client';

export function WithUsageCounting<B extends Constructor>(Base: B) {
  class UsageCountingConfig extends Base {
    /** At most this long before a partner sees its requests in the portal. */
    @Type(() => Number)
    @Min(100)
    @Max(10_000, { message: 'USAGE_FLUSH_MS must be at most 10000 (a partner sees its traffic within 10 s)' })
    @IsInt()
    USAGE_FLUSH_MS = 5_000;

    /** Rows held while key-registry cannot take them (about 300 bytes each); beyond, new ones are dropped (usage_requests_dropped_total). */
    @Type(() => Number)
    @Min(1_000)
    @Max(500_000, { message: 'USAGE_MAX_PENDING_ROWS must be at most 500000 (about 150 MB held)' })
    @IsInt()
    USAGE_MAX_PENDING_ROWS = 200_000;

    /** `false` only to measure what counting costs (npm run bench -- keys). */
    @IsIn(['true', 'false'], { message: 'USAGE_COUNTING must be true or false' })
    USAGE_COUNTING: 'true' | 'false' = 'true';
  }
  return UsageCountingConfig;
}

export interface UsageRecorderOptions {
  flushMs: number;
  maxPendingRows: number;
  send: (batch: UsageBatch) => Promise<unknown>;
  logger: Logger;
  metrics?: ServiceMetrics;
  now?: () => number;
}

interface Unsent extends UsageBatch {
  madeAt: number;
}

interface Pending extends Omit<UsageRow, 'minute'> {
  minute: number;
}

/** Counts in memory, batches to key-registry off the request path: docs/architecture/usage.md. */
export class UsageRecorder implements OnApplicationBootstrap, OnApplicationShutdown {
  private rows = new Map<string, Pending>();
  private unsent: Unsent[] = [];
  private unsentRows = 0;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private readonly dropped?: Counter;
  private readonly failures?: Counter;
  private readonly pending?: Gauge;

  constructor(private readonly options: UsageRecorderOptions) {
    if (options.metrics) {
      const registers = [options.metrics.registry];
      this.dropped = new Counter({
        name: 'usage_requests_dropped_total',
        help: 'Requests whose usage was not kept: USAGE_MAX_PENDING_ROWS held, a batch key-registry refused or did not take within an hour',
        registers,
      });
      this.failures = new Counter({
        name: 'usage_flush_failures_total',
        help: 'Usage batches key-registry did not take (sent again)',
        registers,
      });
      this.pending = new Gauge({
        name: 'usage_rows_pending',
        help: 'Usage rows held for the next batch',
        registers,
        collect: () => this.pending?.set(this.rows.size + this.unsentRows),
      });
    }
  }

  count(orgId: string, keyId: string, route: string, outcome: UsageOutcome, statusCode: number, now = Date.now()): void {
    const minute = now - (now % 60_000);
    const id = `${minute}\n${orgId}\n${keyId}\n${route}\n${outcome}`;
    let row = this.rows.get(id);
    if (!row) {
      if (this.rows.size + this.unsentRows >= this.options.maxPendingRows) {
        this.dropped?.inc();
        return;
      }
      row = { minute, orgId, keyId, route, outcome, requests: 0, clientErrors: 0, serverErrors: 0 };
      this.rows.set(id, row);
    }
    row.requests++;
    if (statusCode >= 500) row.serverErrors++;
    else if (statusCode >= 400) row.clientErrors++;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /** After the HTTP server has closed (no more counts), before the bus does: what is held goes once more. */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
    if (this.unsentRows) this.options.logger.warn({ rows: this.unsentRows }, 'usage rows not taken by key-registry before stopping; lost');
  }

  /** One at a time; batches not taken wait for the next. */
  flush(): Promise<void> {
    this.flushing ??= this.sendAll().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async sendAll(): Promise<void> {
    const now = this.now();
    const rows = [...this.rows.values()];
    this.rows = new Map();
    for (let i = 0; i < rows.length; i += USAGE_BATCH_ROWS) {
      const batch = rows.slice(i, i + USAGE_BATCH_ROWS).map((r) => ({ ...r, minute: new Date(r.minute).toISOString() }));
      this.unsent.push({ batchId: randomUUID(), rows: batch, madeAt: now });
      this.unsentRows += batch.length;
    }
    while (this.unsent.length > 0) {
      const { madeAt, ...batch } = this.unsent[0];
      if (now - madeAt > USAGE_BATCH_MAX_AGE_MS) {
        this.drop(batch, 'usage batch not taken by key-registry within an hour; dropped');
        continue;
      }
      try {
        await this.options.send(batch);
      } catch (error) {
        // A refused signature (401) is a key pair or clock an operator mends: held like an outage, not lost.
        if (!(error instanceof AppError) || error.getStatus() >= 500 || error.getStatus() === 401) {
          this.failures?.inc();
          const why = error instanceof AppError ? { reason: error.message } : { err: error };
          this.options.logger.warn({ ...why, held: this.unsentRows }, 'usage batch not taken; sending it again later');
          return;
        }
        this.drop(batch, 'usage batch refused by key-registry; dropped', error);
        continue;
      }
      this.unsent.shift();
      this.unsentRows -= batch.rows.length;
    }
  }

  private drop(batch: UsageBatch, message: string, err?: unknown): void {
    this.unsent.shift();
    this.unsentRows -= batch.rows.length;
    this.dropped?.inc(batch.rows.reduce((sum, r) => sum + r.requests, 0));
    this.options.logger.error({ err, rows: batch.rows.length, batchId: batch.batchId }, message);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
