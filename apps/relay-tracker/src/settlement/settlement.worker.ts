import { Inject, Injectable } from '@nestjs/common';
import { backoffMs, MessagingClient, type WorkItem, type WorkResult } from '@swap/messaging';
import { inSpan, SpanKind, tracingEnabled, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { ClaimsService } from '../submissions/claims.service';
import { HubSteps } from './hub-steps';
import { SettlementChains } from './settlement-chains';
import { after, StepOutcomes, type StepResult } from './settlement-steps';
import { SourceSteps } from './source-steps';
import { SubmissionStore, type SubmissionRow } from './submission-store';

/** Steps one turn may take before it yields (a swap is never held forever by one replica). */
const MAX_STEPS_PER_TURN = 10;

/**
 * Settlement of one swap per call (docs/architecture/settlement.md): each step reads the
 * index the chain followers write (and, where nothing follows, the chain or the relay),
 * moves the swap on with a compare-and-set, or parks it until an event wakes it or a
 * rule's time comes; only what the chain says makes a swap fail.
 */
@Injectable()
export class SettlementWorker {
  private readonly source: SourceSteps;
  private readonly hub: HubSteps;

  constructor(
    private readonly store: SubmissionStore,
    chains: SettlementChains,
    claims: ClaimsService,
    messaging: MessagingClient,
    config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const outcomes = new StepOutcomes(store, chains, config, logger);
    this.source = new SourceSteps(store, chains, claims, config, outcomes);
    this.hub = new HubSteps(store, chains, messaging, config, logger, outcomes);
  }

  /** Traced: a turn and each step link to the swap's submit (the work item carries it; the row too). */
  process(item: WorkItem): Promise<WorkResult> {
    if (!tracingEnabled()) return this.turn(item);
    const attributes = { 'swap.submission_id': item.id, 'messaging.delivery.attempt': item.attempt };
    return inSpan('settlement turn', { kind: SpanKind.CONSUMER, attributes, links: [item.traceparent] }, () => this.turn(item));
  }

  private async turn(item: WorkItem): Promise<WorkResult> {
    let row = await this.store.find(item.id);
    // A row this turn wrote (its facts as of that write, its wake time set by it), not one read before.
    let written = false;
    for (let i = 0; row && i < MAX_STEPS_PER_TURN; i++) {
      let result: StepResult;
      try {
        result = await this.step(row);
      } catch (error) {
        this.logger.warn(
          { err: error, txHash: row.txHash, status: row.status },
          'settlement step failed; the swap stays in flight and is retried',
        );
        await this.store.touch(row, after(backoffMs(row.processingAttempts + 1))).catch(() => undefined);
        return { done: true };
      }
      if ('settled' in result) return { done: true };
      if ('next' in result) {
        row = result.next;
        written = true;
        continue;
      }
      if ('wait' in result) {
        const waiting = result.row ?? row;
        // Just written by a transition with this very wake time, and the step decided on the facts that
        // write read back: an event matched after it set the wake time itself, nothing to guard against.
        if (written && !result.row && sameTime(waiting.wakeAt, result.wait)) return { done: true };
        // Guarded by the event count of the row the step decided on (an event since makes it look again).
        if (await this.store.park({ ...waiting, eventSeq: (result.decidedOn ?? row).eventSeq }, result.wait)) return { done: true };
      }
      // Lost a race, or an event came while it looked: look again.
      row = await this.store.find(row.id);
      written = false;
    }
    return row ? { retryInMs: 0 } : { done: true };
  }

  private step(row: SubmissionRow): Promise<StepResult> {
    if (!tracingEnabled()) return this.stepNow(row);
    const attributes = { 'swap.status': row.status, 'swap.tx_hash': row.txHash, 'swap.src_chain': row.srcChainKey };
    return inSpan(`settlement step ${row.status}`, { attributes, links: [row.traceParent] }, async (span) => {
      const result = await this.stepNow(row);
      span.setAttribute('swap.step.outcome', stepOutcome(result));
      return result;
    });
  }

  private stepNow(row: SubmissionRow): Promise<StepResult> {
    switch (row.status) {
      case 'pending':
        return this.source.checkSource(row);
      case 'relaying':
        return this.hub.followRelay(row);
      case 'relayed':
      case 'posting_execution':
        return this.hub.post(row);
      case 'posted_execution':
        return this.hub.watchFill(row);
      case 'failed':
        return this.hub.watchCancel(row);
      case 'solved':
        return Promise.resolve({ wait: null });
    }
  }
}

/** What a step did, on its span: `moved to relaying`, `waits`, `looks again`; the last one `moved to solved` (or `failed`). */
function stepOutcome(result: StepResult): string {
  if ('next' in result) return `moved to ${result.next.status}`;
  if ('settled' in result) return `moved to ${result.status}`;
  if ('wait' in result) return result.row ? `waits in ${result.row.status}` : 'waits';
  return 'looks again';
}

/** Two wake times within a second of each other (null: no wake at all). */
function sameTime(a: Date | null, b: Date | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a.getTime() - b.getTime()) < 1_000;
}
