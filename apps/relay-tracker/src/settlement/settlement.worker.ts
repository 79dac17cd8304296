import { Inject, Injectable } from '@nestjs/common';
import { intentEventsIn } from '@swap/chains';
import { AppError, ErrorCode, Subjects, type Intent, type SubmissionStatus } from '@swap/contracts';
import { backoffMs, MessagingClient, type WorkItem, type WorkResult } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import type { Address, Hex } from 'viem';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { ClaimsService } from '../submissions/claims.service';
import { SettlementChains } from './settlement-chains';
import { checkHubSource, checkSpokeSource } from './source-check';
import { SubmissionStore, type SubmissionPatch, type SubmissionRow } from './submission-store';

/** A failed swap's intent is looked at this often for a cancel. */
const CANCEL_WATCH_EVERY_MS = 5_000;

/**
 * One step of one swap per call: read where it is, look at the chain, the relay or the
 * marketplace, and move it on (a compare-and-set) or wait. Every transition is persisted
 * with its history entry before the work item is released, so a replica killed at any
 * moment leaves the swap where its last committed step put it, and the next replica to
 * take it repeats at most the step in progress (each is safe to repeat: reads, the relay's
 * idempotent submit, the marketplace's execute once per intent). Transient failures (a
 * chain or the relay unreachable, the bus) keep the swap in flight, count an attempt and
 * back off; only what the chain says makes a swap fail.
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
    const row = await this.store.find(item.id);
    if (!row) return { done: true };
    try {
      return await this.step(row);
    } catch (error) {
      this.logger.warn(
        { err: error, txHash: row.txHash, status: row.status },
        'settlement step failed; the swap stays in flight and is retried',
      );
      await this.store.touch(row).catch(() => undefined);
      return { retryInMs: backoffMs(row.processingAttempts + 1) };
    }
  }

  private step(row: SubmissionRow): Promise<WorkResult> {
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
        return Promise.resolve({ done: true });
    }
  }

  /** pending → relaying (→ relayed from the hub): the source transaction, mined, successful, and a swap. */
  private async checkSource(row: SubmissionRow): Promise<WorkResult> {
    const src = this.chains.chain(row.srcChainKey);
    if (src.type !== 'EVM') return this.checkViaRelay(row);
    const tx = await this.chains.access.evm(src, (a) => a.minedTransaction(row.txHash as Hex));
    if (!tx) {
      // The RPC answered (an error would have thrown): it does not know the transaction.
      if (!row.notFoundSince) return this.wait(row, { notFoundSince: new Date() });
      if (Date.now() - row.notFoundSince.getTime() < this.config.NOT_FOUND_WINDOW_MS) return this.wait(row);
      const minutes = Math.round(this.config.NOT_FOUND_WINDOW_MS / 60_000);
      return this.fail(
        row,
        'source transaction not found',
        `We could not find this transaction on ${src.key} for ${minutes} minute${minutes === 1 ? '' : 's'}: it was probably never broadcast, or it was replaced. Nothing left your wallet for this swap.`,
      );
    }
    if (tx.status === 'reverted') {
      return this.fail(
        row,
        'source transaction reverted',
        `Your transaction on ${src.key} failed (it reverted), so nothing was deposited and no swap was opened.`,
      );
    }
    const intents = this.chains.intents();
    const verdict = src.hub
      ? checkHubSource(tx, intentEventsIn(tx, intents), intents, src.key)
      : checkSpokeSource(tx, src.assetManager as Address, intents, src.key);
    if (!verdict.ok) return this.fail(row, 'not a swap transaction', verdict.userMessage);
    await this.claims.checkAgainstChain(row, {
      intent: verdict.intent,
      intentHash: verdict.intentHash,
      payload: verdict.payload,
      from: tx.from,
    });
    // The swap's sender is the transaction's, whoever submitted it first.
    const truth: SubmissionPatch = {
      verified: true,
      intent: verdict.intent as never,
      intentHash: verdict.intentHash,
      relayData: verdict.payload,
      walletAddress: tx.from,
      notFoundSince: null,
    };
    const confirmed = `source transaction confirmed in block ${tx.blockNumber}`;
    const moved = src.hub
      ? await this.move(
          row,
          [
            { status: 'relaying', detail: confirmed },
            { status: 'relayed', detail: 'a hub source: the intent is on the hub, no relay needed' },
          ],
          { ...truth, hubTxHash: row.txHash },
        )
      : await this.move(row, [{ status: 'relaying', detail: `${confirmed}; handed to the relay` }], truth);
    await this.claims.settle(row.id, { intentHash: verdict.intentHash, payload: verdict.payload, from: tx.from });
    return moved;
  }

  /** A source the platform cannot read itself (Solana here): the relay's packets say it exists. */
  private async checkViaRelay(row: SubmissionRow): Promise<WorkResult> {
    const src = this.chains.chain(row.srcChainKey);
    const packets = await this.chains.relay.transactionPackets(src.relayChainId, row.txHash);
    if (packets.length === 0) {
      await this.chains.relay.submit(src.relayChainId, row.txHash, { address: this.intentOf(row).creator, payload: row.relayData });
      if (!row.notFoundSince) return this.wait(row, { notFoundSince: new Date() });
      if (Date.now() - row.notFoundSince.getTime() < this.config.NOT_FOUND_WINDOW_MS) return this.wait(row);
      return this.fail(
        row,
        'source transaction not found',
        `The relay has not seen this transaction on ${src.key}: it was probably never broadcast or has expired. Nothing left your wallet for this swap.`,
      );
    }
    return this.move(row, [{ status: 'relaying', detail: 'the relay has the source transaction' }], { notFoundSince: null });
  }

  /** relaying → relayed: the relay delivered the message to the hub, and the intent is open there. */
  private async followRelay(row: SubmissionRow): Promise<WorkResult> {
    const src = this.chains.chain(row.srcChainKey);
    const hub = this.chains.hub;
    const packets = await this.chains.relay.transactionPackets(src.relayChainId, row.txHash);
    if (packets.length === 0) {
      await this.chains.relay.submit(src.relayChainId, row.txHash, { address: this.intentOf(row).creator, payload: row.relayData });
      return this.wait(row);
    }
    const toHub = packets.find((p) => p.dst_chain_id === hub.relayChainId);
    if (!toHub || toHub.status !== 'executed' || !toHub.dst_tx_hash) return this.wait(row);
    const hubTx = toHub.dst_tx_hash.toLowerCase() as Hex;
    const events = await this.chains.access.evm(hub, (a) => a.intentEvents(hubTx, this.chains.intents()));
    if (!events) return this.wait(row);
    if (events.created.some((c) => c.intentHash.toLowerCase() === row.intentHash)) {
      return this.move(row, [{ status: 'relayed', detail: `delivered to the hub in ${hubTx}` }], { hubTxHash: hubTx });
    }
    return this.fail(
      row,
      'the hub could not open the intent',
      'Your deposit reached the hub, but the swap could not be opened there (its deadline may have passed on the way). The deposit waits in your wallet on the hub.',
      { hubTxHash: hubTx },
    );
  }

  /** relayed → posting_execution → posted_execution: the intent handed to the solver marketplace. */
  private async post(row: SubmissionRow): Promise<WorkResult> {
    let current = row;
    if (current.status === 'relayed') {
      if (!(await this.store.transition(current, [{ status: 'posting_execution', detail: 'handing the intent to the solvers' }])))
        return { retryInMs: 0 };
      current = (await this.store.find(row.id))!;
    }
    try {
      await this.messaging.request(Subjects.intentExecute, { intent_tx_hash: current.hubTxHash! });
    } catch (error) {
      // The marketplace refusing the intent for good is final; its being unreachable is not.
      if (error instanceof AppError && error.getStatus() < 500 && error.code !== ErrorCode.IntentNotFound) {
        return this.fail(
          current,
          'the solver marketplace refused the intent',
          `The solver marketplace refused this swap: ${error.message}`,
        );
      }
      throw error;
    }
    return this.move(current, [{ status: 'posted_execution', detail: 'posted to the solver marketplace' }]);
  }

  /** posted_execution → solved: filled on the hub (and, for a spoke destination, delivered there); or the deadline passed. */
  private async watchFill(row: SubmissionRow): Promise<WorkResult> {
    const hub = this.chains.hub;
    const intents = this.chains.intents();
    const intent = this.intentOf(row);
    const state = await this.chains.access.evm(hub, (a) => a.intentState(intents, row.intentHash as Hex));
    if (state.exists) {
      const deadline = BigInt(intent.deadline);
      if (deadline !== 0n && (await this.chains.access.evm(hub, (a) => a.latestBlockTime())) > deadline) {
        return this.fail(
          row,
          'deadline passed unfilled',
          `No solver filled your swap before its deadline (${new Date(Number(deadline) * 1000).toISOString()}). Your input is held for you on the hub and can be recovered with a cancel: POST /v1/swaps/intents/cancel with this swap's intent.`,
        );
      }
      return this.wait(row);
    }
    if (state.receivedOutput === 0n) {
      return this.fail(row, 'intent cancelled', 'The swap was cancelled before a solver filled it; its input was refunded.', {
        intentCancelled: true,
      });
    }
    const fill = (row.fillTxHash as Hex | null) ?? (await this.findFill(row));
    if (!fill) return this.wait(row);
    if (intent.dstChain === hub.relayChainId)
      return this.move(row, [{ status: 'solved', detail: `filled in ${fill}` }], { fillTxHash: fill });
    const dst = this.chains.byRelayId(intent.dstChain);
    const packets = await this.chains.relay.transactionPackets(hub.relayChainId, fill);
    const delivery = packets.find((p) => p.dst_chain_id === intent.dstChain);
    if (!delivery) {
      if (packets.length === 0) await this.chains.relay.submit(hub.relayChainId, fill);
      return this.wait(row, { fillTxHash: fill });
    }
    if (delivery.status !== 'executed' || !delivery.dst_tx_hash) return this.wait(row, { fillTxHash: fill });
    const deliveryTx = delivery.dst_tx_hash.toLowerCase();
    return this.move(
      row,
      [{ status: 'solved', detail: `filled in ${fill}; delivered on ${dst?.key ?? intent.dstChain} in ${deliveryTx}` }],
      { fillTxHash: fill, deliveryTxHash: deliveryTx },
    );
  }

  /** The fill transaction: as the marketplace knows it, or read from the hub's IntentFilled events. */
  private async findFill(row: SubmissionRow): Promise<Hex | undefined> {
    try {
      const status = await this.messaging.request(Subjects.intentSolverStatus, { intentTxHash: row.hubTxHash! });
      if (status.fillTxHash) return status.fillTxHash.toLowerCase() as Hex;
    } catch (error) {
      this.logger.debug({ err: error }, 'the marketplace did not say; reading the hub');
    }
    const hub = this.chains.hub;
    const created = await this.chains.access.evm(hub, (a) => a.minedTransaction(row.hubTxHash as Hex));
    const tx = await this.chains.access.evm(hub, (a) =>
      a.intentEventTx(this.chains.intents(), 'IntentFilled', row.intentHash as Hex, created?.blockNumber ?? 0n),
    );
    return tx?.toLowerCase() as Hex | undefined;
  }

  /** A failed swap whose intent is open on the hub: watched for a cancel, for CANCEL_WATCH_MS. */
  private async watchCancel(row: SubmissionRow): Promise<WorkResult> {
    const watched = row.verified && row.hubTxHash && !row.intentCancelled && row.failedAtStep === 'posted_execution';
    if (!watched || Date.now() - row.updatedAt.getTime() > this.config.CANCEL_WATCH_MS) return { done: true };
    const state = await this.chains.access.evm(this.chains.hub, (a) => a.intentState(this.chains.intents(), row.intentHash as Hex));
    if (!state.exists && state.receivedOutput === 0n) {
      await this.store.touch(row, { intentCancelled: true });
      this.logger.info({ txHash: row.txHash }, 'failed swap cancelled: input refunded');
      return { done: true };
    }
    return { retryInMs: CANCEL_WATCH_EVERY_MS };
  }

  private async move(
    row: SubmissionRow,
    steps: { status: SubmissionStatus; detail: string }[],
    patch?: SubmissionPatch,
  ): Promise<WorkResult> {
    await this.store.transition(row, steps, patch);
    // Moved (or moved by another replica meanwhile): the next step is looked at at once.
    return { retryInMs: 0 };
  }

  private async fail(row: SubmissionRow, detail: string, userMessage: string, patch: SubmissionPatch = {}): Promise<WorkResult> {
    const moved = await this.store.transition(row, [{ status: 'failed', detail }], { ...patch, userMessage, failedAtStep: row.status });
    if (!moved) return { retryInMs: 0 };
    // A failed swap whose intent is open keeps a slow watch for its cancel.
    return row.status === 'posted_execution' && !patch.intentCancelled ? { retryInMs: CANCEL_WATCH_EVERY_MS } : { done: true };
  }

  /** Nothing to do yet (not mined, not relayed, not filled): look again soon; only errors count as attempts. */
  private async wait(row: SubmissionRow, patch?: SubmissionPatch): Promise<WorkResult> {
    if (patch) await this.store.patch(row, patch);
    return { retryInMs: this.config.STEP_POLL_MS };
  }

  private intentOf(row: SubmissionRow): Intent {
    return row.intent as unknown as Intent;
  }
}
