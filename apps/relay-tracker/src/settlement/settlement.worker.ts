import { Inject, Injectable } from '@nestjs/common';
import { encodeCreateIntent, intentEventsIn, spokeNetworkOf, type ChainInfo, type SpokeNetwork } from '@swap/chains';
import { AppError, ErrorCode, Subjects, type Intent, type SubmissionStatus } from '@swap/contracts';
import { backoffMs, MessagingClient, type WorkItem, type WorkResult } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import type { Address, Hex } from 'viem';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { ClaimsService } from '../submissions/claims.service';
import { SettlementChains } from './settlement-chains';
import { checkHubSource, checkNetworkSource, checkSpokeSource, type SourceVerdict } from './source-check';
import type { SettlementFacts } from './submission-sql';
import { SubmissionStore, type SubmissionPatch, type SubmissionRow } from './submission-store';

/** Steps one turn may take before it yields (a swap is never held forever by one replica). */
const MAX_STEPS_PER_TURN = 10;
/** What a person does when a swap fails with its intent open on the hub. */
const HELD_ON_THE_HUB =
  "Your input is held for you on the hub and can be recovered with a cancel: POST /v1/swaps/intents/cancel with this swap's intent.";
/** A failed swap's intent is watched for a cancel; with no event it is looked at this many fallback periods apart. */
const CANCEL_WATCH_FALLBACKS = 10;

/**
 * What a step did: moved the swap on or learned something (look again at once with the new
 * row), found nothing to do until an event or `until` (park it, `row` as last written,
 * guarded by the events of the row it decided on, `decidedOn`, else the row it was given;
 * null: nothing left to do), lost a race (read it again), or reached its end with nothing
 * left to store.
 */
type StepResult =
  { next: SubmissionRow } | { wait: Date | null; row?: SubmissionRow; decidedOn?: SubmissionRow } | { again: true } | { settled: true };

/**
 * Settlement of one swap per call (docs/architecture/settlement.md): each step reads the
 * index the chain followers write (and, where nothing follows, the chain or the relay),
 * moves the swap on with a compare-and-set, or parks it until an event wakes it or a
 * rule's time comes; only what the chain says makes a swap fail.
 */
