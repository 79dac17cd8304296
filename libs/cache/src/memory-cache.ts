import { BaseCache, type Counted } from './cache';

interface Entry {
  value: string;
  expiresAt: number;
}

export class MemoryCache extends BaseCache {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private sweptAt = 0;

  constructor(private readonly options: { namespace: string; maxEntries?: number; maxBytes?: number; now?: () => number }) {
    super();
  }

  async get(key: string): Promise<string | undefined> {
    const k = this.key(key);
    const entry = this.entries.get(k);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(k);
      return undefined;
    }
    return entry.value;
  }

  connected(): boolean {
    return true;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const k = this.key(key);
    this.remove(k);
    this.entries.set(k, { value, expiresAt: this.now() + ttlMs });
    this.bytes += value.length * 2;
    const maxEntries = this.options.maxEntries ?? 10_000;
    const maxBytes = this.options.maxBytes ?? 64 * 1024 * 1024;
    const now = this.now();
    // Expired entries nobody reads again go within a second, not when the bounds are reached (a tiered cache's second-long entries would fill them).
    if (now - this.sweptAt >= 1_000 || this.entries.size > maxEntries || this.bytes > maxBytes) {
      this.sweptAt = now;
      for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key);
      while (this.entries.size > maxEntries || this.bytes > maxBytes) this.remove(this.entries.keys().next().value as string);
    }
  }

  async delete(key: string): Promise<void> {
    this.remove(this.key(key));
  }

  async increment(key: string, by: number, windowMs: number): Promise<Counted> {
    const k = this.key(`counter:${key}`);
    const entry = this.entries.get(k);
    const now = this.now();
    if (entry && entry.expiresAt > now) {
      const count = Number(entry.value) + Math.trunc(by);
      this.bytes += (String(count).length - entry.value.length) * 2;
      entry.value = String(count);
      return { count, resetMs: entry.expiresAt - now };
    }
    const count = Math.trunc(by);
    await this.set(`counter:${key}`, String(count), windowMs);
    return { count, resetMs: windowMs };
  }

  async claim(key: string, token: string, ttlMs: number): Promise<boolean> {
    // Looked up and set in one turn: concurrent claims cannot both find the key free.
    const held = this.entries.get(this.key(`claim:${key}`));
    if (held && held.expiresAt > this.now()) return held.value === token;
    await this.set(`claim:${key}`, token, Math.max(1, ttlMs));
    return true;
  }

  private remove(k: string): void {
    const entry = this.entries.get(k);
    if (!entry) return;
    this.bytes -= entry.value.length * 2;
    this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }

  private key(key: string): string {
    return `${this.options.namespace}:${key}`;
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}
