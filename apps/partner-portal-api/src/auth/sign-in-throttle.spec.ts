import { MemoryCache } from '@swap/cache';
import { createLogger } from '@swap/observability';
import { PortalCounters } from './portal-counters';

/** A shared cache that cannot be reached: every count throws. */
class DownCache extends MemoryCache {
  override async increment(): Promise<never> {
    throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  }
}

describe('PortalCounters', () => {
  const silent = createLogger({ service: 'partner-portal-api', level: 'silent' });

  it('counts in the shared cache while it answers', async () => {
    const shared = new MemoryCache({ namespace: 'portal' });
    const throttle = new PortalCounters(shared, silent);
    await throttle.count('email:a', 1, 60_000);
    expect((await shared.increment('email:a', 0, 60_000)).count).toBe(1);
  });

  it('counts failures in memory while the cache is down; a read adds nothing, so reads cannot push counts out', async () => {
    const throttle = new PortalCounters(new DownCache({ namespace: 'portal' }), silent);
    for (let i = 0; i < 1_000; i++) expect((await throttle.count(`email:reader-${i}`, 0, 60_000)).count).toBe(0);
    for (let i = 0; i < 3; i++) await throttle.count('email:victim', 1, 60_000);
    expect(await throttle.count('email:victim', 0, 60_000)).toEqual({ count: 3, resetMs: expect.any(Number) });
    expect((await throttle.count('email:reader-1', 0, 60_000)).count).toBe(0);
  });

  it('forgets a count once its window has passed', async () => {
    const throttle = new PortalCounters(new DownCache({ namespace: 'portal' }), silent);
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    await throttle.count('ip:1', 1, 60_000);
    now.mockReturnValue(1_000_000 + 60_000);
    expect((await throttle.count('ip:1', 0, 60_000)).count).toBe(0);
    now.mockRestore();
  });
});
