import { encodeCreateIntent, intentEventsIn, spokeNetworkOf, type ChainInfo, type SpokeNetwork } from '@swap/chains';
import type { Intent } from '@swap/contracts';
import type { Address, Hex } from 'viem';
import type { RelayTrackerConfig } from '../relay-tracker.config';
import type { ClaimsService } from '../submissions/claims.service';
import type { SettlementChains } from './settlement-chains';
import { after, factsOf, intentOf, type StepOutcomes, type StepResult } from './settlement-steps';
import { checkHubSource, checkNetworkSource, checkSpokeSource, type SourceVerdict } from './source-check';
import type { SubmissionPatch, SubmissionRow, SubmissionStore } from './submission-store';

/** The swap's first step, pending → relaying: is its source transaction there, successful, and a swap. */
export class SourceSteps {
  constructor(
    private readonly store: SubmissionStore,
    private readonly chains: SettlementChains,
    private readonly claims: ClaimsService,
    private readonly config: RelayTrackerConfig,
    private readonly outcomes: StepOutcomes,
  ) {}

  /** pending → relaying (→ relayed from the hub): the source transaction, mined, successful, and a swap. */
  async checkSource(row: SubmissionRow): Promise<StepResult> {
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
        verdict = checkSpokeSource({ ...tx, status: 'success', logs: [] }, spokeContracts(src), intents, src.key, {
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
        return this.outcomes.fail(
          row,
          'source transaction reverted',
          `Your transaction on ${src.key} failed (it reverted), so nothing was deposited and no swap was opened.`,
        );
      }
      verdict = src.hub
        ? checkHubSource(tx, intentEventsIn(tx, intents), intents, src.key)
        : checkSpokeSource(tx, spokeContracts(src), intents, src.key);
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
      return this.outcomes.fail(
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
    if (!verdict.ok) return this.outcomes.fail(row, 'not a swap transaction', verdict.userMessage);
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
          this.outcomes.fallback(),
        )
      : await this.store.transition(
          row,
          [{ status: 'relaying', detail: `${confirmed}; handed to the relay` }],
          patch,
          this.outcomes.fallback(),
        );
    if (!moved) return { again: true };
    // Claims of repeated submits that were only compared with the first one are compared with the chain now.
    if (moved.claimsPending) await this.claims.settle(row.id, truth);
    if (!src.hub) await this.outcomes.handToRelay(moved, src);
    return { next: moved };
  }

  /** A source transaction no RPC knows: waited for within NOT_FOUND_WINDOW_MS (an event wakes it sooner), then failed. */
  private notFound(row: SubmissionRow, src: ChainInfo): Promise<StepResult> {
    const since = row.notFoundSince ?? new Date();
    const windowEnds = since.getTime() + this.config.NOT_FOUND_WINDOW_MS;
    if (Date.now() < windowEnds) {
      const until = new Date(Math.min(windowEnds, this.outcomes.fallback().getTime()));
      return row.notFoundSince ? Promise.resolve({ wait: until }) : this.outcomes.waitLearning(row, until, { notFoundSince: since });
    }
    const minutes = Math.round(this.config.NOT_FOUND_WINDOW_MS / 60_000);
    return this.outcomes.fail(
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
        return this.outcomes.fail(
          row,
          'source transaction not found',
          `The relay has not seen this transaction on ${src.key}: it was probably never broadcast or has expired. Nothing left your wallet for this swap.`,
        );
      }
      const until = after(this.config.STEP_POLL_MS);
      return row.notFoundSince ? { wait: until } : this.outcomes.waitLearning(row, until, { notFoundSince: since });
    }
    return this.outcomes.move(row, [{ status: 'relaying', detail: 'the relay has the source transaction' }], { notFoundSince: null });
  }
}

function spokeContracts(src: ChainInfo): { assetManager: Address; connection: Address | null } {
  return { assetManager: src.assetManager as Address, connection: src.connection as Address | null };
}
