import { MemoryCache } from './memory-cache';

describe('MemoryCache', () => {
  let now = 1_000;
  const cache = new MemoryCache({ namespace: 'test', maxEntries: 3, now: () => now });

  it('returns a value until its time to live passes', async () => {
    await cache.set('k', '{"v":1}', 100);
    expect(await cache.get('k')).toBe('{"v":1}');
    now += 100;
    expect(await cache.get('k')).toBeUndefined();
  });

  it('evicts the oldest entries beyond its size bound', async () => {
    for (const k of ['a', 'b', 'c', 'd']) await cache.set(k, k, 10_000);
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('d')).toBe('d');
  });

  it('bounds the bytes it holds, dropping expired entries first, then the oldest', async () => {
    const small = new MemoryCache({ namespace: 'b', maxBytes: 100, now: () => now });
    await small.set('expired', 'x'.repeat(20), 1);
    await small.set('old', 'x'.repeat(20), 60_000);
    now += 10;
    await small.set('new', 'x'.repeat(20), 60_000); // 3 × 40 bytes > 100
    expect(await small.get('expired')).toBeUndefined();
    expect(await small.get('old')).toBe('x'.repeat(20));
    await small.set('newer', 'x'.repeat(20), 60_000);
    expect(await small.get('old')).toBeUndefined();
    expect(await small.get('newer')).toBe('x'.repeat(20));
  });

  it('lets go of expired entries nobody reads again within a second of their expiry, below its bounds', async () => {
    const near = new MemoryCache({ namespace: 'near', now: () => now });
    for (let i = 0; i < 500; i++) await near.set(`once-${i}`, 'v'.repeat(100), 1_000);
    expect(near.size).toBe(500);
    now += 1_000;
    await near.set('later', 'v', 1_000);
    expect(near.size).toBe(1);
    expect(await near.get('later')).toBe('v');
  });

  it('counts in a fixed window that starts at the first increment', async () => {
    const counters = new MemoryCache({ namespace: 'n', now: () => now });
    expect(await counters.increment('w', 1, 1_000)).toEqual({ count: 1, resetMs: 1_000 });
    now += 400;
    expect(await counters.increment('w', 2, 1_000)).toEqual({ count: 3, resetMs: 600 });
    expect(await counters.increment('w', -1, 1_000)).toEqual({ count: 2, resetMs: 600 });
    now += 600;
    expect(await counters.increment('w', 1, 1_000)).toEqual({ count: 1, resetMs: 1_000 });
    expect(await counters.get('w')).toBeUndefined(); // counters do not collide with values
  });

  it('lets one token hold a claim for its time to live, the same token again included', async () => {
    const claims = new MemoryCache({ namespace: 'c', now: () => now });
    expect(await claims.claim('nonce', 'first', 1_000)).toBe(true);
    expect(await claims.claim('nonce', 'first', 1_000)).toBe(true);
    expect(await claims.claim('nonce', 'second', 1_000)).toBe(false);
    expect(await claims.get('nonce')).toBeUndefined(); // claims do not collide with values
    now += 1_000;
    expect(await claims.claim('nonce', 'second', 1_000)).toBe(true);
    const racing = await Promise.all(['a', 'b', 'c'].map((token) => claims.claim('raced', token, 1_000)));
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await claims.claim('no-time', 'a', 0)).toBe(true);
    expect(await claims.claim('no-time', 'b', 0)).toBe(false); // at least a millisecond, as Redis keeps it
  });

  it('computes a missing value once for concurrent callers', async () => {
    let calls = 0;
    const compute = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return 'computed';
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.getOrCompute('slow', 1_000, compute)));
    expect(results).toEqual(Array(10).fill('computed'));
    expect(calls).toBe(1);
    expect(await cache.getOrCompute('slow', 1_000, compute)).toBe('computed');
    expect(calls).toBe(1);
  });

  it('does not cache a failed computation', async () => {
    await expect(cache.getOrCompute('fails', 1_000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.getOrCompute('fails', 1_000, async () => 'ok')).toBe('ok');
  });

  it('with a zero time to live computes every time but still shares concurrent misses', async () => {
    let calls = 0;
    await Promise.all([cache.getOrCompute('z', 0, async () => String(++calls)), cache.getOrCompute('z', 0, async () => String(++calls))]);
    await new Promise((r) => setImmediate(r)); // the shared miss has settled
    await cache.getOrCompute('z', 0, async () => String(++calls));
    expect(calls).toBe(2);
  });
});
