import { createHash } from 'node:crypto';
import { AppError, Events } from '@swap/contracts';
import { BusUnavailableError, InProcessBus, MessagingClient } from '@swap/messaging';
import { createLogger, type Logger } from '@swap/observability';
import { createPrismaClient, type DatabaseHandle } from '@swap/persistence';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase, eventually, LogCapture, uniqueId } from '@swap/testing';
import { PrismaClient } from '../generated/prisma/client';
import { sponsorshipKeys } from '../sponsorship-keys.definition';
import { SponsoringKeysService } from './sponsoring-keys.service';

const ACTOR = 'operator:alice';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** A sponsoring key: spk_ and 32 random bytes in base64url (43 characters). */
const SPONSORING_KEY = /^spk_[A-Za-z0-9_-]{43}$/;
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A bus that is down: every publish throws, as NATS does when its connection is closed. */
class DownBus extends InProcessBus {
  override publish(): void {
    throw new BusUnavailableError('the bus is down');
  }
}

/** What a refused call threw, as a plain object a failed assertion prints in full. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.getStatus(), code: error.code, message: error.message };
  }
  throw new Error('expected the call to be refused, and it succeeded');
}

describe('SponsoringKeysService (against PostgreSQL)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let handle: DatabaseHandle<PrismaClient>;
  const bus = new InProcessBus();
  /** The version of every change event, in the order the bus delivered them. */
  const announced: number[] = [];
  let keys: SponsoringKeysService;
  const silent = createLogger({ service: 'sponsorship-keys', level: 'silent' });
  const service = (options: { bus?: InProcessBus; logger?: Logger } = {}) =>
    new SponsoringKeysService(handle.client, new MessagingClient(options.bus ?? bus, { timeoutMs: 1_000 }), options.logger ?? silent);

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, sponsorshipKeys);
    handle = createPrismaClient(PrismaClient, { url: db.url, schema: sponsorshipKeys.uses.database!.schema, poolMax: 12 });
    bus.subscribe(Events.sponsoringKeySetChanged, (message) => announced.push((JSON.parse(message.data) as { version: number }).version));
    keys = service();
  });
  afterAll(async () => {
    await bus.close();
    await handle?.close();
    await db?.drop();
  });

  const version = async () => (await keys.snapshot()).version;
  /** Waits for the change event of `v`, then answers every version announced since `from` events had arrived. */
  const announcedUpTo = async (v: number, from: number) => {
    await eventually(() => announced.includes(v));
    return announced.slice(from);
  };

  describe('minting', () => {
    it('answers the key once and stores only its SHA-256, with who minted it', async () => {
      const owner = uniqueId('wallet');
      const { key, sponsoringKey } = await keys.mint(owner, ACTOR);

      expect(key).toMatch(SPONSORING_KEY);
      expect(sponsoringKey).toEqual({
        id: expect.stringMatching(UUID),
        owner,
        prefix: key.slice(0, 12),
        createdAt: expect.stringMatching(ISO),
      });
      const row = await handle.client.sponsoringKey.findUniqueOrThrow({ where: { id: sponsoringKey.id } });
      expect(row).toEqual({
        id: sponsoringKey.id,
        owner,
        prefix: key.slice(0, 12),
        keyHash: sha256(key),
        createdAt: new Date(sponsoringKey.createdAt),
        createdBy: ACTOR,
      });
    });

    it('mints a different key every time, even for one owner', async () => {
      const owner = uniqueId('wallet');
      const first = await keys.mint(owner, ACTOR);
      const second = await keys.mint(owner, ACTOR);

      expect(new Set([first.key, second.key, first.sponsoringKey.prefix, second.sponsoringKey.prefix]).size).toBe(4);
      const byId = <T extends { id: string }>(views: T[]) => [...views].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId((await keys.list()).filter((k) => k.owner === owner))).toEqual(byId([first.sponsoringKey, second.sponsoringKey]));
    });

    it('bumps the key set version by one and announces the new version', async () => {
      const before = await version();
      const from = announced.length;

      await keys.mint(uniqueId('wallet'), ACTOR);

      expect(await version()).toBe(before + 1);
      expect(await announcedUpTo(before + 1, from)).toEqual([before + 1]);
    });

    it('gives concurrent mints one version each: eight at once, eight versions', async () => {
      const owner = uniqueId('wallet');
      const before = await version();
      const from = announced.length;

      await Promise.all(Array.from({ length: 8 }, () => keys.mint(owner, ACTOR)));

      const expected = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => before + n);
      expect(await version()).toBe(before + 8);
      expect([...(await announcedUpTo(before + 8, from))].sort((a, b) => a - b)).toEqual(expected);
      expect((await keys.list()).filter((k) => k.owner === owner).length).toBe(8);
    });

    it('keeps a mint whose event could not be published, and says so', async () => {
      const logs = new LogCapture();
      const cut = service({ bus: new DownBus(), logger: createLogger({ service: 'sponsorship-keys', level: 'warn', destination: logs }) });
      const before = await version();

      const { sponsoringKey } = await cut.mint(uniqueId('wallet'), ACTOR);

      expect((await keys.list()).map((k) => k.id)).toContain(sponsoringKey.id);
      expect(await version()).toBe(before + 1);
      expect(logs.lines.map(({ level, msg, version: v }) => ({ level, msg, version: v }))).toEqual([
        { level: 'warn', msg: 'sponsoring key set change event not published; replicas reload on their timer', version: before + 1 },
      ]);
    });
  });

  describe('the key set', () => {
    it('holds every active key by its hash, owner as organisation, no scopes, never suspended; sponsorships enforced', async () => {
      const owner = uniqueId('wallet');
      const { key, sponsoringKey } = await keys.mint(owner, ACTOR);
      const before = await version();

      const snapshot = await keys.snapshot();

      expect({ version: snapshot.version, modes: snapshot.modes }).toEqual({ version: before, modes: { sponsorships: 'enforce' } });
      expect(snapshot.keys.filter((k) => k.orgId === owner)).toEqual([
        { hash: sha256(key), keyId: sponsoringKey.id, orgId: owner, scopes: [], suspended: false },
      ]);
      expect(snapshot.keys.length).toBe(await handle.client.sponsoringKey.count());
    });

    it('lists keys oldest first, without their hashes', async () => {
      const owner = uniqueId('wallet');
      const minted = [await keys.mint(owner, ACTOR), await keys.mint(owner, ACTOR)].map((m) => m.sponsoringKey);

      const list = await keys.list();

      expect(list.filter((k) => k.owner === owner)).toEqual(expect.arrayContaining(minted));
      expect(list.map((k) => Object.keys(k).sort()).filter((fields) => fields.join() !== 'createdAt,id,owner,prefix')).toEqual([]);
      const times = list.map((k) => k.createdAt);
      expect(times).toEqual([...times].sort());
    });
  });

  describe('revoking', () => {
    it('deletes the key: gone from the list and the key set, a new version announced', async () => {
      const owner = uniqueId('wallet');
      const kept = await keys.mint(owner, ACTOR);
      const gone = await keys.mint(owner, ACTOR);
      const before = await version();
      const from = announced.length;

      expect(await keys.revoke(gone.sponsoringKey.id, ACTOR)).toEqual({ revoked: gone.sponsoringKey.id });

      expect((await keys.list()).filter((k) => k.owner === owner)).toEqual([kept.sponsoringKey]);
      expect((await keys.snapshot()).keys.filter((k) => k.orgId === owner).map((k) => k.hash)).toEqual([sha256(kept.key)]);
      expect(await version()).toBe(before + 1);
      expect(await announcedUpTo(before + 1, from)).toEqual([before + 1]);
    });

    it('answers 404 for a key already revoked, taking no version', async () => {
      const { sponsoringKey } = await keys.mint(uniqueId('wallet'), ACTOR);
      await keys.revoke(sponsoringKey.id, ACTOR);
      const before = await version();
      const from = announced.length;

      expect(await refusal(keys.revoke(sponsoringKey.id, ACTOR))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Sponsoring key not found; it may already be revoked',
      });

      // The next change takes the next version, and no event came before its own.
      await keys.mint(uniqueId('wallet'), ACTOR);
      expect(await announcedUpTo(before + 1, from)).toEqual([before + 1]);
    });

    it('answers 404 for a key that never existed', async () => {
      expect(await refusal(keys.revoke(NO_SUCH_ID, ACTOR))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Sponsoring key not found; it may already be revoked',
      });
    });
  });
});
