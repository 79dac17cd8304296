import { Redis } from 'ioredis';
import { BaseCache } from './cache';

export interface RedisCacheOptions {
  url: string;
  namespace: string;
  /** Bound on every command, so a stalled Redis turns into an error rather than a hang. */
  commandTimeoutMs?: number;
}

/** Cache on Redis via ioredis; every key is prefixed with the service's namespace. */
export class RedisCache extends BaseCache {
  readonly kind = 'redis' as const;
  readonly client: Redis;

  constructor(options: RedisCacheOptions) {
    super();
    this.client = new Redis(options.url, {
      keyPrefix: `${options.namespace}:`,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    // Connection errors surface through commands and readiness; do not crash on 'error'.
    this.client.on('error', () => undefined);
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  async get<T>(key: string): Promise<T | undefined> {
    const raw = await this.client.get(key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    await this.client.set(key, JSON.stringify(value), 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.client.del(key);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
