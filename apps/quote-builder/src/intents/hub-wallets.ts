import { checksummedAddress } from '@swap/contracts';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Cache } from '@swap/cache';
import { ChainAccess, type ChainInfo } from '@swap/chains';
import { ServiceMetrics } from '@swap/observability';
import { CACHE } from '@swap/service-kit';
import { Counter } from 'prom-client';
import { isAddress, type Address, type Hex } from 'viem';

export const HUB_WALLETS_IN_PROCESS = 10_000;
/** It never changes, but a day bounds what idle senders leave in Redis and what a redeployed factory leaves stale. */
const SHARED_TTL_MS = 24 * 3_600_000;

/** A spoke user's hub wallet, read once and kept; see docs/architecture/chains.md#hub-wallets. */
@Injectable()
export class HubWallets {
  private readonly near = new Map<string, Address>();
  inProcessLimit = HUB_WALLETS_IN_PROCESS;
  private readonly reading = new Map<string, Promise<Address>>();
  private readonly lookups: Counter<'tier'>;

  constructor(
    private readonly chains: ChainAccess,
    metrics: ServiceMetrics,
    @Optional() @Inject(CACHE) private readonly cache?: Cache,
  ) {
    this.lookups = new Counter({
      name: 'hub_wallet_lookups_total',
      help: "Hub wallet lookups of intent builds, by where the answer came from (process: this replica's memory; shared: the cache; chain: the hub's wallet factory)",
      labelNames: ['tier'],
      registers: [metrics.registry],
    });
  }

  of(hub: ChainInfo, factory: Address, relayChainId: bigint, user: Hex): Promise<Address> {
    // Joined, one flat string: a template makes a tree of pieces that a kept key holds on to (4.4 MB for 10 000 users, 2.5 MB joined).
    const key = ['hub-wallet', hub.key, factory.toLowerCase(), relayChainId, user.toLowerCase()].join(':');
    const known = this.near.get(key);
    if (known) {
      // Most recently used last: the first in the map is the one to drop.
      this.near.delete(key);
      this.near.set(key, known);
      this.lookups.inc({ tier: 'process' });
      return Promise.resolve(known);
    }
    let pending = this.reading.get(key);
    if (!pending) {
      pending = this.lookUp(key, () => this.chains.evm(hub, (a) => a.hubWalletOf(factory, relayChainId, user))).finally(() =>
        this.reading.delete(key),
      );
      this.reading.set(key, pending);
    }
    return pending;
  }

  private async lookUp(key: string, read: () => Promise<Address>): Promise<Address> {
    const shared = await this.cache?.get(key).catch(() => undefined);
    if (shared && isAddress(shared, { strict: false })) {
      const wallet = checksummedAddress(shared);
      this.keep(key, wallet);
      this.lookups.inc({ tier: 'shared' });
      return wallet;
    }
    const wallet = await read();
    this.keep(key, wallet);
    this.lookups.inc({ tier: 'chain' });
    void this.cache?.set(key, wallet, SHARED_TTL_MS).catch(() => undefined);
    return wallet;
  }

  private keep(key: string, wallet: Address): void {
    this.near.set(key, wallet);
    if (this.near.size > this.inProcessLimit) this.near.delete(this.near.keys().next().value as string);
  }
}
