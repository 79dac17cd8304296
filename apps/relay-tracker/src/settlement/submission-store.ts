import { Inject, Injectable } from '@nestjs/common';
import { Events, type SubmissionStatus, type SubmissionTransition } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

export type SubmissionRow = Awaited<ReturnType<PrismaClient['submission']['findUniqueOrThrow']>>;

/** Columns a step may set along with its transitions. */
export type SubmissionPatch = Partial<
  Pick<
    SubmissionRow,
    | 'userMessage'
    | 'failedAtStep'
    | 'verified'
    | 'notFoundSince'
    | 'hubTxHash'
    | 'fillTxHash'
    | 'deliveryTxHash'
    | 'intentCancelled'
    | 'intentHash'
    | 'relayData'
    | 'walletAddress'
  >
> & { intent?: Prisma.InputJsonValue };

/**
 * Moves submissions on, each move a compare-and-set on the status it expects: if another
 * replica moved the swap first (a lease ran out while this one was slow), the update
 * matches nothing and is dropped. The history grows by one entry per transition in the
 * same update, and each transition is announced on the bus after it is committed.
 */
@Injectable()
export class SubmissionStore {
  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  find(id: string): Promise<SubmissionRow | null> {
    return this.db.submission.findUnique({ where: { id } });
  }

  /** Applies `steps` (in order) from `row.status`; false when the swap was no longer there. */
  async transition(
    row: SubmissionRow,
    steps: { status: SubmissionStatus; detail: string }[],
    patch: SubmissionPatch = {},
  ): Promise<boolean> {
    const at = new Date().toISOString();
    const entries: SubmissionTransition[] = steps.map((s) => ({ status: s.status, at, detail: s.detail }));
    const history = [...(row.history as unknown as SubmissionTransition[]), ...entries];
    const { count } = await this.db.submission.updateMany({
      where: { id: row.id, status: row.status },
      data: { ...patch, status: steps.at(-1)!.status, history: history as unknown as Prisma.InputJsonValue, processingAttempts: 0 },
    });
    if (count === 0) return false;
    let from: string = row.status;
    for (const entry of entries) {
      try {
        this.messaging.emit(Events.submissionTransitioned, {
          txHash: row.txHash,
          srcChainKey: row.srcChainKey,
          intentHash: patch.intentHash ?? row.intentHash ?? '',
          from,
          ...entry,
        });
      } catch (error) {
        this.logger.warn({ err: error, txHash: row.txHash }, 'transition not announced');
      }
      from = entry.status;
    }
    this.logger.info(
      { txHash: row.txHash, srcChainKey: row.srcChainKey, from: row.status, to: entries.map((e) => e.status) },
      'swap moved on',
    );
    return true;
  }

  /** Stores what a step learned without moving the swap (compare-and-set on its status). */
  async patch(row: SubmissionRow, patch: SubmissionPatch): Promise<void> {
    await this.db.submission.updateMany({ where: { id: row.id, status: row.status }, data: patch });
  }

  /** A step that failed (an RPC, the relay API, the bus): its attempts grow (and what it learnt is kept), if it is still where it was. */
  async touch(row: SubmissionRow, patch: SubmissionPatch = {}): Promise<void> {
    await this.db.submission.updateMany({
      where: { id: row.id, status: row.status },
      data: { ...patch, processingAttempts: { increment: 1 } },
    });
  }
}
