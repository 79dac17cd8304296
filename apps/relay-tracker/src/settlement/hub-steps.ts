import { AppError, ErrorCode, Subjects, type Intent } from '@swap/contracts';
import type { MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import type { RelayTrackerConfig } from '../relay-tracker.config';
import type { SettlementChains } from './settlement-chains';
import {
  after,
  CANCEL_WATCH_FALLBACKS,
  factsOf,
  HELD_ON_THE_HUB,
  intentOf,
  lastMoveAt,
  watchesCancel,
  type StepOutcomes,
  type StepResult,
} from './settlement-steps';
import type { SubmissionRow, SubmissionStore } from './submission-store';

/** The swap's steps on the hub: relayed, handed to the solvers, filled (and delivered), or failed and watched for its cancel. */
export class HubSteps {
  constructor(
    private readonly store: SubmissionStore,
    private readonly chains: SettlementChains,
    private readonly messaging: MessagingClient,
    private readonly config: RelayTrackerConfig,
    private readonly logger: Logger,
    private readonly outcomes: StepOutcomes,
  ) {}

  /** relaying → relayed (→ posting_execution): the hub follower saw the intent created (whoever relayed it). */
  async followRelay(row: SubmissionRow): Promise<StepResult> {
    const src = this.chains.chain(row.srcChainKey);
    const facts = factsOf(row);
    const created = facts.intentEvents.find((e) => e.kind === 'intent_created');
    // The source's message delivered to the hub with calls that failed (the devnet's hub entry says so in its event).
    const refused = facts.sourceDeliveries.find(
      (e) => e.peerChain === src.relayChainId && (e.data as { ok?: boolean } | undefined)?.ok === false,
    );
    if (created) {
      // Relayed, and handed to the solvers at once: one write for both steps.
      return this.outcomes.move(
        row,
        [
          { status: 'relayed', detail: `delivered to the hub in ${created.txHash}` },
          { status: 'posting_execution', detail: 'handing the intent to the solvers' },
        ],
        { hubTxHash: created.txHash },
      );
    }
    if (refused) {
      return this.outcomes.fail(
        row,
        'the hub could not open the intent',
        'Your deposit reached the hub, but the swap could not be opened there (its deadline may have passed on the way). The deposit waits in your wallet on the hub.',
        { hubTxHash: refused.txHash },
      );
    }
    // Nothing for a while: the relay is reminded (its submit is idempotent), once per fallback period.
    if (src.type === 'EVM' && Date.now() - lastMoveAt(row) >= this.config.FALLBACK_CHECK_MS) await this.outcomes.handToRelay(row, src);
    return { wait: this.outcomes.fallback() };
  }

  /** relayed → posting_execution → posted_execution: the intent handed to the solver marketplace. */
  async post(row: SubmissionRow): Promise<StepResult> {
    let current = row;
    if (current.status === 'relayed') {
      const moved = await this.store.transition(
        current,
        [{ status: 'posting_execution', detail: 'handing the intent to the solvers' }],
        {},
        this.outcomes.fallback(),
      );
      if (!moved) return { again: true };
      current = moved;
    }
    try {
      await this.messaging.request(Subjects.intentExecute, { intent_tx_hash: current.hubTxHash! });
    } catch (error) {
      // The marketplace refusing the intent for good is final; its being unreachable is not.
      if (error instanceof AppError && error.getStatus() < 500 && error.code !== ErrorCode.IntentNotFound) {
        return this.outcomes.fail(
          current,
          'the solver marketplace refused the intent',
          `The solver marketplace refused this swap: ${error.message.replace(/\.?$/, '.')} ${HELD_ON_THE_HUB}`,
        );
      }
      throw error;
    }
    return this.outcomes.move(current, [{ status: 'posted_execution', detail: 'posted to the solver marketplace' }]);
  }

  /** posted_execution → solved: filled on the hub (and, for a spoke destination, delivered there); or cancelled; or the deadline passed. */
  async watchFill(row: SubmissionRow): Promise<StepResult> {
    const hub = this.chains.hub;
    const intent = intentOf(row);
    const { intentEvents: events, hubTime } = factsOf(row);
    const filled = events.find(
      (e) => e.kind === 'intent_filled' && (e.data as { remainingInput?: string } | undefined)?.remainingInput === '0',
    );
    if (filled) {
      const fill = filled.txHash;
      if (intent.dstChain === hub.relayChainId)
        return this.outcomes.move(row, [{ status: 'solved', detail: `filled in ${fill}` }], { fillTxHash: fill }, null);
      return this.watchDelivery(row, intent, fill);
    }
    if (events.some((e) => e.kind === 'intent_cancelled')) {
      return this.outcomes.fail(row, 'intent cancelled', 'The swap was cancelled before a solver filled it; its input was refunded.', {
        intentCancelled: true,
      });
    }
    const deadline = BigInt(intent.deadline);
    if (deadline === 0n) return { wait: this.outcomes.fallback() };
    // The index holds every event up to the hub cursor: past the deadline there, no fill can come.
    if (hubTime && BigInt(Math.floor(hubTime.getTime() / 1000)) > deadline) {
      return this.outcomes.fail(
        row,
        'deadline passed unfilled',
        `No solver filled your swap before its deadline (${new Date(Number(deadline) * 1000).toISOString()}). ${HELD_ON_THE_HUB}`,
      );
    }
    const deadlineMs = Number(deadline) * 1000 + 1_000;
    // Past the deadline by the wall clock but not yet by the hub follower's: each second at first (a block or a poll behind), then every 5 s (it lags, or is down).
    const now = Date.now();
    const next = now < deadlineMs ? deadlineMs : now + (now < deadlineMs + 10_000 ? 1_000 : 5_000);
    return { wait: new Date(Math.min(this.outcomes.fallback().getTime(), next)) };
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
    return { wait: followed ? this.outcomes.fallback() : after(this.config.STEP_POLL_MS), row: current, decidedOn: current };
  }

  private solvedOn(row: SubmissionRow, fill: string, dstKey: string, deliveryTx: string): Promise<StepResult> {
    return this.outcomes.move(
      row,
      [{ status: 'solved', detail: `filled in ${fill}; delivered on ${dstKey} in ${deliveryTx}` }],
      { fillTxHash: fill, deliveryTxHash: deliveryTx },
      null,
    );
  }

  /** A failed swap whose intent is open on the hub: watched for a cancel, for CANCEL_WATCH_MS. */
  async watchCancel(row: SubmissionRow): Promise<StepResult> {
    const watchEnds = row.updatedAt.getTime() + this.config.CANCEL_WATCH_MS;
    if (!watchesCancel(row) || Date.now() > watchEnds) return { wait: null };
    const cancelled = factsOf(row).intentEvents.some((e) => e.kind === 'intent_cancelled');
    if (!cancelled) return { wait: new Date(Math.min(watchEnds, Date.now() + this.config.FALLBACK_CHECK_MS * CANCEL_WATCH_FALLBACKS)) };
    const patched = await this.store.patch(row, { intentCancelled: true });
    if (!patched) return { again: true };
    this.logger.info({ txHash: row.txHash }, 'failed swap cancelled: input refunded');
    return { wait: null, row: patched, decidedOn: patched };
  }
}
