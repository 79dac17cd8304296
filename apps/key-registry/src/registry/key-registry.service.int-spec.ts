import { MemoryCache } from '@swap/cache';
import {
  AppError,
  Events,
  LEGAL_MODE_MOVES,
  type EnforcementMode,
  type KeySetEntry,
  type KeySetHead,
  type PortalKeySetChange,
  type PortalModes,
  type SignedKeySet,
  type V2,
} from '@swap/contracts';
import { mintKey } from '@swap/key-auth';
import { BusUnavailableError, InProcessBus, SignatureRefused } from '@swap/messaging';
import { createLogger } from '@swap/observability';
import { eventually, LogCapture, uniqueId } from '@swap/testing';
import { refusal, RegistryHarness } from '../testing/registry-harness';
import type { KeySetPublisher } from '../keyset/key-set-publisher';
import { MAX_ACTIVE_KEYS, type KeyRegistryService } from './key-registry.service';

const ACTOR = 'operator:alice';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** An organisation id no row has. */
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/** A bus that is down: every publish throws, as NATS does when its connection is closed. */
class DownBus extends InProcessBus {
  override publish(): void {
    throw new BusUnavailableError('the bus is down');
  }
}

describe('KeyRegistryService (against PostgreSQL)', () => {
  let h: RegistryHarness;
  let registry: KeyRegistryService;
  let keySet: KeySetPublisher;

  beforeAll(async () => {
    h = await RegistryHarness.start();
    ({ registry, keySet } = h.replica());
  });
  afterAll(() => h?.stop());

  const head = async (): Promise<KeySetHead> => {
    const { epoch, version } = await keySet.state();
    return { epoch, version };
  };
  const next = (at: KeySetHead, by = 1): KeySetHead => ({ epoch: at.epoch, version: at.version + by });
  const newOrg = () => registry.createOrganisation(uniqueId('org'), ACTOR);
  /** A key of `orgId` with the hash it was stored under. */
  const newKey = async (orgId: string, name = 'production') => {
    const minted = mintKey('portal');
    const { apiKey } = await registry.createKey(orgId, name, ACTOR, minted);
    return { ...apiKey, hash: minted.hash };
  };
  const entry = (key: { id: string; hash: string }, orgId: string, scopes: string[], suspended: boolean): KeySetEntry => ({
    hash: key.hash,
    keyId: key.id,
    orgId,
    scopes,
    suspended,
  });
  const byKeyId = (entries: KeySetEntry[]) => [...entries].sort((a, b) => a.keyId.localeCompare(b.keyId));
  const snapshotEntriesOf = async (orgId: string) => byKeyId(h.openSnapshot(await keySet.snapshot()).keys.filter((k) => k.orgId === orgId));
  const modesNow = async (): Promise<PortalModes> =>
    Object.fromEntries((await registry.listModes()).map((m) => [m.family, m.mode])) as PortalModes;
  const auditOf = async (target: string) =>
    (await h.prisma.auditRecord.findMany({ where: { target }, orderBy: { id: 'asc' } })).map(
      ({ actor, action, organisationId, details }) => ({ actor, action, organisationId, details }),
    );
  /** Asserts a refused change took no version: the next change is the one right after `before`, and no event came between. */
  const expectNoVersionTaken = async (before: KeySetHead, eventsBefore: number) => {
    expect(await head()).toEqual(before);
    await newOrg();
    await h.events.of(next(before));
    expect(h.events.headsSince(eventsBefore)).toEqual([next(before)]);
  };

  describe('organisations', () => {
    it('creates an active organisation in a change of its own, audited', async () => {
      const before = await head();
      const name = uniqueId('Acme Wallet');
      const org = await registry.createOrganisation(name, ACTOR);

      expect(org).toEqual({ id: expect.stringMatching(UUID), name, status: 'active', createdAt: expect.stringMatching(ISO) });
      expect((await registry.listOrganisations()).filter((o) => o.id === org.id)).toEqual([org]);
      expect(await head()).toEqual(next(before));
      const event = await h.events.of(next(before));
      expect(event).toEqual({
        kind: 'portal-keyset.change',
        ...next(before),
        extends: before.version,
        issuedAt: expect.stringMatching(ISO),
        upserts: [],
        removals: [],
        modes: await modesNow(),
        routeModes: {},
      });
      expect(await auditOf(org.id)).toEqual([{ actor: ACTOR, action: 'organisation.create', organisationId: org.id, details: { name } }]);
    });
  });

  describe('the cap of two active keys per organisation', () => {
    it('is two', () => {
      expect(MAX_ACTIVE_KEYS).toBe(2);
    });

    it('stores a new key by its hash with both portal scopes, and announces it', async () => {
      const org = await newOrg();
      const before = await head();
      const minted = mintKey('portal');
      const { apiKey } = await registry.createKey(org.id, 'production', ACTOR, minted);

      expect(apiKey).toEqual({
        id: expect.stringMatching(UUID),
        name: 'production',
        prefix: minted.displayPrefix,
        scopes: ['swaps:read', 'swaps:write'],
        createdAt: expect.stringMatching(ISO),
      });
      expect(await registry.listKeys(org.id)).toEqual([apiKey]);
      const stored = await h.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
      expect({ keyHash: stored.keyHash, createdBy: stored.createdBy }).toEqual({ keyHash: minted.hash, createdBy: ACTOR });
      const event = await h.events.of(next(before));
      expect({ upserts: event.upserts, removals: event.removals }).toEqual({
        upserts: [entry({ id: apiKey.id, hash: minted.hash }, org.id, ['swaps:read', 'swaps:write'], false)],
        removals: [],
      });
      expect(await auditOf(apiKey.id)).toEqual([
        { actor: ACTOR, action: 'key.create', organisationId: org.id, details: { name: 'production', prefix: minted.displayPrefix } },
      ]);
    });

    it('refuses a third key with 409 API_KEY_LIMIT_REACHED: nothing stored, no version taken', async () => {
      const org = await newOrg();
      const first = await newKey(org.id, 'one');
      const second = await newKey(org.id, 'two');
      const before = await head();
      const eventsBefore = h.events.count();
      const third = mintKey('portal');

      expect(await refusal(registry.createKey(org.id, 'three', ACTOR, third))).toEqual({
        status: 409,
        code: 'API_KEY_LIMIT_REACHED',
        message: 'Two active API keys already exist; revoke one, then create another',
      });
      expect((await registry.listKeys(org.id)).map((k) => k.name)).toEqual(['one', 'two']);
      expect(await snapshotEntriesOf(org.id)).toEqual(
        byKeyId([entry(first, org.id, ['swaps:read', 'swaps:write'], false), entry(second, org.id, ['swaps:read', 'swaps:write'], false)]),
      );
      expect(await h.prisma.apiKey.count({ where: { keyHash: third.hash } })).toBe(0);
      await expectNoVersionTaken(before, eventsBefore);
    });

    it('frees a place when a key is revoked', async () => {
      const org = await newOrg();
      const first = await newKey(org.id, 'one');
      await newKey(org.id, 'two');
      await registry.revokeKey(org.id, first.id, ACTOR);

      await newKey(org.id, 'three');
      expect((await registry.listKeys(org.id)).map((k) => k.name)).toEqual(['two', 'three']);
    });

    it('counts per organisation: a full organisation does not stop another', async () => {
      const full = await newOrg();
      await newKey(full.id, 'one');
      await newKey(full.id, 'two');
      const other = await newOrg();

      await newKey(other.id, 'one');
      await newKey(other.id, 'two');
      expect({ full: (await registry.listKeys(full.id)).length, other: (await registry.listKeys(other.id)).length }).toEqual({
        full: 2,
        other: 2,
      });
    });

    it('holds under concurrent creates (the organisation row is locked): six at once, two stored', async () => {
      const org = await newOrg();
      const before = await head();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => registry.createKey(org.id, `key-${i}`, ACTOR, mintKey('portal'))),
      );

      const summary = outcomes
        .map((o) =>
          o.status === 'fulfilled'
            ? 'created'
            : o.reason instanceof AppError
              ? `${o.reason.getStatus()} ${o.reason.code}`
              : String(o.reason),
        )
        .sort();
      expect(summary).toEqual([
        '409 API_KEY_LIMIT_REACHED',
        '409 API_KEY_LIMIT_REACHED',
        '409 API_KEY_LIMIT_REACHED',
        '409 API_KEY_LIMIT_REACHED',
        'created',
        'created',
      ]);
      expect((await registry.listKeys(org.id)).length).toBe(2);
      expect(await head()).toEqual(next(before, 2));
    });

    it('refuses a key for an organisation that does not exist with 404', async () => {
      expect(await refusal(registry.createKey(NO_SUCH_ID, 'production', ACTOR, mintKey('portal')))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: `Organisation not found: ${NO_SUCH_ID}`,
      });
    });
  });

  describe('suspension and lift', () => {
    it("marks every key of a suspended organisation suspended in the key set, and only that organisation's", async () => {
      const org = await newOrg();
      const a = await newKey(org.id, 'a');
      const b = await newKey(org.id, 'b');
      const bystander = await newOrg();
      const c = await newKey(bystander.id);
      const before = await head();

      expect(await registry.setSuspended(org.id, true, ACTOR)).toEqual({ ...org, status: 'suspended' });

      const event = await h.events.of(next(before));
      expect({ upserts: byKeyId(event.upserts), removals: event.removals }).toEqual({
        upserts: byKeyId([entry(a, org.id, ['swaps:read', 'swaps:write'], true), entry(b, org.id, ['swaps:read', 'swaps:write'], true)]),
        removals: [],
      });
      expect(await snapshotEntriesOf(org.id)).toEqual(
        byKeyId([entry(a, org.id, ['swaps:read', 'swaps:write'], true), entry(b, org.id, ['swaps:read', 'swaps:write'], true)]),
      );
      expect(await snapshotEntriesOf(bystander.id)).toEqual([entry(c, bystander.id, ['swaps:read', 'swaps:write'], false)]);
      expect(await auditOf(org.id)).toEqual([
        { actor: ACTOR, action: 'organisation.create', organisationId: org.id, details: { name: org.name } },
        { actor: ACTOR, action: 'organisation.suspend', organisationId: org.id, details: { from: 'active' } },
      ]);
    });

    it('lifts a suspension: the keys are active again in the key set', async () => {
      const org = await newOrg();
      const a = await newKey(org.id);
      await registry.setSuspended(org.id, true, ACTOR);
      const before = await head();

      expect(await registry.setSuspended(org.id, false, 'operator:bob')).toEqual({ ...org, status: 'active' });

      const event = await h.events.of(next(before));
      expect(event.upserts).toEqual([entry(a, org.id, ['swaps:read', 'swaps:write'], false)]);
      expect(await snapshotEntriesOf(org.id)).toEqual([entry(a, org.id, ['swaps:read', 'swaps:write'], false)]);
      expect((await auditOf(org.id)).at(-1)).toEqual({
        actor: 'operator:bob',
        action: 'organisation.lift',
        organisationId: org.id,
        details: { from: 'suspended' },
      });
    });

    it('enters a key created while its organisation is suspended as suspended', async () => {
      const org = await newOrg();
      await registry.setSuspended(org.id, true, ACTOR);
      const key = await newKey(org.id);

      expect(await snapshotEntriesOf(org.id)).toEqual([entry(key, org.id, ['swaps:read', 'swaps:write'], true)]);
    });

    it('refuses an organisation that does not exist with 404, taking no version', async () => {
      const before = await head();
      const eventsBefore = h.events.count();
      expect(await refusal(registry.setSuspended(NO_SUCH_ID, true, ACTOR))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: `Organisation not found: ${NO_SUCH_ID}`,
      });
      await expectNoVersionTaken(before, eventsBefore);
    });
  });

  describe('revocation', () => {
    it('deletes the key and announces its hash as removed', async () => {
      const org = await newOrg();
      const kept = await newKey(org.id, 'kept');
      const gone = await newKey(org.id, 'gone');
      const before = await head();

      expect(await registry.revokeKey(org.id, gone.id, ACTOR)).toEqual({ revoked: gone.id });

      const event = await h.events.of(next(before));
      expect({ upserts: event.upserts, removals: event.removals }).toEqual({ upserts: [], removals: [gone.hash] });
      expect((await registry.listKeys(org.id)).map((k) => k.id)).toEqual([kept.id]);
      expect(await snapshotEntriesOf(org.id)).toEqual([entry(kept, org.id, ['swaps:read', 'swaps:write'], false)]);
      expect(await auditOf(gone.id)).toEqual([
        { actor: ACTOR, action: 'key.create', organisationId: org.id, details: { name: 'gone', prefix: gone.prefix } },
        { actor: ACTOR, action: 'key.revoke', organisationId: org.id, details: null },
      ]);
    });

    it('answers 404 for a key already revoked, taking no version', async () => {
      const org = await newOrg();
      const key = await newKey(org.id);
      await registry.revokeKey(org.id, key.id, ACTOR);
      const before = await head();
      const eventsBefore = h.events.count();

      expect(await refusal(registry.revokeKey(org.id, key.id, ACTOR))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'API key not found; it may already be revoked',
      });
      await expectNoVersionTaken(before, eventsBefore);
    });

    it("answers 404 for another organisation's key and leaves it in place", async () => {
      const owner = await newOrg();
      const key = await newKey(owner.id);
      const intruder = await newOrg();

      expect(await refusal(registry.revokeKey(intruder.id, key.id, ACTOR))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'API key not found; it may already be revoked',
      });
      expect((await registry.listKeys(owner.id)).map((k) => k.id)).toEqual([key.id]);
    });
  });

  describe('narrowing scopes', () => {
    it('narrows a key to one scope and announces the narrowed entry', async () => {
      const org = await newOrg();
      const key = await newKey(org.id);
      const before = await head();

      const narrowed = await registry.narrowScopes(key.id, ['swaps:read'], ACTOR);

      expect(narrowed).toEqual({ id: key.id, name: key.name, prefix: key.prefix, scopes: ['swaps:read'], createdAt: key.createdAt });
      const event = await h.events.of(next(before));
      expect({ upserts: event.upserts, removals: event.removals }).toEqual({
        upserts: [entry(key, org.id, ['swaps:read'], false)],
        removals: [],
      });
      expect(await snapshotEntriesOf(org.id)).toEqual([entry(key, org.id, ['swaps:read'], false)]);
      expect((await auditOf(key.id)).at(-1)).toEqual({
        actor: ACTOR,
        action: 'key.narrow',
        organisationId: org.id,
        details: { from: ['swaps:read', 'swaps:write'], to: ['swaps:read'] },
      });
    });

    it('counts a scope named twice once', async () => {
      const org = await newOrg();
      const key = await newKey(org.id);

      expect((await registry.narrowScopes(key.id, ['swaps:write', 'swaps:write'], ACTOR)).scopes).toEqual(['swaps:write']);
    });

    it('lets a key keep the scopes it has (not a widening)', async () => {
      const org = await newOrg();
      const key = await newKey(org.id);

      expect((await registry.narrowScopes(key.id, ['swaps:read', 'swaps:write'], ACTOR)).scopes).toEqual(['swaps:read', 'swaps:write']);
    });

    it('refuses to widen with 400 narrowOnly, naming the scope the key lacks; the key keeps its scopes', async () => {
      const org = await newOrg();
      const key = await newKey(org.id);
      await registry.narrowScopes(key.id, ['swaps:read'], ACTOR);
      const before = await head();
      const eventsBefore = h.events.count();

      expect(await refusal(registry.narrowScopes(key.id, ['swaps:read', 'swaps:write'], ACTOR))).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'scopes can only be narrowed; the key does not have swaps:write',
        details: [{ field: 'scopes', rule: 'narrowOnly', message: 'scopes can only be narrowed; the key does not have swaps:write' }],
      });
      expect((await registry.listKeys(org.id)).map((k) => k.scopes)).toEqual([['swaps:read']]);
      await expectNoVersionTaken(before, eventsBefore);
    });

    it('answers 404 for a key that does not exist', async () => {
      expect(await refusal(registry.narrowScopes(NO_SUCH_ID, ['swaps:read'], ACTOR))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'API key not found',
      });
    });
  });

  describe('enforcement mode moves', () => {
    // The spec's moves, written out here rather than read from LEGAL_MODE_MOVES: off → monitor → enforce, and enforce → monitor.
    const ONLY_MOVE: Record<EnforcementMode, EnforcementMode> = { off: 'monitor', monitor: 'enforce', enforce: 'monitor' };
    const PAIRS: [EnforcementMode, EnforcementMode][] = [
      ['off', 'off'],
      ['off', 'monitor'],
      ['off', 'enforce'],
      ['monitor', 'off'],
      ['monitor', 'monitor'],
      ['monitor', 'enforce'],
      ['enforce', 'off'],
      ['enforce', 'monitor'],
      ['enforce', 'enforce'],
    ];
    // One family is arranged in its table (a mode cannot go back to off otherwise); the other is left as it is.
    const FAMILY = 'leverage-yield';
    const arrange = (mode: EnforcementMode) =>
      h.sql(`UPDATE key_registry.enforcement_modes SET mode = $1, updated_by = 'arranged' WHERE family = $2`, [mode, FAMILY]);

    it('has LEGAL_MODE_MOVES say the same', () => {
      expect(LEGAL_MODE_MOVES).toEqual({ off: ['monitor'], monitor: ['enforce'], enforce: ['monitor'] });
    });

    it.each(PAIRS.filter(([from, to]) => ONLY_MOVE[from] === to))(
      'moves %s → %s, audited and announced with every family',
      async (from, to) => {
        await arrange(from);
        const swaps = (await modesNow()).swaps;
        const before = await head();

        const moved = await registry.setMode(FAMILY, to, ACTOR);

        expect(moved).toEqual({ family: FAMILY, mode: to, updatedBy: ACTOR, updatedAt: expect.stringMatching(ISO) });
        expect((await registry.listModes()).find((m) => m.family === FAMILY)).toEqual(moved);
        const event = await h.events.of(next(before));
        expect({ upserts: event.upserts, removals: event.removals, modes: event.modes }).toEqual({
          upserts: [],
          removals: [],
          modes: { swaps, [FAMILY]: to },
        });
        expect((await auditOf(FAMILY)).at(-1)).toEqual({ actor: ACTOR, action: 'mode.set', organisationId: null, details: { from, to } });
      },
    );

    it.each(PAIRS.filter(([from, to]) => ONLY_MOVE[from] !== to))(
      'refuses %s → %s with 409 ILLEGAL_MODE_MOVE, naming the only move; nothing changes',
      async (from, to) => {
        await arrange(from);
        const before = await head();
        const eventsBefore = h.events.count();

        expect(await refusal(registry.setMode(FAMILY, to, ACTOR))).toEqual({
          status: 409,
          code: 'ILLEGAL_MODE_MOVE',
          message: `Cannot move ${FAMILY} from ${from} to ${to}; from ${from} the only move is to ${ONLY_MOVE[from]}`,
        });
        expect((await registry.listModes()).find((m) => m.family === FAMILY)).toEqual({
          family: FAMILY,
          mode: from,
          updatedBy: 'arranged',
          updatedAt: expect.stringMatching(ISO),
        });
        await expectNoVersionTaken(before, eventsBefore);
      },
    );

    it('answers 404 for a family without a mode (sponsorships are always enforced)', async () => {
      expect(await refusal(registry.setMode('sponsorships', 'monitor', ACTOR))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Unknown route family: sponsorships',
      });
    });
  });

  describe('per-route modes', () => {
    const ROUTE = 'POST /v1/swaps/quote';
    const arrangeSwaps = async (mode: EnforcementMode) => {
      await h.sql(`UPDATE key_registry.enforcement_modes SET mode = $1 WHERE family = 'swaps'`, [mode]);
      await h.sql('DELETE FROM key_registry.route_modes');
    };
    const routeNow = async (route = ROUTE) => (await registry.listRouteModes()).find((r) => r.route === route)!;

    it('lists every keyed route following its family until one has its own mode', async () => {
      await arrangeSwaps('monitor');
      const all = await registry.listRouteModes();
      const swaps = all.filter((r) => r.family === 'swaps');
      expect(swaps).toHaveLength(13);
      expect(swaps.every((r) => r.mode === 'monitor' && r.familyMode === 'monitor' && !r.override)).toBe(true);
      // The leveraged-yield family's 14 POST routes follow its own mode, not the swaps family's.
      const leverage = all.filter((r) => r.family === 'leverage-yield');
      expect(leverage).toHaveLength(14);
      const [leverageMode] = await h.sql(`SELECT mode FROM key_registry.enforcement_modes WHERE family = 'leverage-yield'`);
      expect(
        leverage.every(
          (r) =>
            r.route.startsWith('POST /v1/leverage-yield/') && r.mode === r.familyMode && r.familyMode === (leverageMode?.mode ?? 'off'),
        ),
      ).toBe(true);
      expect(all).toHaveLength(27);
    });

    it('moves one route by the legal moves from its effective mode, audited, in the signed key set (v3) and not in v2', async () => {
      await arrangeSwaps('monitor');
      const before = await head();
      const v2Events: SignedKeySet<V2<PortalKeySetChange>>[] = [];
      const v2Subscription = h.bus.subscribe(Events.keySetChangedV2, (m) => void v2Events.push(JSON.parse(m.data)));

      const moved = await registry.setRouteMode(ROUTE, 'enforce', ACTOR);

      expect(moved).toEqual({
        route: ROUTE,
        family: 'swaps',
        mode: 'enforce',
        familyMode: 'monitor',
        override: { mode: 'enforce', updatedBy: ACTOR, updatedAt: expect.stringMatching(ISO) },
      });
      expect((await routeNow('POST /v1/swaps/submit-tx')).mode).toBe('monitor');
      const event = await h.events.of(next(before));
      expect({ modes: event.modes.swaps, routeModes: event.routeModes }).toEqual({ modes: 'monitor', routeModes: { [ROUTE]: 'enforce' } });
      // The previous release's replicas hear the same change, signed, without routeModes.
      await eventually(() => v2Events.some((e) => e.payload.version === next(before).version));
      const old = v2Events.find((e) => e.payload.version === next(before).version)!;
      expect(h.openChangeV2(old)).toEqual({ ...event, routeModes: undefined });
      v2Subscription.unsubscribe();
      expect(h.openSnapshot(await keySet.snapshot()).routeModes).toEqual({ [ROUTE]: 'enforce' });
      const oldSnapshot = await keySet.snapshotV2();
      expect(h.openSnapshotV2(oldSnapshot)).not.toHaveProperty('routeModes');
      expect(h.openAsV3(oldSnapshot).routeModes).toEqual({}); // what a new replica makes of it during a rollout
      expect((await auditOf(ROUTE)).at(-1)).toEqual({
        actor: ACTOR,
        action: 'mode.set-route',
        organisationId: null,
        details: { from: 'monitor', to: 'enforce', own: true },
      });

      // A family move passes a route with its own mode by.
      await registry.setMode('swaps', 'enforce', ACTOR);
      await registry.setRouteMode(ROUTE, 'monitor', ACTOR);
      expect(await routeNow()).toMatchObject({ mode: 'monitor', familyMode: 'enforce' });
      expect((await routeNow('POST /v1/swaps/submit-tx')).mode).toBe('enforce');

      // Cleared: the family's mode again, a legal move from the route's.
      const eventsBefore = await head();
      expect(await registry.setRouteMode(ROUTE, undefined, ACTOR)).toEqual({
        route: ROUTE,
        family: 'swaps',
        mode: 'enforce',
        familyMode: 'enforce',
      });
      expect((await h.events.of(next(eventsBefore))).routeModes).toEqual({});
      expect((await auditOf(ROUTE)).at(-1)).toMatchObject({
        action: 'mode.clear-route',
        details: { from: 'monitor', to: 'enforce', own: false },
      });
    });

    it('refuses an illegal move, a clear that would be one, and a route that is not keyed; nothing changes', async () => {
      await arrangeSwaps('off');
      const before = await head();
      const eventsBefore = h.events.count();
      expect(await refusal(registry.setRouteMode(ROUTE, 'enforce', ACTOR))).toEqual({
        status: 409,
        code: 'ILLEGAL_MODE_MOVE',
        message: `Cannot move ${ROUTE} from off to enforce; from off the only move is to monitor`,
      });
      expect(await refusal(registry.setRouteMode('GET /v1/swaps/tokens', 'monitor', ACTOR))).toMatchObject({
        status: 400,
        details: [expect.objectContaining({ field: 'route', rule: 'keyedRoute' })],
      });
      await expectNoVersionTaken(before, eventsBefore);

      await registry.setRouteMode(ROUTE, 'monitor', ACTOR);
      await registry.setRouteMode(ROUTE, 'enforce', ACTOR);
      expect(await refusal(registry.setRouteMode(ROUTE, undefined, ACTOR))).toEqual({
        status: 409,
        code: 'ILLEGAL_MODE_MOVE',
        message: `Cannot move ${ROUTE} from enforce back to its family's off; from enforce the only move is to monitor`,
      });
      expect((await routeNow()).mode).toBe('enforce');
      expect(await refusal(registry.setRouteMode('POST /v1/swaps/submit-tx', undefined, ACTOR))).toEqual({
        status: 409,
        code: 'ILLEGAL_MODE_MOVE',
        message: 'POST /v1/swaps/submit-tx has no mode of its own; it follows swaps',
      });
      await arrangeSwaps('off');
    });
  });

  describe('the key set version and its signed change events', () => {
    it('bumps the version by one per change, each event signed and on top of the version before', async () => {
      const before = await head();
      const eventsBefore = h.events.count();
      const org = await newOrg();
      const key = await newKey(org.id);
      await registry.narrowScopes(key.id, ['swaps:read'], ACTOR);
      await registry.setSuspended(org.id, true, ACTOR);
      await registry.setSuspended(org.id, false, ACTOR);
      await registry.revokeKey(org.id, key.id, ACTOR);

      const heads = [1, 2, 3, 4, 5, 6].map((by) => next(before, by));
      expect(await head()).toEqual(heads.at(-1));
      // `of` opens each event with the public key: a bad signature or shape fails here.
      const events = await Promise.all(heads.map((at) => h.events.of(at)));
      expect(events.map((e) => ({ kind: e.kind, epoch: e.epoch, version: e.version, extends: e.extends }))).toEqual(
        heads.map((at) => ({ kind: 'portal-keyset.change', epoch: at.epoch, version: at.version, extends: at.version - 1 })),
      );
      expect(events.map((e) => ({ upserts: e.upserts, removals: e.removals }))).toEqual([
        { upserts: [], removals: [] },
        { upserts: [entry(key, org.id, ['swaps:read', 'swaps:write'], false)], removals: [] },
        { upserts: [entry(key, org.id, ['swaps:read'], false)], removals: [] },
        { upserts: [entry(key, org.id, ['swaps:read'], true)], removals: [] },
        { upserts: [entry(key, org.id, ['swaps:read'], false)], removals: [] },
        { upserts: [], removals: [key.hash] },
      ]);
      expect(h.events.headsSince(eventsBefore)).toEqual(heads);
    });

    it('raises the mark of what was announced to each change', async () => {
      const { registry: replica, mark } = h.replica();
      await replica.createOrganisation(uniqueId('org'), ACTOR);
      const after = await head();

      // The mark is raised behind the caller's back, after the publish.
      await eventually(async () => (await mark.read())?.version === after.version);
      expect(await mark.read()).toEqual(after);
    });

    it('keeps a change whose event could not be published, says so, and still raises the mark', async () => {
      const logs = new LogCapture();
      const cache = new MemoryCache({ namespace: uniqueId('key-registry') });
      const { registry: cut, mark } = h.replica({
        bus: new DownBus(),
        cache,
        logger: createLogger({ service: 'key-registry', level: 'warn', destination: logs }),
      });
      const before = await head();

      const org = await cut.createOrganisation(uniqueId('org'), ACTOR);

      expect((await registry.listOrganisations()).map((o) => o.id)).toContain(org.id);
      expect(await head()).toEqual(next(before));
      expect(
        logs.where((l) => l.msg === 'key set change event not published').map(({ level, epoch, version }) => ({ level, epoch, version })),
      ).toEqual([{ level: 'warn', ...next(before) }]);
      await eventually(() => mark.read());
      expect(await mark.read()).toEqual(next(before));
    });
  });

  describe('snapshot', () => {
    it('is signed with the key set key, verifies with its public half, and holds the state of its version', async () => {
      const org = await newOrg();
      const key = await newKey(org.id);
      const state = await keySet.state();

      const signed = await keySet.snapshot();
      const payload = h.openSnapshot(signed);

      expect({ keyId: signed.keyId, publicKey: state.publicKey }).toEqual({ keyId: state.keyId, publicKey: h.publicKey });
      expect(payload).toEqual({
        kind: 'portal-keyset.snapshot',
        epoch: state.epoch,
        version: state.version,
        issuedAt: expect.stringMatching(ISO),
        keys: expect.any(Array),
        modes: await modesNow(),
        routeModes: {},
      });
      expect(payload.keys.filter((k) => k.orgId === org.id)).toEqual([entry(key, org.id, ['swaps:read', 'swaps:write'], false)]);
      expect(payload.keys.length).toBe(await h.prisma.apiKey.count());
    });

    it('does not verify once its content is changed', async () => {
      const org = await newOrg();
      await newKey(org.id);
      await registry.setSuspended(org.id, true, ACTOR);
      const signed = await keySet.snapshot();
      const tampered = { ...signed, payload: { ...signed.payload, keys: signed.payload.keys.map((k) => ({ ...k, suspended: false })) } };

      let refused: unknown;
      try {
        h.openSnapshot(tampered);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(SignatureRefused);
      expect({ reason: (refused as SignatureRefused).reason, message: (refused as SignatureRefused).message }).toEqual({
        reason: 'signature',
        message: 'the signature does not match the payload',
      });
    });
  });
});
