import type { BlockRef, ChainAccess, ChainInfo, EvmAdapter } from '@swap/chains';
import type { ChainEventBatch, IndexedChainEvent } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import type { Hex, Log } from 'viem';
import type { RelayTrackerMetrics } from '../relay-tracker.metrics';
import type { ChainEventFeed } from './chain-event-feed';
import { LostLeaseError, type ChainIndex } from './chain-index';
import { deepRewindHeight, firstCursorHeight, forkPoint, planStep, reorgWindow, type FollowCursor } from './follow-plan';
import { decodeLogs, watchedContracts } from './log-decoding';

export interface FollowerSettings {
  confirmations: number;
  pollMs: number;
  backfillBlocks: number;
  maxRange: number;
}

export interface FollowerDeps {
  chain: ChainInfo;
  holder: string;
  access: ChainAccess;
  index: ChainIndex;
  feed: Pick<ChainEventFeed, 'publish'>;
  metrics: RelayTrackerMetrics;
  logger: Logger;
}

/** A range without events moves the stored cursor at most this often, so the hub's clock for deadlines is at most this stale. */
const EMPTY_COMMIT_MS = 2_000;

const backoff = (failures: number) => Math.min(30_000, 500 * 2 ** Math.min(failures - 1, 6));

/** Reads one chain into the index while this replica holds its lease; see docs/architecture/settlement.md#chain-followers. */
export class ChainFollower {
  private cursor?: FollowCursor;
  /** The stored cursor, behind `cursor` while ranges without events wait for EMPTY_COMMIT_MS. */
  private committed?: FollowCursor;
  private committedAt = 0;
  private cursorTime?: number;
  private published?: bigint;
  private stopped = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private readonly contracts;

  constructor(
    private readonly deps: FollowerDeps,
    private readonly settings: FollowerSettings,
  ) {
    this.contracts = watchedContracts(deps.chain);
  }

