import { LeaseKeeper, type LeaseStore } from './follower-leases';

/** The leases as PgLeaseStore keeps them, on a clock the test moves; `down` makes every call fail. */
class MemoryLeaseStore implements LeaseStore {
  readonly leases = new Map<string, { holder: string; until: number }>();
  down = false;

  constructor(private readonly now: () => number) {}

  async acquire(chains: string[], holder: string, leaseMs: number): Promise<string[]> {
    this.check();
    const taken: string[] = [];
    for (const chain of chains) {
      const lease = this.leases.get(chain);
      if (lease && lease.holder !== holder && lease.until >= this.now()) continue;
      this.leases.set(chain, { holder, until: this.now() + leaseMs });
      taken.push(chain);
    }
    return taken;
  }

  async renew(chains: string[], holder: string, leaseMs: number): Promise<string[]> {
    this.check();
    const kept: string[] = [];
    for (const chain of chains) {
      const lease = this.leases.get(chain);
      if (!lease || lease.holder !== holder || lease.until < this.now()) continue;
      lease.until = this.now() + leaseMs;
      kept.push(chain);
    }
    return kept;
  }

  async release(chains: string[], holder: string): Promise<void> {
    this.check();
    for (const chain of chains) if (this.leases.get(chain)?.holder === holder) this.leases.delete(chain);
  }

  private check(): void {
    if (this.down) throw new Error('database unreachable');
  }
}

describe('LeaseKeeper: one follower per chain, taken over when its holder dies', () => {
  const LEASE_MS = 5_000;
  const EVERY_MS = 1_000;
  let store: MemoryLeaseStore;
  /** Who follows each chain, as the keepers report it (gained adds, lost removes). */
  let following: Map<string, Set<string>>;
  let overlaps: string[];

  const keeper = (holder: string) =>
    new LeaseKeeper(store, {
      chains: ['hub', 'spoke'],
      holder,
      leaseMs: LEASE_MS,
      everyMs: EVERY_MS,
      now: () => Date.now(),
      onGained: (chain) => {
        const set = following.get(chain) ?? following.set(chain, new Set()).get(chain)!;
        set.add(holder);
        if (set.size > 1) overlaps.push(`${chain} followed by ${[...set].join(' and ')} at ${Date.now()}`);
      },
      onLost: (chain) => following.get(chain)?.delete(holder),
    });
  const holderOf = (chain: string) => [...(following.get(chain) ?? [])];
  /** Lets the keepers' timers run for `ms`, their async ticks settling between steps. */
  const advance = async (ms: number) => {
    for (let t = 0; t < ms; t += 100) {
      await jest.advanceTimersByTimeAsync(100);
    }
  };

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    store = new MemoryLeaseStore(() => Date.now());
    following = new Map();
    overlaps = [];
  });

  afterEach(() => jest.useRealTimers());

  it('gives each chain to one replica; a second replica follows nothing while the first renews', async () => {
    const a = keeper('a');
    a.start();
    await advance(100);
    const b = keeper('b');
    b.start();
    await advance(30_000);
    expect({ hub: holderOf('hub'), spoke: holderOf('spoke'), overlaps }).toEqual({ hub: ['a'], spoke: ['a'], overlaps: [] });
    await a.stop(false);
    await b.stop(false);
  });

  it('hands the chains to the survivor within the lease and one period after the holder dies (kill -9: no release)', async () => {
    const a = keeper('a');
    const b = keeper('b');
    a.start();
    await advance(100);
    b.start();
    await advance(2_000);
    const diedAt = Date.now();
    await a.stop(false); // as after SIGKILL: the lease is left to run out
    following.get('hub')!.delete('a');
    following.get('spoke')!.delete('a');
    while (holderOf('hub').length === 0) await advance(100);
    const tookMs = Date.now() - diedAt;
    expect(holderOf('hub')).toEqual(['b']);
    expect(holderOf('spoke')).toEqual(['b']);
    expect(tookMs).toBeGreaterThan(LEASE_MS - EVERY_MS);
    expect(tookMs).toBeLessThanOrEqual(LEASE_MS + EVERY_MS + 100);
    await b.stop(false);
  });

  it('gives a chain up at once on a clean stop, so the survivor takes it at its next period', async () => {
    const a = keeper('a');
    const b = keeper('b');
    a.start();
    await advance(100);
    b.start();
    await advance(2_000);
    const stoppedAt = Date.now();
    await a.stop(true);
    while (holderOf('hub').length === 0) await advance(100);
    expect(Date.now() - stoppedAt).toBeLessThanOrEqual(EVERY_MS + 100);
    expect(overlaps).toEqual([]);
    await b.stop(false);
  });

  it('stops following before its lease could have run out when the store does not answer, and never overlaps the next holder', async () => {
    const a = keeper('a');
    a.start();
    await advance(1_500);
    store.down = true;
    const downAt = Date.now();
    while (holderOf('hub').includes('a')) await advance(100);
    // Given up at least one period before the lease (renewed last just before the outage) ends.
    expect(Date.now() - downAt).toBeLessThanOrEqual(LEASE_MS - EVERY_MS + 100);
    store.down = false;
    const b = keeper('b');
    b.start();
    await advance(LEASE_MS + 2 * EVERY_MS);
    expect(overlaps).toEqual([]);
    // Once the store answers again, each chain has exactly one follower.
    expect([holderOf('hub').length, holderOf('spoke').length]).toEqual([1, 1]);
    await a.stop(false);
    await b.stop(false);
  });
});
