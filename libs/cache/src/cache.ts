/**
 * One cache interface for every service: Redis in a cluster, memory in the embedded
 * default. Values are JSON-serialisable; keys are namespaced per service.
 */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * The cached value, or the result of `compute` stored for `ttlMs`. Concurrent misses of
   * one key in one process share a single `compute` call (no stampede).
   */
  getOrCompute<T>(key: string, ttlMs: number, compute: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The single-flight part shared by both implementations. */
export abstract class BaseCache implements Cache {
  abstract readonly kind: 'redis' | 'memory';
  private readonly pending = new Map<string, Promise<unknown>>();

  abstract get<T>(key: string): Promise<T | undefined>;
  abstract set(key: string, value: unknown, ttlMs: number): Promise<void>;
  abstract delete(key: string): Promise<void>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;

  async getOrCompute<T>(key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    const hit = await this.get<T>(key);
    if (hit !== undefined) return hit;
    const running = this.pending.get(key);
    if (running) return running as Promise<T>;
    const work = (async () => {
      try {
        const value = await compute();
        await this.set(key, value, ttlMs);
        return value;
      } finally {
        this.pending.delete(key);
      }
    })();
    this.pending.set(key, work);
    return work;
  }
}
