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
   * one key share a single `compute` call (no stampede).
   */
  getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The single-flight part shared by both implementations. */
export abstract class BaseCache implements Cache {
  abstract readonly kind: 'redis' | 'memory';
  private readonly pending = new Map<string, Promise<string>>();

  abstract get(key: string): Promise<string | undefined>;
  abstract set(key: string, value: string, ttlMs: number): Promise<void>;
  abstract delete(key: string): Promise<void>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;

  async getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string> {
    const running = this.pending.get(key);
    if (running) return running;
    const work = (async () => {
      try {
        const hit = await this.get(key);
        if (hit !== undefined) return hit;
        const value = await this.computeMiss(key, ttlMs, compute);
        if (ttlMs > 0) await this.set(key, value, ttlMs);
        return value;
      } finally {
        this.pending.delete(key);
      }
    })();
    this.pending.set(key, work);
    return work;
  }

  /** How a miss is computed; a shared cache also coordinates with other processes here. */
  protected computeMiss(_key: string, _ttlMs: number, compute: () => Promise<string>): Promise<string> {
    return compute();
  }
}
