import { AppError, type ChainCatalogSnapshot } from '@swap/contracts';
import { InProcessBus, MessagingClient } from '@swap/messaging';
import { RequestContext } from '@swap/observability';
import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase, testCatalogSigning, uniqueId } from '@swap/testing';
import { PrismaClient } from '../generated/prisma/client';
import { sponsorshipKeys } from '../sponsorship-keys.definition';
import { SponsorshipsController } from './sponsorships.controller';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const EVM_WALLET = '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5';
/** The wrapped-SOL mint: a base58 public key of 43 characters. */
const SOLANA_WALLET = 'So11111111111111111111111111111111111111112';

/** quote-builder's chain catalog as the mirror holds it: one EVM chain with an alias, and Solana. */
const CATALOG: ChainCatalogSnapshot = {
  version: 'fixture',
  startedAt: 1,
  chains: [
    { key: '0xa4b1.arbitrum', name: 'Arbitrum', type: 'EVM', chainId: 42161, relayChainId: '23', hub: false, aliases: ['arbitrum'] },
    { key: 'solana', name: 'Solana', type: 'SOLANA', chainId: 'solana', relayChainId: '1', hub: false, aliases: [] },
  ],
  tokensByChain: {},
  partnerFee: null,
};

/** What a refused call threw: status, code and the fields it names (messages are the validators' own). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string; fields?: { field: string; rule: string }[] }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const fields = (error.details as { field: string; rule: string }[] | undefined)?.map(({ field, rule }) => ({ field, rule }));
    return fields ? { status: error.getStatus(), code: error.code, fields } : { status: error.getStatus(), code: error.code };
  }
  throw new Error('expected the call to be refused, and it succeeded');
}

/** The sponsoring routes' rules, called as the route does after the key check: the key's owner in the request context. */
describe('SponsorshipsController (against PostgreSQL)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle<PrismaClient>;
  let controller: SponsorshipsController;
  const bus = new InProcessBus();

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, sponsorshipKeys);
    handle = createPrismaClient(PrismaClient, { url: db.url, schema: sponsorshipKeys.uses.database!.schema });
    const mirror = testCatalogSigning.mirror(new MessagingClient(bus, { timeoutMs: 1_000 }));
    mirror.apply(CATALOG);
    controller = new SponsorshipsController(handle.client, mirror);
  });
  afterAll(async () => {
    await bus.close();
    await handle?.close();
    await db?.drop();
  });

  const as = <T>(owner: string, call: () => Promise<T>) => RequestContext.run({ requestId: uniqueId('req'), orgId: owner }, call);
  const rowsOf = (owner: string) => handle.client.sponsorshipRequest.count({ where: { owner } });

  describe('recording a request', () => {
    it("records it for the key's owner, received", async () => {
      const owner = uniqueId('wallet');

      const view = await as(owner, () => controller.create({ chainKey: '0xa4b1.arbitrum', walletAddress: EVM_WALLET, note: 'first swap' }));

      expect(view).toEqual({
        id: expect.stringMatching(UUID),
        chainKey: '0xa4b1.arbitrum',
        walletAddress: EVM_WALLET,
        note: 'first swap',
        status: 'received',
        createdAt: expect.stringMatching(ISO),
      });
      const row = await handle.client.sponsorshipRequest.findUniqueOrThrow({ where: { id: view.id } });
      expect({ owner: row.owner, keyId: row.keyId }).toEqual({ owner, keyId: null });
    });

    it('stores the chain by its key when named by an alias, in any letter case', async () => {
      const owner = uniqueId('wallet');

      const view = await as(owner, () => controller.create({ chainKey: 'ARBITRUM', walletAddress: EVM_WALLET }));

      expect({ chainKey: view.chainKey, note: view.note }).toEqual({ chainKey: '0xa4b1.arbitrum', note: undefined });
    });

    it('answers 404 CHAIN_NOT_FOUND for a network the catalog does not know; nothing stored', async () => {
      const owner = uniqueId('wallet');

      expect(await refusal(as(owner, () => controller.create({ chainKey: 'atlantis', walletAddress: EVM_WALLET })))).toEqual({
        status: 404,
        code: 'CHAIN_NOT_FOUND',
      });
      expect(await rowsOf(owner)).toBe(0);
    });

    it.each([
      ['a Solana key on an EVM network', '0xa4b1.arbitrum', SOLANA_WALLET, 'evmAddress'],
      ['a short hex address on an EVM network', '0xa4b1.arbitrum', '0x1234', 'evmAddress'],
      ['an EVM address on Solana', 'solana', EVM_WALLET, 'solanaAddress'],
    ])('refuses %s with 400 naming walletAddress; nothing stored', async (_case, chainKey, walletAddress, rule) => {
      const owner = uniqueId('wallet');

      expect(await refusal(as(owner, () => controller.create({ chainKey, walletAddress })))).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        fields: [{ field: 'walletAddress', rule }],
      });
      expect(await rowsOf(owner)).toBe(0);
    });

    it('accepts a base58 public key on Solana', async () => {
      const owner = uniqueId('wallet');

      expect(await as(owner, () => controller.create({ chainKey: 'solana', walletAddress: SOLANA_WALLET }))).toMatchObject({
        chainKey: 'solana',
        walletAddress: SOLANA_WALLET,
      });
    });
  });

  describe('listing requests', () => {
    it("answers only the owner's requests, newest first, at most 100", async () => {
      const owner = uniqueId('wallet');
      const other = uniqueId('wallet');
      const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
      // 101 of the owner's, a second apart, and a newer one of another owner.
      await handle.client.sponsorshipRequest.createMany({
        data: [
          ...Array.from({ length: 101 }, (_, i) => ({
            owner,
            chainKey: 'solana',
            walletAddress: SOLANA_WALLET,
            note: `#${i}`,
            createdAt: at(i),
          })),
          { owner: other, chainKey: 'solana', walletAddress: SOLANA_WALLET, note: 'not yours', createdAt: at(500) },
        ],
      });

      const list = await as(owner, () => controller.list());

      expect(list.map((r) => r.note)).toEqual(Array.from({ length: 100 }, (_, i) => `#${100 - i}`));
      expect(list[0]).toEqual({
        id: expect.stringMatching(UUID),
        chainKey: 'solana',
        walletAddress: SOLANA_WALLET,
        note: '#100',
        status: 'received',
        createdAt: '2026-01-01T00:01:40.000Z',
      });
    });
  });
});
