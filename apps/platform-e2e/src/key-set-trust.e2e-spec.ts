import { Events, Subjects, type PortalKeySetChange, type PortalKeySetSnapshot, type SignedKeySet } from '@swap/contracts';
import { hashKey, KeySetCache, PORTAL_KEY_SET_STORE_KEY } from '@swap/key-auth';
import {
  encodeReply,
  generateSigningKeyPair,
  InProcessBus,
  MessagingClient,
  NatsBus,
  parseSigningKey,
  PayloadSigner,
} from '@swap/messaging';
import { eventually, jsonOf, RUN_PREFIX, sampleIntent, testInfra, uniqueId } from '@swap/testing';
import { Redis } from 'ioredis';
import { connect, type Msg, type NatsConnection } from 'nats';
import { keyRegistry } from '../../key-registry/src/key-registry.definition';
import { partnerPortalApi } from '../../partner-portal-api/src/partner-portal-api.definition';
import { swapGateway } from '../../swap-gateway/src/swap-gateway.definition';
import { KeyStack } from './key-stack';
import { Browser } from './portal-browser';

jest.setTimeout(60_000);

/** The subjects as they were before key sets were signed: a forgery sent there must change nothing either. */
const V1 = { snapshot: 'key-registry.keyset.snapshot.v1', changed: 'key-registry.keyset.changed.v1' };

/**
 * Issue 14: whoever reaches NATS could act as key-registry. Here an attacker on the real
 * NATS (this file's subject prefix) answers the snapshot request and publishes change
 * events, forged, unsigned, malformed and replayed; swap-gateway keeps the set key-registry
 * signed. Then: a service that never loaded a set answers 503, one restarted while
 * key-registry is down starts from the copy kept in Redis, and no message on the bus
 * carries a full key while keys are created through the ops route and the portal.
 */
