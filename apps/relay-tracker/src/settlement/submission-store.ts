import { Inject, Injectable } from '@nestjs/common';
import { Events, type StoredTransition, type SubmissionStatus } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { detached, type Logger } from '@swap/observability';
import { DATABASE_POOL, LOGGER } from '@swap/service-kit';
import type pg from 'pg';
import { RelayTrackerMetrics } from '../relay-tracker.metrics';
import { streamEventOf } from '../submissions/status-answer';
import { StatusReadModel } from '../submissions/status-read-model';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { SettlementChains } from './settlement-chains';
import { columnsWithFacts, patchSets, submissionsOf, type SubmissionPatch, type SubmissionRow } from './submission-sql';

export type { SubmissionPatch, SubmissionRow } from './submission-sql';

const STATUS = 'relay_tracker."SubmissionStatus"';

/** Compare-and-set writes of a swap, one statement each; see docs/architecture/settlement.md#waking-on-events. */
@Injectable()
export class SubmissionStore {
  private readonly columns: string;

  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly messaging: MessagingClient,
    private readonly readModel: StatusReadModel,
    private readonly metrics: RelayTrackerMetrics,
    chains: SettlementChains,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly webhooks: WebhookDispatcher,
  ) {
    this.columns = columnsWithFacts({ key: chains.hub.key, relayChainId: chains.hub.relayChainId });
  }

  async find(id: string): Promise<SubmissionRow | null> {
    const [row] = await submissionsOf(this.pool, `SELECT ${this.columns} FROM relay_tracker.submissions WHERE id = $1::uuid`, [id]);
    return row ?? null;
  }

  /** Undefined when the swap was no longer at `row.status`. */
  async transition(
    row: SubmissionRow,
    steps: { status: SubmissionStatus; detail: string }[],
    patch: SubmissionPatch,
    wakeAt: Date | null,
  ): Promise<SubmissionRow | undefined> {
    const at = new Date().toISOString();
    const entries: StoredTransition[] = steps.map((s) => ({ status: s.status, at, detail: s.detail }));
    const params: unknown[] = [row.id, row.status, steps.at(-1)!.status, JSON.stringify(entries), wakeAt];
    const sets = patchSets(patch, params);
    const [moved] = await submissionsOf(
      this.pool,
      `UPDATE relay_tracker.submissions
       SET status = $3::${STATUS}, history = history || $4::jsonb, processing_attempts = 0, version = version + 1, wake_at = $5,
           updated_at = now()${sets.map((s) => `, ${s}`).join('')}
       WHERE id = $1::uuid AND status = $2::${STATUS}
       RETURNING ${this.columns}`,
      params,
    );
    if (!moved) return undefined;
    await this.readModel.write(moved);
    // Its webhook deliveries were written with it: sent now.
    if (moved.submittedByOrg) detached(() => this.webhooks.kick());
    let from: SubmissionStatus = row.status;
    const last = (moved.history as StoredTransition[]).length;
    for (let seq = last - entries.length + 1; seq <= last; seq++) {
      const event = streamEventOf(moved, seq);
      this.metrics.stepSeconds.observe({ step: from }, event.data.history[seq - 1].durationMs / 1000);
      try {
        this.messaging.emit(Events.submissionTransitioned, {
          txHash: moved.txHash,
          srcChainKey: moved.srcChainKey,
          intentHash: event.data.intentHash,
          from,
          terminal: event.data.terminal,
          ...event,
        });
      } catch (error) {
        this.logger.warn({ err: error, txHash: row.txHash }, 'transition not announced');
      }
      from = event.status;
    }
    if (this.logger.isLevelEnabled('info'))
      this.logger.info(
        { txHash: row.txHash, srcChainKey: row.srcChainKey, from: row.status, to: entries.map((e) => e.status) },
        'swap moved on',
      );
    return moved;
  }

  /** Stores what a step learned without moving the swap. */
  async patch(row: SubmissionRow, patch: SubmissionPatch): Promise<SubmissionRow | undefined> {
    const params: unknown[] = [row.id, row.status];
    const sets = patchSets(patch, params);
    const [patched] = await submissionsOf(
      this.pool,
      `UPDATE relay_tracker.submissions SET version = version + 1, updated_at = now(), ${sets.join(', ')}
       WHERE id = $1::uuid AND status = $2::${STATUS} RETURNING ${this.columns}`,
      params,
    );
    if (patched) await this.readModel.write(patched);
    return patched;
  }

  /** False when an event came since `row` was read (look again now); `wakeAt` null: nothing left to do. */
  async park(row: SubmissionRow, wakeAt: Date | null): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE relay_tracker.submissions SET wake_at = $2 WHERE id = $1::uuid AND status = $3::${STATUS} AND event_seq = $4`,
      [row.id, wakeAt, row.status, row.eventSeq],
    );
    return rowCount === 1;
  }

  /** A step failed transiently: tried again at `wakeAt`. */
  async touch(row: SubmissionRow, wakeAt: Date): Promise<void> {
    const [touched] = await submissionsOf(
      this.pool,
      `UPDATE relay_tracker.submissions
       SET processing_attempts = processing_attempts + 1, version = version + 1, wake_at = $3, updated_at = now()
       WHERE id = $1::uuid AND status = $2::${STATUS} RETURNING ${this.columns}`,
      [row.id, row.status, wakeAt],
    );
    if (touched) await this.readModel.write(touched);
  }
}
