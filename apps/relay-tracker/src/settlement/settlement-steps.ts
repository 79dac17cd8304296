import type { ChainInfo } from '@swap/chains';
import type { Intent, SubmissionStatus } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import type { RelayTrackerConfig } from '../relay-tracker.config';
import type { SettlementChains } from './settlement-chains';
import type { SettlementFacts } from './submission-sql';
import type { SubmissionPatch, SubmissionRow, SubmissionStore } from './submission-store';

/** What a person does when a swap fails with its intent open on the hub. */
export const HELD_ON_THE_HUB =
  "Your input is held for you on the hub and can be recovered with a cancel: POST /v1/swaps/intents/cancel with this swap's intent.";
/** A failed swap's intent is watched for a cancel; with no event it is looked at this many fallback periods apart. */
export const CANCEL_WATCH_FALLBACKS = 10;

/**
 * What a step did: moved the swap on or learned something (look again at once with the new
 * row), found nothing to do until an event or `until` (park it, `row` as last written,
 * guarded by the events of the row it decided on, `decidedOn`, else the row it was given;
 * null: nothing left to do), lost a race (read it again), or reached its end with nothing
 * left to store.
 */
export type StepResult =
  | { next: SubmissionRow }
  | { wait: Date | null; row?: SubmissionRow; decidedOn?: SubmissionRow }
  | { again: true }
  | { settled: true; status: SubmissionStatus };

/** How every step ends a swap's move: a compare-and-set transition, a failure, a learned fact, and the relay reminded. */
export class StepOutcomes {
  constructor(
    private readonly store: SubmissionStore,
    private readonly chains: SettlementChains,
    private readonly config: RelayTrackerConfig,
    private readonly logger: Logger,
  ) {}

  /** Hands a spoke source to the relay with its payload (idempotent; a failure is only logged: the fallback tries again). */
  async handToRelay(row: SubmissionRow, src: ChainInfo): Promise<void> {
    await this.chains.relay
      .submit(src.relayChainId, row.txHash, { address: intentOf(row).creator, payload: row.relayData })
      .catch((error: unknown) => this.logger.debug({ err: error, txHash: row.txHash }, 'relay submit failed; tried again later'));
  }

  async move(
    row: SubmissionRow,
    steps: { status: SubmissionStatus; detail: string }[],
    patch: SubmissionPatch = {},
    wakeAt: Date | null = this.fallback(),
  ): Promise<StepResult> {
    const moved = await this.store.transition(row, steps, patch, wakeAt);
    if (!moved) return { again: true };
    return moved.status === 'solved' ? { settled: true, status: 'solved' } : { next: moved };
  }

  async fail(row: SubmissionRow, detail: string, userMessage: string, patch: SubmissionPatch = {}): Promise<StepResult> {
    const failed = {
      ...row,
      status: 'failed' as const,
      failedAtStep: row.status,
      intentCancelled: patch.intentCancelled ?? row.intentCancelled,
    };
    // A failed swap whose intent is open keeps a slow watch for its cancel.
    const wakeAt = watchesCancel(failed) ? after(this.config.FALLBACK_CHECK_MS * CANCEL_WATCH_FALLBACKS) : null;
    const moved = await this.store.transition(
      row,
      [{ status: 'failed', detail }],
      { ...patch, userMessage, failedAtStep: row.status },
      wakeAt,
    );
    if (!moved) return { again: true };
    // Watched: its next step parks it (seeing a cancel that came meanwhile); else nothing is left to do.
    return wakeAt ? { next: moved } : { settled: true, status: 'failed' };
  }

  /** Waits after storing what the step learnt (the not-found clock). */
  async waitLearning(row: SubmissionRow, until: Date, patch: SubmissionPatch): Promise<StepResult> {
    const patched = await this.store.patch(row, patch);
    // Decided on `row`: an event since it was read (counted in the patched row) makes it look again.
    return patched ? { wait: until, row: patched, decidedOn: row } : { again: true };
  }

  fallback(): Date {
    return after(this.config.FALLBACK_CHECK_MS);
  }
}

export function after(ms: number): Date {
  return new Date(Date.now() + ms);
}

/** What the index said about the swap, read with its row (the store always reads them). */
export function factsOf(row: SubmissionRow): SettlementFacts {
  if (!row.facts) throw new Error(`submission ${row.id} was read without its index facts`);
  return row.facts;
}

export function intentOf(row: SubmissionRow): Intent {
  return row.intent as unknown as Intent;
}

/** When the swap last moved (its newest history entry). */
export function lastMoveAt(row: SubmissionRow): number {
  const history = row.history as unknown as { at: string }[];
  return Date.parse(history.at(-1)?.at ?? row.createdAt.toISOString());
}

/** The statuses a swap's intent is open on the hub in: a failure from one of them leaves the input there, to cancel. */
const INTENT_OPEN: readonly string[] = ['posting_execution', 'posted_execution'];

/** A swap that failed after its intent was open on the hub, not yet cancelled: its refund is watched. */
export function watchesCancel(row: Pick<SubmissionRow, 'verified' | 'hubTxHash' | 'intentCancelled' | 'failedAtStep'>): boolean {
  return Boolean(row.verified && row.hubTxHash && !row.intentCancelled && row.failedAtStep && INTENT_OPEN.includes(row.failedAtStep));
}
