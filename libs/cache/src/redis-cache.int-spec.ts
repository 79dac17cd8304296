import { eventually, testInfra, unusedPort, uniqueId } from '@swap/testing';
import { FallbackCounter } from './fallback-counter';
import { RedisCache } from './redis-cache';

describe('RedisCache against Redis', () => {
  const namespace = uniqueId('cache');
  let cache: RedisCache;
  let otherReplica: RedisCache;

  beforeAll(async () => {
    cache = new RedisCache({ url: testInfra.redisUrl, namespace });
    otherReplica = new RedisCache({ url: testInfra.redisUrl, namespace });
    await cache.connect();
    await otherReplica.connect();
  });

  afterAll(async () => {
    await cache.close();
    await otherReplica.close();
  });

  it('stores text under the namespace with a time to live', async () => {
    expect(cache.connected()).toBe(true);
    await cache.set('k', '{"price":"1.23"}', 60_000);
    expect(await cache.get('k')).toBe('{"price":"1.23"}');
    expect(await cache.client.pttl('k')).toBeGreaterThan(50_000);
    await cache.delete('k');
    expect(await cache.get('k')).toBeUndefined();
  });

  it('expires values', async () => {
    await cache.set('short', '1', 30);
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('short')).toBeUndefined();
  });

  it('counts atomically across replicas in a window set by the first increment', async () => {
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? cache : otherReplica).increment('hits', 1, 60_000)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(counts.filter((c) => !(c.resetMs > 50_000 && c.resetMs <= 60_000))).toEqual([]);
    expect((await cache.increment('hits', -5, 1)).count).toBe(15); // a later window argument does not move the reset
    expect(await cache.client.pttl('counter:hits')).toBeGreaterThan(50_000);
    const short = await cache.increment('brief', 1, 30);
    expect(short).toEqual({ count: 1, resetMs: 30 });
    await new Promise((r) => setTimeout(r, 60));
    expect((await cache.increment('brief', 1, 30)).count).toBe(1);
    await cache.client.del('counter:hits', 'counter:brief');
  });

  it('gives a claim to one token across replicas, and again to that token (a resent command), until it expires', async () => {
    const tokens = Array.from({ length: 10 }, (_, i) => `token-${i}`);
    const held = await Promise.all(tokens.map((t, i) => (i % 2 ? cache : otherReplica).claim('nonce', t, 60_000)));
    expect(held.filter(Boolean)).toHaveLength(1);
    const holder = tokens[held.indexOf(true)]!;
    expect(await cache.claim('nonce', holder, 60_000)).toBe(true);
    expect(await otherReplica.claim('nonce', 'another', 60_000)).toBe(false);
    expect(await cache.client.pttl('claim:nonce')).toBeGreaterThan(50_000);
    expect(await cache.claim('brief', 'a', 30)).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(await otherReplica.claim('brief', 'b', 30)).toBe(true);
    await cache.client.del('claim:nonce', 'claim:brief');
  });

  it('computes a missing value once across replicas sharing the cache', async () => {
    let calls = 0;
    const compute = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 50));
      return `value-${calls}`;
    };
    const values = await Promise.all([
      ...Array.from({ length: 5 }, () => cache.getOrCompute('once', 10_000, compute)),
      ...Array.from({ length: 5 }, () => otherReplica.getOrCompute('once', 10_000, compute)),
    ]);
    expect(new Set(values)).toEqual(new Set(['value-1']));
    expect(calls).toBe(1);
    // The value is served before it is stored; the lock goes right after the store.
    await eventually(async () => (await cache.client.exists('lock:once')) === 0, 2_000);
  });

  it('fails fast, without hanging, when Redis is unreachable', async () => {
    const down = new RedisCache({ url: `redis://127.0.0.1:${await unusedPort()}`, namespace: 'x' });
    expect(down.connected()).toBe(false);
    await expect(down.connect()).rejects.toThrow();
    expect(down.connected()).toBe(false);
    const started = Date.now();
    await expect(down.ping()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    await down.close();
  });
});

describe('RedisCache when Redis fails', () => {
  it('serves computed values without caching rather than failing', async () => {
    const down = new RedisCache({ url: `redis://127.0.0.1:${await unusedPort()}`, namespace: 'x' });
    await down.connect().catch(() => undefined);
    expect(await down.getOrCompute('k', 10_000, async () => 'computed anyway')).toBe('computed anyway');
    await down.close();
  });

  it("leaves claims to this replica's memory through a FallbackCounter, saying so once", async () => {
    const down = new RedisCache({ url: `redis://127.0.0.1:${await unusedPort()}`, namespace: 'x' });
    await down.connect().catch(() => undefined);
    const told: unknown[] = [];
    const ledger = new FallbackCounter(down, (error) => told.push(error));
    expect(await ledger.claim('nonce', 'first', 60_000)).toBe(true);
    expect(await ledger.claim('nonce', 'first', 60_000)).toBe(true);
    expect(await ledger.claim('nonce', 'second', 60_000)).toBe(false);
    expect(told).toHaveLength(1);
    await down.close();
  });
});
