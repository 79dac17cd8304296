/**
 * One cache interface for every service: Redis in a cluster, memory in the embedded
 * default. Values are text (callers pick the encoding, JSON for objects), so a response
 * body can be cached and served as it is. Keys are namespaced per service.
 */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * The cached value, or the result of `compute` stored for `ttlMs`. Concurrent misses of
   * one key share a single `compute` call (no stampede). A cache that fails counts as a
   * miss: the value is computed and served, never lost to a cache error.
   */
  getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string>;
  /**
   * Adds `by` to the counter at `key` (created at 0), atomically across every process
   * sharing the cache. The counter lives `windowMs` from its first increment (a fixed
   * window): the answer is the count after this increment and the time left of it.
   */
  increment(key: string, by: number, windowMs: number): Promise<Counted>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A counter after an increment: its value and the milliseconds until it starts again at 0. */
export interface Counted {
  count: number;
  resetMs: number;
}

/** A computed value, and the write that stores it (done behind the caller's back). */
export interface Computed {
  value: string;
  stored: Promise<unknown>;
}

const NOTHING_TO_STORE: Promise<unknown> = Promise.resolve();

/** The single-flight part shared by both implementations. */
export abstract class BaseCache implements Cache {
  abstract readonly kind: 'redis' | 'memory';
  private readonly pending = new Map<string, Promise<string>>();

  abstract get(key: string): Promise<string | undefined>;
  abstract set(key: string, value: string, ttlMs: number): Promise<void>;
  abstract delete(key: string): Promise<void>;
  abstract increment(key: string, by: number, windowMs: number): Promise<Counted>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;

  getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string> {
    const running = this.pending.get(key);
    if (running) return running;
    const loading = this.load(key, ttlMs, compute);
    const value = loading.then((c) => c.value);
    // The value goes back as soon as it is computed; the single-flight entry stays until
    // it is stored too, so no caller computes it again in between.
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

  /** How a miss is computed and stored; a shared cache also coordinates with other processes here. */
  protected async computeMiss(key: string, ttlMs: number, compute: () => Promise<string>): Promise<Computed> {
    const value = await compute();
    return { value, stored: this.set(key, value, ttlMs).catch(() => undefined) };
  }
}
