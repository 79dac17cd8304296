import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ChainInfo, ChainDirectory } from '@swap/chains';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { RelayTrackerMetrics } from '../relay-tracker.metrics';
import { SettlementChains } from '../settlement/settlement-chains';
import { ChainEventFeed } from './chain-event-feed';
import { ChainFollower } from './chain-follower';
import { ChainIndex } from './chain-index';
import { FollowerPool } from './follower-pool';
import { LeaseKeeper, PgLeaseStore } from './follower-leases';
import { followedChains } from './log-decoding';

/** An unknown chain key stops the service at start. */
export function confirmationsByChain(directory: ChainDirectory, list: string | undefined): Map<string, number> {
  const depths = new Map<string, number>();
  for (const pair of list?.split(',') ?? []) {
    const [key, blocks] = pair.split('=');
    const chain = directory.findChain(key);
    if (!chain) throw new Error(`FOLLOWER_CONFIRMATIONS names an unknown chain: ${key}`);
    depths.set(chain.key, Number(blocks));
  }
  return depths;
}

/** A ChainFollower for each chain lease this replica holds; see docs/architecture/settlement.md#chain-followers. */
@Injectable()
export class ChainFollowers implements OnModuleInit, OnModuleDestroy {
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly running = new Map<string, ChainFollower>();
  private keeper?: LeaseKeeper;
  private readonly chainList: ChainInfo[];
  private readonly depths: Map<string, number>;

  constructor(
    private readonly followerPool: FollowerPool,
    private readonly chains: SettlementChains,
    private readonly index: ChainIndex,
    private readonly feed: ChainEventFeed,
    private readonly metrics: RelayTrackerMetrics,
    private readonly config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.chainList = followedChains(chains.directory);
    // Series exist from the start, so alerts on a sum or a rate see zeros rather than nothing.
    for (const { key } of this.chainList) {
      metrics.followerHeld.set({ chain: key }, 0);
      metrics.chainReorgs.inc({ chain: key }, 0);
      metrics.rpcRequests.inc({ chain: key }, 0);
      metrics.rpcErrors.inc({ chain: key }, 0);
    }
    this.depths = confirmationsByChain(chains.directory, config.FOLLOWER_CONFIRMATIONS);
  }

  held(): string[] {
    return [...this.running.keys()];
  }

  async onModuleInit(): Promise<void> {
    const skipped = this.chains.directory.chains.filter((c) => c.type === 'EVM' && !this.chains.followed(c.key)).map((c) => c.key);
    if (skipped.length) this.logger.info({ chains: skipped }, 'EVM chains without an RPC endpoint or contracts are not followed');
    await this.index.ensureFollowers(this.chainList.map((c) => c.key));
    await this.feed.open();
    this.keeper = new LeaseKeeper(new PgLeaseStore(this.followerPool.pool), {
      chains: this.chainList.map((c) => c.key),
      holder: this.holder,
      leaseMs: this.config.FOLLOWER_LEASE_MS,
      everyMs: Math.max(200, Math.floor(this.config.FOLLOWER_LEASE_MS / 5)),
      onGained: (key) => this.follow(key),
      onLost: (key) => void this.unfollow(key),
      onError: (error) => this.logger.warn({ err: error }, 'follower leases could not be renewed'),
    });
    this.keeper.start();
  }

  async onModuleDestroy(): Promise<void> {
    const stopping = [...this.running.values()].map((f) => f.stop());
    // Released only once the followers stopped: a peer taking over never overlaps them.
    await this.keeper?.stop(true, async () => void (await Promise.all(stopping)));
  }

  private follow(chainKey: string): void {
    const chain = this.chainList.find((c) => c.key === chainKey)!;
    const follower = new ChainFollower(
      {
        chain,
        holder: this.holder,
        access: this.chains.access,
        index: this.index,
        feed: this.feed,
        metrics: this.metrics,
        logger: this.logger,
      },
      {
        confirmations: this.depths.get(chainKey) ?? 0,
        pollMs: this.config.FOLLOWER_POLL_MS,
        backfillBlocks: this.config.FOLLOWER_BACKFILL_BLOCKS,
        maxRange: this.config.FOLLOWER_MAX_RANGE,
      },
    );
    this.running.set(chainKey, follower);
    this.metrics.followerHeld.set({ chain: chainKey }, 1);
    this.logger.info({ chain: chainKey, holder: this.holder }, 'following chain');
    follower.start();
  }

  private async unfollow(chainKey: string): Promise<void> {
    const follower = this.running.get(chainKey);
    if (!follower) return;
    this.running.delete(chainKey);
    await follower.stop();
    this.metrics.followerHeld.set({ chain: chainKey }, 0);
    this.metrics.followerLagBlocks.remove({ chain: chainKey });
    this.metrics.followerLagSeconds.remove({ chain: chainKey });
  }
}
