import { MemoryCache } from './memory-cache';
import { TieredCache } from './tiered-cache';

describe('TieredCache', () => {
  it('serves a hot key from memory for at most nearTtlMs, then asks the shared cache again', async () => {
    const far = new MemoryCache({ namespace: 'far' });
    const tiered = new TieredCache(far, { namespace: 'near', nearTtlMs: 30 });
    let calls = 0;
    expect(await tiered.getOrCompute('k', 10_000, async () => `v${++calls}`)).toBe('v1');
    await far.set('k', 'changed elsewhere', 10_000);
    expect(await tiered.getOrCompute('k', 10_000, async () => `v${++calls}`)).toBe('v1'); // the near copy
    await new Promise((r) => setTimeout(r, 40));
    expect(await tiered.getOrCompute('k', 10_000, async () => `v${++calls}`)).toBe('changed elsewhere');
    expect(calls).toBe(1);
  });
});