describe('key sets that cannot be forged or rolled back from the bus', () => {
  const stack = new KeyStack();
  let orgId: string;
  let key: string;

  const read = (apiKey?: string, base = stack.url('swap-gateway')) =>
    fetch(`${base}/v1/swaps/intents/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey !== undefined ? { 'x-api-key': apiKey } : {}) },
      body: JSON.stringify({ intent: sampleIntent() }),
    });
  const answer = async (res: Response) => ({ status: res.status, message: ((await jsonOf(res)) as { message: string }).message });
  const cache = () => stack.services['swap-gateway'].app.get(KeySetCache);
  const createKey = async (name: string) =>
    (await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name })).body as { key: string; apiKey: { id: string } };

  beforeAll(async () => {
    await stack.start();
    await stack.add(partnerPortalApi, { SCRYPT_LOG_N: '10' });
    orgId = (await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'Acme' })).body.id;
    key = (await createKey('production')).key;
    for (const mode of ['monitor', 'enforce']) {
      expect((await stack.ops('key-registry', 'PUT', '/ops/enforcement-modes/swaps', { mode })).status).toBe(200);
      await eventually(() => cache().modeOf('swaps') === mode, 2_000);
    }
    await eventually(async () => (await read(key)).status === 200, 2_000);
  });

  afterAll(() => stack.stop());

  it('refuses forged, unsigned, malformed and replayed key sets and changes from the bus; the signed set stays', async () => {
    // A replica that waits half a second for a valid snapshot answer, with its own kept copy.
    const targetPrefix = uniqueId('target');
    const target = await stack.add(swapGateway, { RPC_TIMEOUT_MS: '500', CACHE_KEY_PREFIX: targetPrefix }, undefined, 'target');
    const keys = target.app.get(KeySetCache);
    const refusals = async () => {
      const text = await (await fetch(`${target.adminUrl}/metrics`)).text();
      const counts: Record<string, number> = {};
      for (const [, reason, n] of text.matchAll(
        /api_key_set_refused_total\{registry="portal",reason="(\w+)",service="swap-gateway"\} (\d+)/g,
      ))
        counts[reason] = Number(n);
      return counts;
    };
    const attacker = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'attacker', subjectPrefix: RUN_PREFIX });
    const client = new MessagingClient(attacker, { timeoutMs: 2_000 });
    const heard: SignedKeySet<PortalKeySetChange>[] = [];
    const listening = attacker.subscribe(Events.keySetChanged, (m) => heard.push(JSON.parse(m.data)));
    await attacker.ping(); // the subscription is in place at the server before anything is published
    let registryStopped = false;
    try {
      // Genuine material to replay later: a snapshot, and the change events of a key made and then revoked.
      const before = await client.request(Subjects.keySetSnapshot, {});
      const revoked = await createKey('to be revoked');
      await eventually(async () => (await read(revoked.key, target.url)).status === 200, 2_000);
      await stack.ops('key-registry', 'DELETE', `/ops/organisations/${orgId}/keys/${revoked.apiKey.id}`);
      await eventually(async () => (await read(revoked.key, target.url)).status === 401, 2_000);
      await eventually(() => heard.length === 2, 2_000);
      const genuine = [...heard];
      const held = { epoch: keys.epoch, version: keys.version };

      // The attacker's own key set: its key, the swaps family off, a version far ahead.
      const fake = new PayloadSigner(parseSigningKey(generateSigningKeyPair().signingKey));
      const attackerKey = 'svc_' + 'A'.repeat(43);
      const entry = {
        hash: hashKey(attackerKey),
        keyId: '00000000-0000-4000-8000-000000000001',
        orgId,
        scopes: ['swaps:read', 'swaps:write'],
        suspended: false,
      };
      const modesOff = { swaps: 'off' as const, 'leverage-yield': 'off' as const };
      const now = new Date().toISOString();
      const takeover: PortalKeySetSnapshot = {
        kind: 'portal-keyset.snapshot',
        epoch: held.epoch + 1,
        version: 1_000_000,
        issuedAt: now,
        keys: [entry],
        modes: modesOff,
        routeModes: {},
      };
      const forgedChange = fake.sign({
        kind: 'portal-keyset.change',
        epoch: held.epoch,
        version: held.version + 1,
        extends: held.version,
        issuedAt: now,
        upserts: [entry],
        removals: [hashKey(key)],
        modes: modesOff,
        routeModes: {},
      });

      // Change events, on today's subject and on the one before signing.
      const events: [unknown, string][] = [
        [forgedChange, 'signature'],
        [{ ...heard[0], payload: { ...heard[0].payload, modes: null } }, 'signature'], // a genuine event altered
        [{ version: 1_000_000 }, 'unsigned'], // the old shape
        [{ ...forgedChange, extra: true }, 'shape'],
        [heard[0], 'replay'], // genuine: the revoked key's creation, after its revocation
      ];
      const expected = (list: [unknown, string][]) =>
        list.reduce<Record<string, number>>((counts, [, reason]) => ({ ...counts, [reason]: (counts[reason] ?? 0) + 1 }), {});
      for (const [event] of events)
        for (const subject of [Events.keySetChanged, V1.changed]) attacker.publish(subject, JSON.stringify(event));
      const same = (a: Record<string, number>, b: Record<string, number>) =>
        JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
      await eventually(async () => same(await refusals(), expected(events)), 2_000).catch(() => undefined);
      expect(await refusals()).toEqual(expected(events));

      // Snapshot answers, with key-registry stopped: the attacker's are the only ones.
      await stack.services['key-registry'].close();
      registryStopped = true;
      let current: unknown;
      const responders = [Subjects.keySetSnapshot, V1.snapshot].map((subject) =>
        attacker.subscribe(subject, (m) => m.respond?.(encodeReply(current))),
      );
      await attacker.ping(); // the attacker answers the very first snapshot request
      const answers: [unknown, string][] = [
        [fake.sign(takeover), 'signature'],
        [{ ...fake.sign(takeover), keyId: before.keyId }, 'signature'],
        [takeover, 'unsigned'],
        [{ version: 1_000_000, keys: [entry], modes: null }, 'unsigned'],
        [{ ...before, payload: { ...before.payload, modes: null } }, 'signature'],
        [before, 'replay'], // genuinely signed, older: it holds the key revoked since
      ];
      for (const [answer] of answers) {
        current = answer;
        expect(await keys.refresh()).toBe(false);
      }
      for (const r of responders) r.unsubscribe();
      const all = expected([...events, ...answers]);
      expect(await refusals()).toEqual(all);
      expect(
        stack.logs.where(
          (l) => l.service === 'swap-gateway' && l.msg === 'key set refused; keeping the held set' && typeof l.reason === 'string',
        ).length,
      ).toBeGreaterThanOrEqual(events.length + answers.length);

      expect({ epoch: keys.epoch, version: keys.version, mode: keys.modeOf('swaps') }).toEqual({ ...held, mode: 'enforce' });
      expect((await read(key, target.url)).status).toBe(200);
      expect(await answer(await read(attackerKey, target.url))).toEqual({ status: 401, message: 'Invalid API key' });
      expect(await answer(await read(revoked.key, target.url))).toEqual({ status: 401, message: 'Invalid API key' });
      expect(await answer(await read(undefined, target.url))).toEqual({ status: 401, message: 'Missing x-api-key' });
      expect(await answer(await read(attackerKey))).toEqual({ status: 401, message: 'Invalid API key' }); // the stack's own swap-gateway heard the events too

      // A registry restore made explicit: a new epoch, signed; the earlier epoch's changes are refused from then on.
      await stack.add(keyRegistry);
      registryStopped = false;
      const epoch = await stack.ops('key-registry', 'POST', '/ops/keyset/epoch', {});
      expect(epoch).toEqual({ status: 200, body: { epoch: expect.any(Number), version: 1 } });
      expect(epoch.body.epoch).toBeGreaterThan(held.epoch);
      await eventually(() => keys.epoch === epoch.body.epoch, 2_000);
      for (const event of genuine) attacker.publish(Events.keySetChanged, JSON.stringify(event));
      await eventually(async () => (await refusals()).epoch === genuine.length, 2_000);
      expect({ epoch: keys.epoch, version: keys.version }).toEqual({ epoch: epoch.body.epoch, version: 1 });
      expect((await read(key, target.url)).status).toBe(200);
      expect((await read(revoked.key, target.url)).status).toBe(401);
      expect((await stack.ops('key-registry', 'GET', '/ops/keyset')).body).toEqual({
        epoch: epoch.body.epoch,
        version: 1,
        keyId: before.keyId,
        publicKey: expect.any(String),
      });
      expect((await stack.ops('key-registry', 'POST', '/ops/keyset/epoch', { epoch: 1 })).status).toBe(409);
      // An epoch so high that none could follow it is refused.
      expect(await stack.ops('key-registry', 'POST', '/ops/keyset/epoch', { epoch: Number.MAX_SAFE_INTEGER })).toEqual({
        status: 400,
        body: expect.objectContaining({ message: 'epoch must be at most 1000000000000' }),
      });
    } finally {
      // The tests after this one need the registry, whatever happened here.
      if (registryStopped) await stack.add(keyRegistry);
      listening.unsubscribe();
      await attacker.close();
      await target.close();
      const redis = new Redis(testInfra.redisUrl);
      await redis.del(`${targetPrefix}:${PORTAL_KEY_SET_STORE_KEY}`);
      await redis.quit();
    }
  });

  it('starts a new epoch by itself when its database was restored to an earlier version, at start and while running', async () => {
    const { Client } = await import('pg');
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    // A restore: the database back where a backup from `versions` changes ago left it.
    const restore = (versions: number) => db.query('UPDATE key_registry.keyset_state SET version = version - $1 WHERE id = 1', [versions]);
    const changes = async (count: number) => {
      for (let i = 0; i < count; i++)
        expect((await stack.ops('key-registry', 'POST', '/ops/organisations', { name: uniqueId('restored') })).status).toBe(201);
    };
    const state = async () => {
      const { epoch, version } = (await stack.ops('key-registry', 'GET', '/ops/keyset')).body as { epoch: number; version: number };
      return { epoch, version };
    };
    const detected = () =>
      stack.logs.where(
        (l) => l.service === 'key-registry' && String(l.msg).startsWith('the key set database is behind what key-registry announced'),
      ).length;
    let registryStopped = false;
    try {
      await changes(2);
      const announced = await state();
      await eventually(() => cache().version === announced.version && cache().epoch === announced.epoch, 2_000);

      // Restored while stopped: at start it finds its version behind the mark and moves to a new epoch.
      await stack.services['key-registry'].close();
      registryStopped = true;
      await restore(2);
      await stack.add(keyRegistry);
      registryStopped = false;
      const afterStart = await state();
      expect(afterStart.epoch).toBeGreaterThan(announced.epoch);
      expect(afterStart.version).toBe(1);
      await eventually(() => cache().epoch === afterStart.epoch, 2_000);
      expect({ epoch: cache().epoch, version: cache().version }).toEqual(afterStart);
      expect((await read(key)).status).toBe(200);
      expect(detected()).toBe(1);

      // Restored under the running registry: its next announcement finds the mark ahead.
      await changes(3);
      await restore(2);
      await changes(1);
      await eventually(async () => (await state()).epoch > afterStart.epoch, 2_000);
      const whileRunning = await state();
      expect(whileRunning.version).toBe(1);
      await eventually(() => cache().epoch === whileRunning.epoch, 2_000);
      expect((await read(key)).status).toBe(200);
      expect(detected()).toBe(2);
      const audit = await db.query("SELECT actor FROM key_registry.audit_log WHERE action = 'keyset.epoch' ORDER BY id DESC LIMIT 2");
      expect(audit.rows).toEqual([{ actor: 'key-registry:restore-detected' }, { actor: 'key-registry:restore-detected' }]);
    } finally {
      await db.end();
      if (registryStopped) await stack.add(keyRegistry);
    }
  });

  it('answers 503 on an enforced route, with or without a key, while no signed key set has ever loaded', async () => {
    // Its own bus, with no key-registry on it, and a cache namespace with nothing kept.
    const lonely = await stack.add(swapGateway, { CACHE_KEY_PREFIX: uniqueId('lonely') }, { bus: new InProcessBus() }, 'lonely');
    try {
      for (const presented of [key, 'svc_wrong', undefined]) {
        expect(await answer(await read(presented, lonely.url))).toEqual({
          status: 503,
          message: 'API key verification is temporarily unavailable',
        });
      }
    } finally {
      await lonely.close();
    }
  });

  it('sends no full key over the bus when keys are created through the ops route and the portal', async () => {
    const sniffer: NatsConnection = await connect({ servers: testInfra.natsUrl, name: 'sniffer' });
    const seen: string[] = [];
    const record = (m: Msg) =>
      seen.push(`${m.subject} ${m.headers ? JSON.stringify([...m.headers]) : ''} ${Buffer.from(m.data).toString('utf8')}`);
    const subscriptions = ['>', '_INBOX.>'].map((subject) => sniffer.subscribe(subject, { callback: (_error, m) => record(m) }));
    await sniffer.flush();
    try {
      const other = (await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'Sniffed' })).body.id;
      const viaOps = (await stack.ops('key-registry', 'POST', `/ops/organisations/${other}/keys`, { name: 'ops' })).body.key as string;
      const owner = new Browser(() => stack.url('partner-portal-api'));
      await owner.signUp('sniffed@example.com');
      const org = await owner.call('POST', '/portal/api/orgs', { name: 'Sniffed Portal' });
      const created = await owner.call('POST', `/portal/api/orgs/${org.body.id}/keys`, { name: 'portal' });
      expect(created.status).toBe(201);
      const viaPortal = created.body.key as string;
      expect([viaOps, viaPortal]).toEqual([expect.stringMatching(/^svc_[\w-]{43}$/), expect.stringMatching(/^svc_[\w-]{43}$/)]);
      // The sniffer did hear them: the portal's create request (hash and prefix only) and each signed change event.
      const heardOf = (k: string) => seen.filter((line) => line.includes(hashKey(k))).length;
      await eventually(() => heardOf(viaOps) >= 1 && heardOf(viaPortal) >= 2, 2_000);
      await sniffer.flush();
      const leaks = seen.filter((line) => [viaOps, viaPortal].some((k) => line.includes(k.slice(4)) || line.includes(k.slice(12))));
      expect(leaks).toEqual([]);
    } finally {
      for (const s of subscriptions) s.unsubscribe();
      await sniffer.close();
    }
  });

  it('starts a swap-gateway restarted while key-registry is down from the signed copy kept in Redis', async () => {
    const prefix = uniqueId('kept');
    const redis = new Redis(testInfra.redisUrl, { lazyConnect: true });
    await redis.connect();
    try {
      const first = await stack.add(swapGateway, { CACHE_KEY_PREFIX: prefix }, undefined, 'before-restart');
      expect((await read(key, first.url)).status).toBe(200);
      await eventually(async () => (await redis.get(`${prefix}:${PORTAL_KEY_SET_STORE_KEY}`)) !== null, 2_000);
      const version = { epoch: first.app.get(KeySetCache).epoch, version: first.app.get(KeySetCache).version };
      await first.close();
      await stack.services['key-registry'].close();

      const restarted = await stack.add(swapGateway, { CACHE_KEY_PREFIX: prefix }, undefined, 'after-restart');
      const keys = restarted.app.get(KeySetCache);
      expect({ loaded: keys.loaded, epoch: keys.epoch, version: keys.version, mode: keys.modeOf('swaps') }).toEqual({
        loaded: true,
        ...version,
        mode: 'enforce',
      });
      expect((await read(key, restarted.url)).status).toBe(200);
      expect(await answer(await read('svc_wrong', restarted.url))).toEqual({ status: 401, message: 'Invalid API key' });
      expect(
        stack.logs.where((l) => l.service === 'swap-gateway' && l.msg === 'key set restored from the kept copy').length,
      ).toBeGreaterThanOrEqual(1);

      // Forged into Redis, the copy is checked again and refused: that replica knows nothing and answers 503.
      const forgedPrefix = uniqueId('forged');
      const fake = new PayloadSigner(parseSigningKey(generateSigningKeyPair().signingKey));
      const stored = JSON.parse((await redis.get(`${prefix}:${PORTAL_KEY_SET_STORE_KEY}`))!);
      await redis.set(
        `${forgedPrefix}:${PORTAL_KEY_SET_STORE_KEY}`,
        JSON.stringify({ snapshot: fake.sign(stored.snapshot.payload), changes: [] }),
        'PX',
        60_000,
      );
      const fooled = await stack.add(swapGateway, { CACHE_KEY_PREFIX: forgedPrefix }, undefined, 'forged-copy');
      expect(await answer(await read(key, fooled.url))).toEqual({
        status: 503,
        message: 'API key verification is temporarily unavailable',
      });
      await redis.del(`${forgedPrefix}:${PORTAL_KEY_SET_STORE_KEY}`);
    } finally {
      await redis.del(`${prefix}:${PORTAL_KEY_SET_STORE_KEY}`);
      await redis.quit();
      await stack.add(keyRegistry);
    }
  });
});
