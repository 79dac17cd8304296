import type pg from 'pg';

/** A lease per chain, so that one replica follows it; see docs/architecture/settlement.md#chain-followers. */
export interface LeaseStore {
  /** Takes those free, run out, or already `holder`'s; returns the chains held now. */
  acquire(chains: string[], holder: string, leaseMs: number): Promise<string[]>;
  renew(chains: string[], holder: string, leaseMs: number): Promise<string[]>;
  /** A clean stop: a peer takes over without waiting. */
  release(chains: string[], holder: string): Promise<void>;
}

export interface LeaseKeeperOptions {
  chains: string[];
  holder: string;
  leaseMs: number;
  everyMs: number;
  now?: () => number;
  onGained(chainKey: string): void;
  onLost(chainKey: string): void;
  onError?(error: unknown): void;
}

/** A lease it cannot renew is given up here before it runs out; the commit's lease check is the second guard. */
export class LeaseKeeper {
  private readonly held = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly store: LeaseStore,
    private readonly options: LeaseKeeperOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.everyMs);
    this.timer.unref();
    void this.tick();
  }

  holds(chainKey: string): boolean {
    return this.held.has(chainKey);
  }

  /** With `release`, leases are given up once `settled` (followers stopped); without, they run out as after a crash. */
  async stop(release = true, settled: () => Promise<void> = async () => undefined): Promise<void> {
    clearInterval(this.timer);
    const chains = [...this.held.keys()];
    for (const chain of chains) this.lose(chain);
    await settled();
    if (release && chains.length) await this.store.release(chains, this.options.holder).catch(() => undefined);
  }

  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.renewHeld();
      await this.acquireFree();
    } finally {
      this.ticking = false;
    }
  }

  private async renewHeld(): Promise<void> {
    const held = [...this.held.keys()];
    if (held.length === 0) return;
    const { holder, leaseMs, everyMs } = this.options;
    try {
      const kept = new Set(await this.store.renew(held, holder, leaseMs));
      for (const chain of held) {
        if (kept.has(chain)) this.held.set(chain, this.now() + leaseMs);
        else this.lose(chain);
      }
    } catch (error) {
      this.options.onError?.(error);
      // Unanswered: keep following only while the lease surely has not run out.
      for (const chain of held) if (this.now() >= this.held.get(chain)! - everyMs) this.lose(chain);
    }
  }

  private async acquireFree(): Promise<void> {
    const free = this.options.chains.filter((chain) => !this.held.has(chain));
    if (free.length === 0) return;
    try {
      for (const chain of await this.store.acquire(free, this.options.holder, this.options.leaseMs)) {
        if (this.held.has(chain)) continue;
        this.held.set(chain, this.now() + this.options.leaseMs);
        this.options.onGained(chain);
      }
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  private lose(chain: string): void {
    if (!this.held.delete(chain)) return;
    this.options.onLost(chain);
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}

/** Timed by the database's clock. */
export class PgLeaseStore implements LeaseStore {
  constructor(private readonly pool: pg.Pool) {}

  async acquire(chains: string[], holder: string, leaseMs: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ chain_key: string }>(
      `UPDATE relay_tracker.chain_followers
       SET holder = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
       WHERE chain_key = ANY($1::text[]) AND (holder = $2 OR holder IS NULL OR lease_until IS NULL OR lease_until < now())
       RETURNING chain_key`,
      [chains, holder, leaseMs],
    );
    return rows.map((r) => r.chain_key);
  }

  async renew(chains: string[], holder: string, leaseMs: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ chain_key: string }>(
      `UPDATE relay_tracker.chain_followers SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
       WHERE chain_key = ANY($1::text[]) AND holder = $2 AND lease_until >= now()
       RETURNING chain_key`,
      [chains, holder, leaseMs],
    );
    return rows.map((r) => r.chain_key);
  }

  async release(chains: string[], holder: string): Promise<void> {
    await this.pool.query(
      `UPDATE relay_tracker.chain_followers SET holder = NULL, lease_until = NULL WHERE chain_key = ANY($1::text[]) AND holder = $2`,
      [chains, holder],
    );
  }
}
