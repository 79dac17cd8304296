import { testInfra, unusedPort, uniqueId } from '@swap/testing';
import { RedisCache } from './redis-cache';

describe('RedisCache against Redis', () => {
  let cache: RedisCache;

  beforeAll(async () => {
    cache = new RedisCache({ url: testInfra.redisUrl, namespace: uniqueId('cache') });
    await cache.connect();
  });

  afterAll(() => cache.close());

  it('stores JSON values under the namespace with a time to live', async () => {
    await cache.set('k', { price: '1.23' }, 60_000);
    expect(await cache.get('k')).toEqual({ price: '1.23' });
    const ttl = await cache.client.pttl('k');
    expect(ttl).toBeGreaterThan(50_000);
    await cache.delete('k');
    expect(await cache.get('k')).toBeUndefined();
  });

  it('expires values', async () => {
    await cache.set('short', 1, 30);
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('short')).toBeUndefined();
  });

  it('computes a missing value once for concurrent callers', async () => {
    let calls = 0;
    const values = await Promise.all(Array.from({ length: 8 }, () => cache.getOrCompute('once', 10_000, async () => ++calls)));
    expect(values).toEqual(Array(8).fill(1));
    expect(calls).toBe(1);
  });

  it('fails fast, without hanging, when Redis is unreachable', async () => {
    const down = new RedisCache({ url: `redis://127.0.0.1:${await unusedPort()}`, namespace: 'x' });
    await expect(down.connect()).rejects.toThrow();
    const started = Date.now();
    await expect(down.ping()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    await down.close();
  });
});