  get chainKey(): string {
    return this.deps.chain.key;
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let busy: boolean;
      try {
        busy = await this.tick();
        failures = 0;
      } catch (error) {
        if (error instanceof LostLeaseError) {
          this.deps.logger.warn({ chain: this.chainKey }, 'chain follower lost its lease; a peer follows the chain');
          return;
        }
        failures++;
        // A chain down for minutes is one line per ten failures, not a log flood.
        if (failures === 1 || failures % 10 === 0)
          this.deps.logger.warn({ err: error, chain: this.chainKey, failures }, 'chain follower read failed; retrying with back-off');
        await this.sleep(backoff(failures));
        continue;
      }
      if (!busy) await this.sleep(this.settings.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private read<T>(fn: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    return this.deps.access.evm(this.deps.chain, fn);
  }

  /** True when there is more to read at once. */
  private async tick(): Promise<boolean> {
    if (!this.cursor) {
      await this.load();
      return true;
    }
    if (this.published !== undefined && this.published < this.cursor.number) await this.republish(this.published + 1n, this.cursor.number);
    const head = await this.read((a) => a.latestBlock());
    this.observeLag(head);
    const step = planStep(this.cursor, head, this.settings.confirmations, this.settings.maxRange);
    if (step.kind === 'idle') return false;
    if (step.kind === 'rewind') {
      await this.rewind();
      return true;
    }
    if (step.checkCursor) {
      const atCursor = await this.read((a) => a.blockAt(this.cursor!.number));
      if (!atCursor || atCursor.hash.toLowerCase() !== this.cursor.hash.toLowerCase()) {
        await this.rewind();
        return true;
      }
    }
    const logs = await this.read((a) =>
      a.logsOf(
        this.contracts.map((c) => c.address),
        step.from,
        step.to,
      ),
    );
    const last = step.to === head.number ? head : await this.read((a) => a.blockAt(step.to));
    // A reorganisation between the calls: read again.
    if (!last || logs.some((l) => l.blockNumber === step.to && l.blockHash?.toLowerCase() !== last.hash.toLowerCase())) return true;
    const times = await this.blockTimes(logs, last);
    const events = decodeLogs(this.deps.chain, this.contracts, logs, (n) => times.get(n)!);
    await this.nameSolvers(events);
    const blocks = new Map<bigint, string>([[last.number, last.hash.toLowerCase()]]);
    for (const log of logs) if (log.blockNumber !== null && log.blockHash) blocks.set(log.blockNumber, log.blockHash.toLowerCase());
    if (events.length > 0 || Date.now() - this.committedAt >= EMPTY_COMMIT_MS) {
      await this.deps.index.commit(this.chainKey, this.deps.holder, {
        expected: this.committed,
        to: { number: last.number, hash: last.hash.toLowerCase(), time: new Date(Number(last.timestamp) * 1000) },
        events,
        blocks: [...blocks].map(([number, hash]) => ({ number, hash })),
        publishedThrough: this.published,
        keepBlocks: reorgWindow(this.settings.confirmations),
      });
      this.committed = { number: last.number, hash: last.hash.toLowerCase() };
      this.committedAt = Date.now();
    }
    this.cursor = { number: last.number, hash: last.hash.toLowerCase() };
    this.cursorTime = Number(last.timestamp) * 1000;
    for (const event of events) this.deps.metrics.chainEvents.inc({ chain: this.chainKey, kind: event.kind });
    this.observeLag(head);
    await this.hand({ chainKey: this.chainKey, fromBlock: step.from.toString(), toBlock: step.to.toString(), events });
    this.published = step.to;
    return step.to < head.number - BigInt(this.settings.confirmations);
  }

  private async load(): Promise<void> {
    const state = await this.deps.index.state(this.chainKey);
    if (state?.cursor) {
      this.cursor = state.cursor;
      this.committed = state.cursor;
      this.committedAt = Date.now();
      this.cursorTime = state.cursorTime?.getTime();
      this.published = state.publishedThrough ?? state.cursor.number;
      this.deps.logger.info({ chain: this.chainKey, cursor: state.cursor.number.toString() }, 'chain follower resumes from its cursor');
      return;
    }
    const head = await this.read((a) => a.latestBlock());
    const height = firstCursorHeight(head.number, this.settings.confirmations, this.settings.backfillBlocks);
    const start = height === head.number ? head : await this.read((a) => a.blockAt(height));
    if (!start) throw new Error(`${this.chainKey} has no block ${height}`);
    const cursor = { number: start.number, hash: start.hash.toLowerCase() };
    await this.deps.index.commit(this.chainKey, this.deps.holder, {
      expected: undefined,
      to: { ...cursor, time: new Date(Number(start.timestamp) * 1000) },
      events: [],
      blocks: [cursor],
      publishedThrough: cursor.number,
      keepBlocks: reorgWindow(this.settings.confirmations),
    });
    this.cursor = cursor;
    this.committed = cursor;
    this.committedAt = Date.now();
    this.cursorTime = Number(start.timestamp) * 1000;
    this.published = cursor.number;
    this.deps.logger.info({ chain: this.chainKey, cursor: cursor.number.toString() }, 'chain follower starts (first run)');
  }

  /** The blocks kept are those committed, so the fork is at most the stored cursor (ranges past it had no events). */
  private async rewind(): Promise<void> {
    const from = this.committed!;
    const window = reorgWindow(this.settings.confirmations);
    const known = await this.deps.index.recentBlocks(this.chainKey, window);
    let fork = await forkPoint(known, async (n) => (await this.read((a) => a.blockAt(n)))?.hash);
    if (!fork) {
      const head = await this.read((a) => a.latestBlock());
      const { height, newChain } = deepRewindHeight(known.at(-1)?.number ?? from.number, head.number);
      const block = await this.read((a) => a.blockAt(height));
      if (!block) throw new Error(`${this.chainKey} has no block ${height}`);
      fork = { number: block.number, hash: block.hash.toLowerCase() };
      if (newChain)
        this.deps.logger.warn(
          { chain: this.chainKey, cursor: from.number.toString(), head: head.number.toString() },
          'the chain is shorter than the blocks kept: another chain under this key (a devnet restarted?); reading it from its first block',
        );
      else this.deps.logger.error({ chain: this.chainKey, cursor: from.number.toString() }, 'reorganisation deeper than the blocks kept');
    }
    const forkBlock = await this.read((a) => a.blockAt(fork.number));
    const retracted = await this.deps.index.rewind(this.chainKey, this.deps.holder, from, {
      ...fork,
      time: forkBlock ? new Date(Number(forkBlock.timestamp) * 1000) : undefined,
    });
    this.cursor = fork;
    this.committed = fork;
    this.committedAt = Date.now();
    this.cursorTime = forkBlock ? Number(forkBlock.timestamp) * 1000 : this.cursorTime;
    if (this.published !== undefined && this.published > fork.number) this.published = fork.number;
    this.deps.metrics.chainReorgs.inc({ chain: this.chainKey });
    this.deps.logger.warn(
      { chain: this.chainKey, from: from.number.toString(), fork: fork.number.toString(), retracted: retracted.length },
      'chain reorganised: events after the fork retracted',
    );
    if (retracted.length)
      await this.hand({
        chainKey: this.chainKey,
        fromBlock: (fork.number + 1n).toString(),
        toBlock: from.number.toString(),
        events: [],
        retractedAfter: fork.number.toString(),
        retracted,
      });
  }

  /** What the index holds past the last batch handed out (a predecessor died, or a publish failed). */
  private async republish(from: bigint, to: bigint): Promise<void> {
    for (let start = from; start <= to; start += BigInt(this.settings.maxRange)) {
      const end = start + BigInt(this.settings.maxRange) - 1n < to ? start + BigInt(this.settings.maxRange) - 1n : to;
      const events = await this.deps.index.eventsBetween(this.chainKey, start, end);
      if (events.length)
        await this.deps.feed.publish({ chainKey: this.chainKey, fromBlock: start.toString(), toBlock: end.toString(), events });
      this.published = end;
    }
    await this.deps.index.markPublished(this.chainKey, this.deps.holder, to);
  }

  private async hand(batch: ChainEventBatch): Promise<void> {
    if (batch.events.length === 0 && !batch.retracted?.length) return;
    await this.deps.feed.publish(batch);
    await this.deps.index.markPublished(this.chainKey, this.deps.holder, BigInt(batch.toBlock));
  }

  /** From the logs where the node gives it, else asked once per block. */
  private async blockTimes(logs: Log[], last: BlockRef): Promise<Map<bigint, Date>> {
    const times = new Map<bigint, Date>([[last.number, new Date(Number(last.timestamp) * 1000)]]);
    for (const log of logs) {
      const stamp = (log as Log & { blockTimestamp?: bigint | null }).blockTimestamp;
      if (log.blockNumber !== null && typeof stamp === 'bigint') times.set(log.blockNumber, new Date(Number(stamp) * 1000));
    }
    for (const log of logs) {
      if (log.blockNumber === null || times.has(log.blockNumber)) continue;
      const block = await this.read((a) => a.blockAt(log.blockNumber!));
      if (block) times.set(block.number, new Date(Number(block.timestamp) * 1000));
    }
    return times;
  }

  /** The fill transaction's sender (the event does not name the solver). */
  private async nameSolvers(events: IndexedChainEvent[]): Promise<void> {
    const senders = new Map<string, string | undefined>();
    for (const event of events) {
      if (event.kind !== 'intent_filled') continue;
      if (!senders.has(event.txHash))
        senders.set(event.txHash, (await this.read((a) => a.transaction(event.txHash as Hex)))?.from.toLowerCase());
      const solver = senders.get(event.txHash);
      if (solver) event.data = { ...event.data, solver };
    }
  }

  private observeLag(head: BlockRef): void {
    const cursor = this.cursor;
    if (!cursor) return;
    const labels = { chain: this.chainKey };
    this.deps.metrics.followerLagBlocks.set(labels, Number(head.number > cursor.number ? head.number - cursor.number : 0n));
    if (this.cursorTime) this.deps.metrics.followerLagSeconds.set(labels, Math.max(0, Number(head.timestamp) - this.cursorTime / 1000));
  }
}
