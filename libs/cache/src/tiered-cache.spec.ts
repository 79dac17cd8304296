import { MemoryCache } from './memory-cache';
import { TieredCache } from './tiered-cache';

describe('TieredCache', () => {
  it('serves a hot key from memory for at most nearTtlMs, then asks the shared cache again', async () => {
    // The near copy's clock, set by the test: a busy machine's pauses do not age it.
    let now = 1_000_000;
    const far = new MemoryCache({ namespace: 'far' });
    const tiered = new TieredCache(far, { namespace: 'near', nearTtlMs: 30, now: () => now });
    let calls = 0;
    expect(await tiered.getOrCompute('k', 10_000, async () => `v${++calls}`)).toBe('v1');
    await far.set('k', 'changed elsewhere', 10_000);
    expect(await tiered.getOrCompute('k', 10_000, async () => `v${++calls}`)).toBe('v1'); // the near copy
    now += 29;
    expect(await tiered.getOrCompute('k', 10_000, async () => `v${++calls}`)).toBe('v1');
    now += 2;
    expect(await tiered.getOrCompute('k', 10_000, async () => `v${++calls}`)).toBe('changed elsewhere');
    expect(calls).toBe(1);
  });

  it('claims in the shared cache, never in the near copy (a replica must not hold a claim another has)', async () => {
    const far = new MemoryCache({ namespace: 'far' });
    const [a, b] = [new TieredCache(far, { namespace: 'a' }), new TieredCache(far, { namespace: 'b' })];
    expect(await a.claim('nonce', 'from-a', 10_000)).toBe(true);
    expect(await b.claim('nonce', 'from-b', 10_000)).toBe(false);
    expect(await a.claim('nonce', 'from-a', 10_000)).toBe(true);
  });
});
