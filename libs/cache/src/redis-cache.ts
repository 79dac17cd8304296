import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { BaseCache, type Computed, type Counted } from './cache';

export interface RedisCacheOptions {
  url: string;
  namespace: string;
  commandTimeoutMs?: number;
}

/** The lock may have expired and been taken. */
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

const INCREMENT = `local c = redis.call('incrby', KEYS[1], ARGV[1])
local t = redis.call('pttl', KEYS[1])
if t < 0 then redis.call('pexpire', KEYS[1], ARGV[2]); t = tonumber(ARGV[2]) end
return {c, t}`;

const CLAIM = `local held = redis.call('get', KEYS[1])
if held then return held == ARGV[1] and 1 or 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

const milliseconds = (ms: number) => Math.max(1, Math.round(ms));

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
    // Needed: an 'error' event without a listener would crash the process; errors surface through commands and readiness.
    this.client.on('error', () => undefined);
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.client.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(key, value, 'PX', milliseconds(ttlMs));
  }

  connected(): boolean {
    return this.client.status === 'ready';
  }

  async delete(key: string): Promise<void> {
    await this.client.del(key);
  }

  async increment(key: string, by: number, windowMs: number): Promise<Counted> {
    const [count, resetMs] = (await this.client.eval(INCREMENT, 1, `counter:${key}`, Math.trunc(by), milliseconds(windowMs))) as [
      number,
      number,
    ];
    return { count, resetMs };
  }

  async claim(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.client.eval(CLAIM, 1, `claim:${key}`, token, milliseconds(ttlMs))) === 1;
  }

  /** One replica computes a miss while the others wait for its value. */
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
      if ((await this.client.exists(lock).catch(() => 0)) === 0) {
        // Stored and released between the two reads: the value is there now.
        const stored = await this.get(key).catch(() => undefined);
        if (stored !== undefined) return { value: stored, stored: Promise.resolve() };
        break;
      }
    }
    return super.computeMiss(key, ttlMs, compute);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    // QUIT would wait for a connection.
    if (this.client.status !== 'ready') return this.client.disconnect(false);
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
