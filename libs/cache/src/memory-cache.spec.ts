import { MemoryCache } from './memory-cache';

describe('MemoryCache', () => {
  let now = 1_000;
  const cache = new MemoryCache({ namespace: 'test', maxEntries: 3, now: () => now });

  it('returns a value until its time to live passes', async () => {
    await cache.set('k', { v: 1 }, 100);
    expect(await cache.get('k')).toEqual({ v: 1 });
    now += 100;
    expect(await cache.get('k')).toBeUndefined();
  });

  it('stores copies, so callers cannot mutate what is cached', async () => {
    const value = { list: [1] };
    await cache.set('copy', value, 1_000);
    value.list.push(2);
    expect(await cache.get('copy')).toEqual({ list: [1] });
  });

  it('evicts the oldest entries beyond its size bound', async () => {
    for (const k of ['a', 'b', 'c', 'd']) await cache.set(k, k, 10_000);
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('d')).toBe('d');
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
  });

  it('does not cache a failed computation', async () => {
    await expect(cache.getOrCompute('fails', 1_000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.getOrCompute('fails', 1_000, async () => 'ok')).toBe('ok');
  });
});