@Injectable()
export class SettlementWorker {
  constructor(
    private readonly store: SubmissionStore,
    private readonly chains: SettlementChains,
    private readonly claims: ClaimsService,
    private readonly messaging: MessagingClient,
    private readonly config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async process(item: WorkItem): Promise<WorkResult> {
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
    switch (row.status) {
      case 'pending':
        return this.checkSource(row);
      case 'relaying':
        return this.followRelay(row);
      case 'relayed':
      case 'posting_execution':
        return this.post(row);
      case 'posted_execution':
        return this.watchFill(row);
      case 'failed':
        return this.watchCancel(row);
      case 'solved':
        return Promise.resolve({ wait: null });
    }
  }

  /** pending → relaying (→ relayed from the hub): the source transaction, mined, successful, and a swap. */
  private async checkSource(row: SubmissionRow): Promise<StepResult> {
    const src = this.chains.chain(row.srcChainKey);
    if (src.type !== 'EVM') {
      // Another network: its adapter reads the transaction where the deployment names an RPC; else the relay's packets say it exists.
      const network = spokeNetworkOf(src.type);
      return network && src.rpcUrls?.length ? this.checkNetworkSource(row, src, network) : this.checkViaRelay(row);
    }
    const intents = this.chains.intents();
    let verdict: SourceVerdict | undefined;
    let from: string | undefined;
    let block: bigint | undefined;
    // What the follower already read: no chain call for a hub source, one for a spoke's.
    const seen = factsOf(row).sourceEvents;
    if (src.hub) {
      const created = seen.filter((e) => e.kind === 'intent_created');
      const mine = created.find((e) => e.intentHash === row.intentHash) ?? created[0];
      if (mine) {
        const intent = (mine.data as { intent: Intent }).intent;
        verdict = { ok: true, intent, intentHash: mine.intentHash as Hex, payload: encodeCreateIntent(intent).toLowerCase() as Hex };
        from = intent.creator;
        block = BigInt(mine.blockNumber);
      }
    } else if (seen.length) {
      const tx = await this.chains.access.evm(src, (a) => a.transaction(row.txHash as Hex));
      if (tx) {
        verdict = checkSpokeSource({ ...tx, status: 'success', logs: [] }, src.assetManager as Address, intents, src.key, {
          intent: intentOf(row),
          intentHash: row.intentHash,
        });
        from = tx.from;
        block = tx.blockNumber;
      }
    }
    if (!verdict) {
      // Not in the index (not mined yet, reverted, or not read yet): the chain itself says.
      const tx = await this.chains.access.evm(src, (a) => a.minedTransaction(row.txHash as Hex));
      if (!tx) return this.notFound(row, src);
      if (tx.status === 'reverted') {
        return this.fail(
          row,
          'source transaction reverted',
          `Your transaction on ${src.key} failed (it reverted), so nothing was deposited and no swap was opened.`,
        );
      }
      verdict = src.hub
        ? checkHubSource(tx, intentEventsIn(tx, intents), intents, src.key)
        : checkSpokeSource(tx, src.assetManager as Address, intents, src.key);
      from = tx.from;
      block = tx.blockNumber;
    }
    return this.confirmSource(row, src, verdict, from!, `source transaction confirmed in block ${block}`);
  }

  /**
   * pending → relaying on a network other than EVM: its adapter says whether the transaction
   * is there, succeeded, was sent by the wallet the intent names and carries the intent.
   */
  private async checkNetworkSource(row: SubmissionRow, src: ChainInfo, network: SpokeNetwork): Promise<StepResult> {
    const check = await this.chains.access.spoke(src, (a) => a.checkSource(row.txHash));
    if (!check.found) return this.notFound(row, src);
    if (!check.success) {
      return this.fail(
        row,
        'source transaction failed',
        `Your transaction on ${src.key} failed (${check.reason}), so nothing was deposited and no swap was opened.`,
      );
    }
    const verdict = checkNetworkSource(check, network, this.chains.intents(), src.key, {
      intent: intentOf(row),
      intentHash: row.intentHash,
      payload: row.relayData,
    });
    return this.confirmSource(row, src, verdict, check.sender, 'source transaction confirmed');
  }

  /** A checked source: a swap moves on (to relaying, or from the hub straight to the solvers), anything else fails. */
  private async confirmSource(
    row: SubmissionRow,
    src: ChainInfo,
    verdict: SourceVerdict,
    from: string,
    confirmed: string,
  ): Promise<StepResult> {
    if (!verdict.ok) return this.fail(row, 'not a swap transaction', verdict.userMessage);
    const truth = { intent: verdict.intent, intentHash: verdict.intentHash, payload: verdict.payload, from };
    await this.claims.checkAgainstChain(row, truth);
    // The swap's sender is the transaction's, whoever submitted it first.
    const patch: SubmissionPatch = {
      verified: true,
      intent: verdict.intent as never,
      intentHash: verdict.intentHash,
      relayData: verdict.payload,
      walletAddress: from,
      notFoundSince: null,
    };
    const moved = src.hub
      ? await this.store.transition(
          row,
          [
            { status: 'relaying', detail: confirmed },
            { status: 'relayed', detail: 'a hub source: the intent is on the hub, no relay needed' },
            { status: 'posting_execution', detail: 'handing the intent to the solvers' },
          ],
          { ...patch, hubTxHash: row.txHash },
          this.fallback(),
        )
      : await this.store.transition(row, [{ status: 'relaying', detail: `${confirmed}; handed to the relay` }], patch, this.fallback());
    if (!moved) return { again: true };
    // Claims of repeated submits that were only compared with the first one are compared with the chain now.
    if (moved.claimsPending) await this.claims.settle(row.id, truth);
    if (!src.hub) await this.handToRelay(moved, src);
    return { next: moved };
  }

  /** A source transaction no RPC knows: waited for within NOT_FOUND_WINDOW_MS (an event wakes it sooner), then failed. */
  private notFound(row: SubmissionRow, src: ChainInfo): Promise<StepResult> {
    const since = row.notFoundSince ?? new Date();
    const windowEnds = since.getTime() + this.config.NOT_FOUND_WINDOW_MS;
    if (Date.now() < windowEnds) {
      const until = new Date(Math.min(windowEnds, this.fallback().getTime()));
      return row.notFoundSince ? Promise.resolve({ wait: until }) : this.waitLearning(row, until, { notFoundSince: since });
    }
    const minutes = Math.round(this.config.NOT_FOUND_WINDOW_MS / 60_000);
    return this.fail(
      row,
      'source transaction not found',
      `We could not find this transaction on ${src.key} for ${minutes} minute${minutes === 1 ? '' : 's'}: it was probably never broadcast, or it was replaced. Nothing left your wallet for this swap.`,
    );
  }

  /** A source the platform cannot read itself (Solana here): the relay's packets say it exists. */
  private async checkViaRelay(row: SubmissionRow): Promise<StepResult> {
    const src = this.chains.chain(row.srcChainKey);
    const packets = await this.chains.relay.transactionPackets(src.relayChainId, row.txHash);
    if (packets.length === 0) {
      await this.chains.relay.submit(src.relayChainId, row.txHash, { address: intentOf(row).creator, payload: row.relayData });
      const since = row.notFoundSince ?? new Date();
      if (Date.now() - since.getTime() >= this.config.NOT_FOUND_WINDOW_MS) {
        return this.fail(
          row,
          'source transaction not found',
          `The relay has not seen this transaction on ${src.key}: it was probably never broadcast or has expired. Nothing left your wallet for this swap.`,
        );
      }
      const until = after(this.config.STEP_POLL_MS);
      return row.notFoundSince ? { wait: until } : this.waitLearning(row, until, { notFoundSince: since });
    }
    return this.move(row, [{ status: 'relaying', detail: 'the relay has the source transaction' }], { notFoundSince: null });
  }

  /** relaying → relayed (→ posting_execution): the hub follower saw the intent created (whoever relayed it). */
  private async followRelay(row: SubmissionRow): Promise<StepResult> {
    const src = this.chains.chain(row.srcChainKey);
    const facts = factsOf(row);
    const created = facts.intentEvents.find((e) => e.kind === 'intent_created');
    // The source's message delivered to the hub with calls that failed (the devnet's hub entry says so in its event).
    const refused = facts.sourceDeliveries.find(
      (e) => e.peerChain === src.relayChainId && (e.data as { ok?: boolean } | undefined)?.ok === false,
    );
    if (created) {
      // Relayed, and handed to the solvers at once: one write for both steps.
      return this.move(
        row,
        [
          { status: 'relayed', detail: `delivered to the hub in ${created.txHash}` },
          { status: 'posting_execution', detail: 'handing the intent to the solvers' },
        ],
        { hubTxHash: created.txHash },
      );
    }
    if (refused) {
      return this.fail(
        row,
        'the hub could not open the intent',
        'Your deposit reached the hub, but the swap could not be opened there (its deadline may have passed on the way). The deposit waits in your wallet on the hub.',
        { hubTxHash: refused.txHash },
      );
    }
    // Nothing for a while: the relay is reminded (its submit is idempotent), once per fallback period.
    if (src.type === 'EVM' && Date.now() - lastMoveAt(row) >= this.config.FALLBACK_CHECK_MS) await this.handToRelay(row, src);
    return { wait: this.fallback() };
  }

  /** relayed → posting_execution → posted_execution: the intent handed to the solver marketplace. */
  private async post(row: SubmissionRow): Promise<StepResult> {
    let current = row;
    if (current.status === 'relayed') {
      const moved = await this.store.transition(
        current,
        [{ status: 'posting_execution', detail: 'handing the intent to the solvers' }],
        {},
        this.fallback(),
      );
      if (!moved) return { again: true };
      current = moved;
    }
    try {
      await this.messaging.request(Subjects.intentExecute, { intent_tx_hash: current.hubTxHash! });
    } catch (error) {
      // The marketplace refusing the intent for good is final; its being unreachable is not.
      if (error instanceof AppError && error.getStatus() < 500 && error.code !== ErrorCode.IntentNotFound) {
        return this.fail(
          current,
          'the solver marketplace refused the intent',
          `The solver marketplace refused this swap: ${error.message.replace(/\.?$/, '.')} ${HELD_ON_THE_HUB}`,
        );
      }
      throw error;
    }
    return this.move(current, [{ status: 'posted_execution', detail: 'posted to the solver marketplace' }]);
  }

  /** posted_execution → solved: filled on the hub (and, for a spoke destination, delivered there); or cancelled; or the deadline passed. */
  private async watchFill(row: SubmissionRow): Promise<StepResult> {
    const hub = this.chains.hub;
    const intent = intentOf(row);
    const { intentEvents: events, hubTime } = factsOf(row);
    const filled = events.find(
      (e) => e.kind === 'intent_filled' && (e.data as { remainingInput?: string } | undefined)?.remainingInput === '0',
    );
    if (filled) {
      const fill = filled.txHash;
      if (intent.dstChain === hub.relayChainId)
        return this.move(row, [{ status: 'solved', detail: `filled in ${fill}` }], { fillTxHash: fill }, null);
      return this.watchDelivery(row, intent, fill);
    }
    if (events.some((e) => e.kind === 'intent_cancelled')) {
      return this.fail(row, 'intent cancelled', 'The swap was cancelled before a solver filled it; its input was refunded.', {
        intentCancelled: true,
      });
    }
    const deadline = BigInt(intent.deadline);
    if (deadline === 0n) return { wait: this.fallback() };
    // The index holds every event up to the hub cursor: past the deadline there, no fill can come.
    if (hubTime && BigInt(Math.floor(hubTime.getTime() / 1000)) > deadline) {
      return this.fail(
        row,
        'deadline passed unfilled',
        `No solver filled your swap before its deadline (${new Date(Number(deadline) * 1000).toISOString()}). ${HELD_ON_THE_HUB}`,
      );
    }
    const deadlineMs = Number(deadline) * 1000 + 1_000;
    // Past the deadline by the wall clock but not yet by the hub follower's (it lags, or is down): a few seconds more.
    const next = Date.now() < deadlineMs ? deadlineMs : Date.now() + 5_000;
    return { wait: new Date(Math.min(this.fallback().getTime(), next)) };
  }

  /** A fill bound for a spoke: solved once the destination's follower saw the fill's message delivered (or, unfollowed, the relay says so). */
  private async watchDelivery(row: SubmissionRow, intent: Intent, fill: string): Promise<StepResult> {
    const hub = this.chains.hub;
    const dst = this.chains.byRelayId(intent.dstChain);
    const followed = dst !== undefined && this.chains.followed(dst.key);
    let current = row;
    if (!row.fillTxHash) {
      // Stored first: the row read back carries the fill's deliveries (and a delivery event finds the swap by it).
      const patched = await this.store.patch(row, { fillTxHash: fill });
      if (!patched) return { again: true };
      current = patched;
      await this.chains.relay
        .submit(hub.relayChainId, fill)
        .catch((error: unknown) => this.logger.debug({ err: error }, 'relay submit of a fill failed'));
    }
    if (followed) {
      const delivered = factsOf(current).fillDeliveries.find((e) => e.chainKey === dst.key);
      if (delivered) return this.solvedOn(current, fill, dst.key, delivered.txHash);
    }
    // Where no follower sees the destination, or it has not for a while, the relay's packets say
    // (and the relay is reminded of the fill: its submit is idempotent).
    const waitedLong = Date.now() - current.updatedAt.getTime() >= this.config.FALLBACK_CHECK_MS;
    if (waitedLong) await this.chains.relay.submit(hub.relayChainId, fill).catch(() => undefined);
    if (!followed || waitedLong) {
      const packets = await this.chains.relay.transactionPackets(hub.relayChainId, fill);
      const delivery = packets.find((p) => p.dst_chain_id === intent.dstChain && p.status === 'executed' && p.dst_tx_hash);
      if (delivery) return this.solvedOn(current, fill, dst?.key ?? intent.dstChain, delivery.dst_tx_hash.toLowerCase());
    }
    return { wait: followed ? this.fallback() : after(this.config.STEP_POLL_MS), row: current, decidedOn: current };
  }

  private solvedOn(row: SubmissionRow, fill: string, dstKey: string, deliveryTx: string): Promise<StepResult> {
    return this.move(
      row,
      [{ status: 'solved', detail: `filled in ${fill}; delivered on ${dstKey} in ${deliveryTx}` }],
      { fillTxHash: fill, deliveryTxHash: deliveryTx },
      null,
    );
  }

  /** A failed swap whose intent is open on the hub: watched for a cancel, for CANCEL_WATCH_MS. */
  private async watchCancel(row: SubmissionRow): Promise<StepResult> {
    const watchEnds = row.updatedAt.getTime() + this.config.CANCEL_WATCH_MS;
    if (!watchesCancel(row) || Date.now() > watchEnds) return { wait: null };
    const cancelled = factsOf(row).intentEvents.some((e) => e.kind === 'intent_cancelled');
    if (!cancelled) return { wait: new Date(Math.min(watchEnds, Date.now() + this.config.FALLBACK_CHECK_MS * CANCEL_WATCH_FALLBACKS)) };
    const patched = await this.store.patch(row, { intentCancelled: true });
    if (!patched) return { again: true };
    this.logger.info({ txHash: row.txHash }, 'failed swap cancelled: input refunded');
    return { wait: null, row: patched, decidedOn: patched };
  }

  /** Hands a spoke source to the relay with its payload (idempotent; a failure is only logged: the fallback tries again). */
  private async handToRelay(row: SubmissionRow, src: ChainInfo): Promise<void> {
    await this.chains.relay
      .submit(src.relayChainId, row.txHash, { address: intentOf(row).creator, payload: row.relayData })
      .catch((error: unknown) => this.logger.debug({ err: error, txHash: row.txHash }, 'relay submit failed; tried again later'));
  }

  private async move(
    row: SubmissionRow,
    steps: { status: SubmissionStatus; detail: string }[],
    patch: SubmissionPatch = {},
    wakeAt: Date | null = this.fallback(),
  ): Promise<StepResult> {
    const moved = await this.store.transition(row, steps, patch, wakeAt);
    if (!moved) return { again: true };
    return moved.status === 'solved' ? { settled: true } : { next: moved };
  }

  private async fail(row: SubmissionRow, detail: string, userMessage: string, patch: SubmissionPatch = {}): Promise<StepResult> {
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
    return wakeAt ? { next: moved } : { settled: true };
  }

  /** Waits after storing what the step learnt (the not-found clock). */
  private async waitLearning(row: SubmissionRow, until: Date, patch: SubmissionPatch): Promise<StepResult> {
    const patched = await this.store.patch(row, patch);
    // Decided on `row`: an event since it was read (counted in the patched row) makes it look again.
    return patched ? { wait: until, row: patched, decidedOn: row } : { again: true };
  }

  private fallback(): Date {
    return after(this.config.FALLBACK_CHECK_MS);
  }
}

/** Two wake times within a second of each other (null: no wake at all). */
function sameTime(a: Date | null, b: Date | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a.getTime() - b.getTime()) < 1_000;
}

function after(ms: number): Date {
  return new Date(Date.now() + ms);
}

/** What the index said about the swap, read with its row (the store always reads them). */
function factsOf(row: SubmissionRow): SettlementFacts {
  if (!row.facts) throw new Error(`submission ${row.id} was read without its index facts`);
  return row.facts;
}

function intentOf(row: SubmissionRow): Intent {
  return row.intent as unknown as Intent;
}

/** When the swap last moved (its newest history entry). */
function lastMoveAt(row: SubmissionRow): number {
  const history = row.history as unknown as { at: string }[];
  return Date.parse(history.at(-1)?.at ?? row.createdAt.toISOString());
}

/** The statuses a swap's intent is open on the hub in: a failure from one of them leaves the input there, to cancel. */
const INTENT_OPEN: readonly string[] = ['posting_execution', 'posted_execution'];

/** A swap that failed after its intent was open on the hub, not yet cancelled: its refund is watched. */
function watchesCancel(row: Pick<SubmissionRow, 'verified' | 'hubTxHash' | 'intentCancelled' | 'failedAtStep'>): boolean {
  return Boolean(row.verified && row.hubTxHash && !row.intentCancelled && row.failedAtStep && INTENT_OPEN.includes(row.failedAtStep));
}
