import type { Cache, Counted } from './cache';
import { MemoryCache } from './memory-cache';

/** Values at most `nearTtlMs` older than Redis says. */
export class TieredCache implements Cache {
  readonly kind: Cache['kind'];
  private readonly near: MemoryCache;

  constructor(
    private readonly far: Cache,
    private readonly options: { namespace: string; nearTtlMs?: number; nearMaxBytes?: number; now?: () => number },
  ) {
    this.kind = far.kind;
    this.near = new MemoryCache({ namespace: options.namespace, maxBytes: options.nearMaxBytes ?? 32 * 1024 * 1024, now: options.now });
  }

  private nearTtl(ttlMs: number): number {
    return Math.min(ttlMs, this.options.nearTtlMs ?? 1_000);
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.near.get(key)) ?? this.far.get(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.near.set(key, value, this.nearTtl(ttlMs));
    await this.far.set(key, value, ttlMs);
  }

  connected(): boolean {
    return this.far.connected();
  }

  async delete(key: string): Promise<void> {
    await this.near.delete(key);
    await this.far.delete(key);
  }

  increment(key: string, by: number, windowMs: number): Promise<Counted> {
    return this.far.increment(key, by, windowMs);
  }

  claim(key: string, token: string, ttlMs: number): Promise<boolean> {
    return this.far.claim(key, token, ttlMs);
  }

  async getOrCompute(key: string, ttlMs: number, compute: () => Promise<string>): Promise<string> {
    const hit = await this.near.get(key);
    if (hit !== undefined) return hit;
    const value = await this.far.getOrCompute(key, ttlMs, compute);
    if (ttlMs > 0) await this.near.set(key, value, this.nearTtl(ttlMs));
    return value;
  }

  ping(): Promise<void> {
    return this.far.ping();
  }

  async close(): Promise<void> {
    await this.near.close();
    await this.far.close();
  }
}
