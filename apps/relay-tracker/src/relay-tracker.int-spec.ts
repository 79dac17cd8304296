import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase } from '@swap/testing';
import { PrismaClient } from './generated/prisma/client';
import { relayTracker } from './relay-tracker.definition';

describe('relay-tracker storage (PostgreSQL through Prisma)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle<PrismaClient>;

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, relayTracker);
    handle = createPrismaClient(PrismaClient, { url: db.url, schema: 'relay_tracker', poolMax: 2 });
  });

  afterAll(async () => {
    await handle.close();
    await db.drop();
  });

  it('stores and reads back a submission, intent JSON intact', async () => {
    const intent = { intentId: '115792089237316195423570985008687907853269984665640564039457584007913129639935', deadline: '0' };
    const created = await handle.client.submission.create({
      data: { txHash: '0xabc', srcChainKey: '0xa4b1.arbitrum', walletAddress: '0x1', intent, relayData: '0xdead' },
    });
    expect(created.status).toBe('pending');
    const read = await handle.client.submission.findUniqueOrThrow({
      where: { txHash_srcChainKey: { txHash: '0xabc', srcChainKey: '0xa4b1.arbitrum' } },
    });
    expect(read.intent).toEqual(intent);
  });

  it('refuses a second submission of the same (txHash, srcChainKey) pair', async () => {
    await expect(
      handle.client.submission.create({
        data: { txHash: '0xabc', srcChainKey: '0xa4b1.arbitrum', walletAddress: '0x2', intent: {}, relayData: '0x' },
      }),
    ).rejects.toMatchObject({ code: 'P2002' });
    await handle.client.submission.create({
      data: { txHash: '0xabc', srcChainKey: '0x2105.base', walletAddress: '0x2', intent: {}, relayData: '0x' },
    });
    expect(await handle.client.submission.count()).toBe(2);
  });
});
