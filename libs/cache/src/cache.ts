/** Values are text, so a body is served as cached; see docs/architecture/runtime.md#caches-and-read-models. */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Whether it can take a command now: Redis connected (it has no offline queue), memory always. */
  connected(): boolean;
  delete(key: string): Promise<void>;
  /** Concurrent misses share one `compute`; a cache that fails counts as a miss. */
  getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string>;
  /** A fixed window from the first increment, atomic across every process sharing the cache. */
  increment(key: string, by: number, windowMs: number): Promise<Counted>;
  /** Whether `token` holds `key` (for `ttlMs` from the first claim): claimed now, or earlier with the same token (a resent command). */
  claim(key: string, token: string, ttlMs: number): Promise<boolean>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface Counted {
  count: number;
  resetMs: number;
}

export interface Computed {
  value: string;
  stored: Promise<unknown>;
}

const NOTHING_TO_STORE: Promise<unknown> = Promise.resolve();

export abstract class BaseCache implements Cache {
  abstract readonly kind: 'redis' | 'memory';
  private readonly pending = new Map<string, Promise<string>>();

  abstract get(key: string): Promise<string | undefined>;
  abstract set(key: string, value: string, ttlMs: number): Promise<void>;
  abstract connected(): boolean;
  abstract delete(key: string): Promise<void>;
  abstract increment(key: string, by: number, windowMs: number): Promise<Counted>;
  abstract claim(key: string, token: string, ttlMs: number): Promise<boolean>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;

  getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string> {
    const running = this.pending.get(key);
    if (running) return running;
    const loading = this.load(key, ttlMs, compute);
    const value = loading.then((c) => c.value);
    // The entry stays until the value is stored too, so no caller computes it again in between.
    this.pending.set(key, value);
    void loading
      .then(
        (c) => c.stored,
        () => undefined,
      )
      .finally(() => this.pending.delete(key));
    return value;
  }

  private async load(key: string, ttlMs: number, compute: () => Promise<string>): Promise<Computed> {
    let hit: string | undefined;
    try {
      hit = await this.get(key);
    } catch {
      return { value: await compute(), stored: NOTHING_TO_STORE }; // the cache is down: serve without it
    }
    if (hit !== undefined) return { value: hit, stored: NOTHING_TO_STORE };
    if (ttlMs <= 0) return { value: await compute(), stored: NOTHING_TO_STORE };
    return this.computeMiss(key, ttlMs, compute);
  }

  protected async computeMiss(key: string, ttlMs: number, compute: () => Promise<string>): Promise<Computed> {
    const value = await compute();
    return { value, stored: this.set(key, value, ttlMs).catch(() => undefined) };
  }
}
