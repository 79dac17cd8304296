import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase } from '@swap/testing';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { relayTracker } from '../relay-tracker.definition';
import { ChainIndex } from './chain-index';
import { PgLeaseStore } from './follower-leases';
import { FollowerPool } from './follower-pool';

const HUB = '0x92.sonic';

describe('the chain followers’ own connections', () => {
  let db: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle<PrismaClient>;

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, relayTracker);
    // A service pool of one connection with a short wait: taken, it answers nobody else.
    handle = createPrismaClient(PrismaClient, { url: db.url, schema: 'relay_tracker', poolMax: 1, connectTimeoutMs: 1_000 });
  });

  afterAll(async () => {
    await handle?.close();
    await db?.drop();
  });

  it('take, renew and commit the hub’s lease and cursor while settlement holds every connection of the service pool', async () => {
    const followers = new FollowerPool(handle.pool);
    const busy: pg.PoolClient = await handle.pool.connect();
    try {
      // The service pool is exhausted: its next query waits, then gives up.
      await expect(handle.pool.query('SELECT 1')).rejects.toThrow(/timeout/i);

      const index = new ChainIndex(handle.pool, followers);
      const leases = new PgLeaseStore(followers.pool);
      await index.ensureFollowers([HUB]);
      expect(await leases.acquire([HUB], 'replica-a', 2_000)).toEqual([HUB]);
      expect(await leases.renew([HUB], 'replica-a', 2_000)).toEqual([HUB]);
      const to = { number: 7n, hash: `0x${'07'.repeat(32)}`, time: new Date('2026-11-26T12:00:00Z') };
      await index.commit(HUB, 'replica-a', {
        expected: undefined,
        to,
        events: [],
        blocks: [to],
        keepBlocks: 64,
        publishedThrough: undefined,
      });
      expect(await index.state(HUB)).toMatchObject({ holder: 'replica-a', cursor: { number: 7n, hash: to.hash } });
      expect(await index.recentBlocks(HUB, 5)).toEqual([{ number: 7n, hash: to.hash }]);
    } finally {
      busy.release();
      await followers.onApplicationShutdown();
    }
  });
});
