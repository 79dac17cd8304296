import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ReadModelStore } from '@swap/cache';
import { submissionStatusKey, TERMINAL_STATUSES } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { LOGGER, READ_MODELS } from '@swap/service-kit';
import type { SubmissionRow } from '../settlement/submission-sql';
import { statusAnswer } from './status-answer';

const IN_FLIGHT_TTL_MS = 86_400_000;
const TERMINAL_TTL_MS = 3_600_000;
const RETRY_EVERY_MS = 1_000;
const MAX_UNWRITTEN = 10_000;

/** Written through on every change of a row; see docs/architecture/settlement.md#status-from-a-read-model. */
@Injectable()
export class StatusReadModel implements OnModuleDestroy {
  private readonly unwritten = new Map<string, { version: number; value: string; ttlMs: number }>();
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Never throws: the database stays the truth, a miss is answered from it. */
  async write(row: SubmissionRow): Promise<void> {
    const key = submissionStatusKey(row.srcChainKey, row.txHash);
    const entry = {
      version: Number(row.version),
      value: JSON.stringify(statusAnswer(row)),
      ttlMs: TERMINAL_STATUSES.includes(row.status) ? TERMINAL_TTL_MS : IN_FLIGHT_TTL_MS,
    };
    try {
      await this.store.put(key, entry.version, entry.value, entry.ttlMs);
      this.unwritten.delete(key);
    } catch (error) {
      this.keep(key, entry, error);
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private keep(key: string, entry: { version: number; value: string; ttlMs: number }, error: unknown): void {
    const known = this.unwritten.get(key);
    if (!known || known.version < entry.version) this.unwritten.set(key, entry);
    if (this.unwritten.size > MAX_UNWRITTEN) this.unwritten.delete(this.unwritten.keys().next().value as string);
    if (!this.timer) {
      this.logger.warn({ err: error }, 'status read model not written; retrying every second');
      this.timer = setInterval(() => void this.retry(), RETRY_EVERY_MS);
      this.timer.unref();
    }
  }

  private async retry(): Promise<void> {
    for (const [key, entry] of [...this.unwritten]) {
      try {
        await this.store.put(key, entry.version, entry.value, entry.ttlMs);
        if (this.unwritten.get(key) === entry) this.unwritten.delete(key);
      } catch {
        return; // still down: the next round
      }
    }
    if (this.unwritten.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.logger.info('status read model caught up');
    }
  }
}
