import { Inject, Injectable } from '@nestjs/common';
import { intentHash } from '@swap/chains';
import {
  AppError,
  ErrorCode,
  type StoredTransition,
  type SubmissionStatus,
  type SubmissionStatusResponse,
  type SubmissionStreamEvent,
  type SubmitTxMessage,
  type SubmitTxResponse,
  TERMINAL_STATUSES,
} from '@swap/contracts';
import { activeTraceparent, annotateSpan, detached } from '@swap/observability';
import { DATABASE_POOL } from '@swap/service-kit';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { SUBMISSION_COLUMNS, submissionsOf, type SubmissionRow } from '../settlement/submission-sql';
import { SettlementChains } from '../settlement/settlement-chains';
import { SettlementQueue } from '../settlement/settlement-queue';
import { ClaimsService } from './claims.service';
import { statusAnswer, storedStreamEvent, type SubmissionState } from './status-answer';
import { StatusReadModel } from './status-read-model';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';

/** The unique index decides `inserted` or `duplicate`; see docs/architecture/settlement.md#idempotency-and-claims. */
@Injectable()
export class SubmissionsService {
  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly chains: SettlementChains,
    private readonly queue: SettlementQueue,
    private readonly claims: ClaimsService,
    private readonly readModel: StatusReadModel,
    private readonly config: RelayTrackerConfig,
    private readonly webhooks: WebhookDispatcher,
  ) {}

  async submit(request: SubmitTxMessage): Promise<SubmitTxResponse> {
    const txHash = this.chains.storedTxHash(request.txHash, request.srcChainKey);
    annotateSpan({ 'swap.tx_hash': txHash, 'swap.src_chain': request.srcChainKey });
    const history: StoredTransition[] = [{ status: 'pending', at: new Date().toISOString(), detail: 'submitted' }];
    const [inserted] = await submissionsOf(
      this.pool,
      `INSERT INTO relay_tracker.submissions (id, tx_hash, src_chain_key, wallet_address, intent, relay_data, intent_hash, history, submitted_by_org, wake_at, trace_parent, operation)
       VALUES ($1::uuid, $2, $3, $4, $5::jsonb, $6, $7, $8::jsonb, $9, $10, $11, $12)
       ON CONFLICT (tx_hash, src_chain_key) DO NOTHING
       RETURNING ${SUBMISSION_COLUMNS}`,
      [
        randomUUID(),
        txHash,
        request.srcChainKey,
        request.walletAddress,
        JSON.stringify(request.intent),
        request.relayData.toLowerCase(),
        intentHash(request.intent),
        JSON.stringify(history),
        request.orgId ?? null,
        // The guard should the hand-over below be lost.
        new Date(Date.now() + this.config.FALLBACK_CHECK_MS),
        activeTraceparent() ?? null,
        request.operation ?? 'swap',
      ],
    );
    const row = inserted ?? (await this.find(txHash, request.srcChainKey))!;
    if (inserted) {
      await this.readModel.write(row);
      if (row.submittedByOrg) detached(() => this.webhooks.kick());
      await this.queue.add(row.id, row.traceParent);
      return {
        success: true,
        data: {
          status: 'inserted',
          message: `Submission received; poll GET /v1/${request.operation ? 'leverage-yield' : 'swaps'}/submit-tx/status until solved or failed`,
        },
      };
    }
    // A replica that died before the hand-over left a swap without work: the client's retry puts it back.
    if (row.status === 'pending') await this.queue.add(row.id, row.traceParent);
    await this.claims.checkRepeat(row, request);
    return { success: true, data: { status: 'duplicate', message: 'This transaction was already submitted; nothing changed' } };
  }

  /** Also writes the read model: a miss there is repaired by the read that found it. */
  async status(txHash: string, srcChainKey: string): Promise<SubmissionStatusResponse> {
    const row = await this.find(this.chains.storedTxHash(txHash, srcChainKey), srcChainKey);
    if (!row) throw new AppError(404, ErrorCode.NotFound, `No submission of transaction ${txHash} on ${srcChainKey}`);
    await this.readModel.write(row);
    return statusAnswer(row);
  }

  /** History entries after `after`, each with the answer as it was then. */
  async events(
    txHash: string,
    srcChainKey: string,
    after = 0,
  ): Promise<{ events: SubmissionStreamEvent[]; last: number; terminal: boolean }> {
    const { rows } = await this.pool.query<{
      status: SubmissionStatus;
      tx_hash: string;
      src_chain_key: string;
      intent: unknown;
      intent_hash: string | null;
      created_at: Date;
      history: unknown;
      operation: string;
      seq: number | null;
      state: SubmissionState | null;
    }>(
      `SELECT s.status::text AS status, s.tx_hash, s.src_chain_key, s.intent, s.intent_hash, s.created_at, s.history, s.operation, e.seq, e.state
       FROM relay_tracker.submissions s
       LEFT JOIN relay_tracker.submission_events e ON e.submission_id = s.id AND e.seq > $3
       WHERE s.tx_hash = $1 AND s.src_chain_key = $2
       ORDER BY e.seq`,
      [this.chains.storedTxHash(txHash, srcChainKey), srcChainKey, after],
    );
    if (!rows.length) throw new AppError(404, ErrorCode.NotFound, `No submission of transaction ${txHash} on ${srcChainKey}`);
    const events = rows
      .filter((r) => r.seq !== null && r.state !== null)
      .map((r) =>
        storedStreamEvent(
          {
            txHash: r.tx_hash,
            srcChainKey: r.src_chain_key,
            intent: r.intent,
            intentHash: r.intent_hash,
            createdAt: r.created_at,
            history: r.history,
            operation: r.operation,
          },
          r.seq!,
          r.state!,
        ),
      );
    const history = rows[0].history as StoredTransition[];
    return { events, last: history.length, terminal: TERMINAL_STATUSES.includes(rows[0].status) };
  }

  private async find(txHash: string, srcChainKey: string): Promise<SubmissionRow | undefined> {
    const [row] = await submissionsOf(
      this.pool,
      `SELECT ${SUBMISSION_COLUMNS} FROM relay_tracker.submissions WHERE tx_hash = $1 AND src_chain_key = $2`,
      [txHash, srcChainKey],
    );
    return row;
  }
}
