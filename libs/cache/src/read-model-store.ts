import { Redis } from 'ioredis';

/** Versioned answers one service writes and others read; see docs/architecture/runtime.md#caches-and-read-models. */
export interface ReadModelStore {
  readonly kind: 'redis' | 'memory';
  put(key: string, version: number, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const PUT_IF_NEWER = `local cur = redis.call('hget', KEYS[1], 'v')
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 0 end
redis.call('hset', KEYS[1], 'v', ARGV[1], 'b', ARGV[2])
redis.call('pexpire', KEYS[1], ARGV[3])
return 1`;

/** A hash per key: `v` the version, `b` the value. */
export class RedisReadModelStore implements ReadModelStore {
  readonly kind = 'redis' as const;
  private readonly client: Redis;

  constructor(options: { url: string; namespace: string; commandTimeoutMs?: number }) {
    this.client = new Redis(options.url, {
      keyPrefix: `${options.namespace}:`,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
      // Writes of one event-loop turn (a batch of swaps moving on) leave in one packet.
      enableAutoPipelining: true,
    });
    this.client.on('error', () => undefined);
    this.client.defineCommand('putIfNewer', { numberOfKeys: 1, lua: PUT_IF_NEWER });
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  async put(key: string, version: number, value: string, ttlMs: number): Promise<boolean> {
    const client = this.client as Redis & { putIfNewer(key: string, version: number, value: string, ttl: number): Promise<number> };
    return (await client.putIfNewer(key, version, value, Math.max(1, Math.round(ttlMs)))) === 1;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.client.hget(key, 'b')) ?? undefined;
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    if (this.client.status !== 'ready') return this.client.disconnect(false);
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** One store shared by every service of the embedded default's process. */
export class MemoryReadModelStore implements ReadModelStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, { version: number; value: string; expiresAt: number }>();

  constructor(private readonly options: { maxEntries?: number; now?: () => number } = {}) {}

  async put(key: string, version: number, value: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const current = this.entries.get(key);
    if (current && current.expiresAt > now && current.version >= version) return false;
    this.entries.delete(key);
    this.entries.set(key, { version, value, expiresAt: now + ttlMs });
    const max = this.options.maxEntries ?? 100_000;
    while (this.entries.size > max) this.entries.delete(this.entries.keys().next().value as string);
    return true;
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }
}
