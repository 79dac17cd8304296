import { BaseCache } from './cache';

interface Entry {
  value: string;
  expiresAt: number;
}

/** In-memory cache with per-entry expiry and a bounded size (oldest entries go first). */
export class MemoryCache extends BaseCache {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: { namespace: string; maxEntries?: number; now?: () => number }) {
    super();
  }

  async get(key: string): Promise<string | undefined> {
    const k = this.key(key);
    const entry = this.entries.get(k);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(k);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const k = this.key(key);
    this.entries.delete(k);
    this.entries.set(k, { value, expiresAt: this.now() + ttlMs });
    const max = this.options.maxEntries ?? 10_000;
    while (this.entries.size > max) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(this.key(key));
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
  }

  private key(key: string): string {
    return `${this.options.namespace}:${key}`;
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}
