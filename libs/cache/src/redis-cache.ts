import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { BaseCache, type Computed, type Counted } from './cache';

export interface RedisCacheOptions {
  url: string;
  namespace: string;
  /** Bound on every command, so a stalled Redis turns into an error rather than a hang. */
  commandTimeoutMs?: number;
}

/** Deletes the lock only if it is still ours (it may have expired and been taken). */
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** INCRBY, and the window's expiry set by the increment that created the counter. */
const INCREMENT = `local c = redis.call('incrby', KEYS[1], ARGV[1])
local t = redis.call('pttl', KEYS[1])
if t < 0 then redis.call('pexpire', KEYS[1], ARGV[2]); t = tonumber(ARGV[2]) end
return {c, t}`;

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

  async get(key: string): Promise<string | undefined> {
    return (await this.client.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(key, value, 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.client.del(key);
  }

  async increment(key: string, by: number, windowMs: number): Promise<Counted> {
    const [count, resetMs] = (await this.client.eval(
      INCREMENT,
      1,
      `counter:${key}`,
      Math.trunc(by),
      Math.max(1, Math.round(windowMs)),
    )) as [number, number];
    return { count, resetMs };
  }

  /**
   * Replicas share this cache, so a miss takes a short lock: one process computes and
   * stores while the others wait for its value. A waiter computes itself when the lock
   * is gone without a value (the holder failed) or outlives its time.
   */
  protected override async computeMiss(key: string, ttlMs: number, compute: () => Promise<string>): Promise<Computed> {
    const lock = `lock:${key}`;
    const token = randomUUID();
    const lockMs = Math.min(5_000, Math.max(ttlMs, 1_000));
    const release = () => this.client.eval(RELEASE_LOCK, 1, lock, token).catch(() => undefined);
    let locked: boolean;
    try {
      locked = (await this.client.set(lock, token, 'PX', lockMs, 'NX')) === 'OK';
    } catch {
      return { value: await compute(), stored: Promise.resolve() };
    }
    if (locked) {
      let value: string;
      try {
        value = await compute();
      } catch (error) {
        await release();
        throw error;
      }
      // Stored before the lock goes, so a waiter that sees the lock gone finds the value.
      return {
        value,
        stored: this.set(key, value, ttlMs)
          .catch(() => undefined)
          .finally(release),
      };
    }
    const deadline = Date.now() + lockMs;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
      const value = await this.get(key).catch(() => undefined);
      if (value !== undefined) return { value, stored: Promise.resolve() };
      if ((await this.client.exists(lock).catch(() => 0)) === 0) break;
    }
    return super.computeMiss(key, ttlMs, compute);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    // Not connected (Redis was down): stop reconnecting at once; QUIT would wait for a connection.
    if (this.client.status !== 'ready') return this.client.disconnect(false);
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
