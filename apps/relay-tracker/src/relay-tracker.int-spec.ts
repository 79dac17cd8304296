import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase } from '@swap/testing';
import { ServiceMetrics } from '@swap/observability';
import pino from 'pino';
import type { ChainEventFeed } from './chain-events/chain-event-feed';
import { PrismaClient } from './generated/prisma/client';
import { relayTracker } from './relay-tracker.definition';
import { RelayTrackerMetrics } from './relay-tracker.metrics';
import { SettlementGauges } from './settlement/settlement-gauges';
import type { SettlementQueue } from './settlement/settlement-queue';

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

  it('keeps the submit’s trace context with the swap, and reports how old the oldest swap of each status is', async () => {
    const traceParent = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    await handle.client.submission.create({
      data: {
        txHash: '0xold',
        srcChainKey: '0xa4b1.arbitrum',
        walletAddress: '0x3',
        intent: {},
        relayData: '0x',
        traceParent,
        createdAt: new Date(Date.now() - 20 * 60_000),
      },
    });
    expect((await handle.client.submission.findFirstOrThrow({ where: { txHash: '0xold' } })).traceParent).toBe(traceParent);
    const service = new ServiceMetrics('relay-tracker', { defaultMetrics: false });
    const gauges = new SettlementGauges(
      handle.client,
      { depth: async () => 0, redelivered: async () => 0 } as unknown as SettlementQueue,
      { backlog: async () => undefined } as unknown as ChainEventFeed,
      new RelayTrackerMetrics(service),
      pino({ level: 'silent' }),
    );
    await gauges.refresh();
    const { values } = await service.registry.getSingleMetric('settlement_oldest_swap_seconds')!.get();
    const oldest = Object.fromEntries(values.map((v) => [v.labels.status, v.value]));
    expect(oldest.pending).toBeGreaterThanOrEqual(20 * 60 - 5);
    expect(oldest.pending).toBeLessThan(20 * 60 + 60);
    expect(oldest.relaying).toBe(0);
  });
});
