import { Events, KeyCheckMessages } from '@swap/contracts';
import { KeySetCache, UsageRecorder } from '@swap/key-auth';
import { NatsBus, type Bus } from '@swap/messaging';
import { eventually, jsonOf, RUN_PREFIX, sampleIntent, testInfra } from '@swap/testing';
import { UsageStore } from '../../key-registry/src/key-registry.definition';
import { swapGateway } from '../../swap-gateway/src/swap-gateway.definition';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { KeyStack, TESTER_TOKEN } from './key-stack';

const run = promisify(execFile);

jest.setTimeout(60_000);

const INTENT = sampleIntent({ intentId: '7' });

/** A bus on which one subject's events never arrive, as if they were lost on the way. */
function withoutEvents(bus: Bus, subject: string): Bus {
  return {
    kind: bus.kind,
    request: (s, d, o) => bus.request(s, d, o),
    publish: (s, d, h) => bus.publish(s, d, h),
    subscribe: (s, handler, o) =>
      s === subject ? { unsubscribe: () => undefined, drain: async () => undefined } : bus.subscribe(s, handler, o),
    gather: (s, d, onReply, o) => bus.gather(s, d, onReply, o),
    ping: () => bus.ping(),
    close: async () => undefined,
  };
}

let counter = 0;
const submitBody = () => ({
  txHash: `0x${(++counter).toString(16).padStart(64, '0')}`,
  srcChainKey: '0xa4b1.arbitrum',
  walletAddress: INTENT.srcAddress,
  intent: INTENT,
  relayData: '0xdead',
});

describe('API keys across the services', () => {
  const stack = new KeyStack();
  let orgId: string;
  let key: string;
  let keyId: string;

  /** A read route (intents/hash, swaps:read) and a write route (submit-tx, swaps:write). */
  const read = (apiKey?: string, base = stack.url('swap-gateway')) =>
    fetch(`${base}/v1/swaps/intents/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey !== undefined ? { 'x-api-key': apiKey } : {}) },
      body: JSON.stringify({ intent: INTENT }),
    });
  const write = (apiKey?: string) =>
    fetch(`${stack.url('swap-gateway')}/v1/swaps/submit-tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey !== undefined ? { 'x-api-key': apiKey } : {}) },
      body: JSON.stringify(submitBody()),
    });
  const rejection = async (res: Response) => ({ status: res.status, message: ((await jsonOf(res)) as { message: string }).message });
  const cache = () => stack.services['swap-gateway'].app.get(KeySetCache);
  const setMode = async (mode: string) => {
    const res = await stack.ops('key-registry', 'PUT', '/ops/enforcement-modes/swaps', { mode });
    expect(res.status).toBe(200);
    await eventually(() => cache().modeOf('swaps') === mode, 2_000);
  };

  beforeAll(async () => {
    await stack.start();
    orgId = (await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'Acme' })).body.id;
    const created = await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: 'production' });
    key = created.body.key;
    keyId = created.body.apiKey.id;
  });

  afterAll(() => stack.stop());

  it('shows the full key once: the list has name, prefix, scopes and time, never the secret or its hash', async () => {
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    const list = await stack.ops('key-registry', 'GET', `/ops/organisations/${orgId}/keys`);
    expect(list.body).toEqual([
      { id: keyId, name: 'production', prefix: key.slice(0, 12), scopes: ['swaps:read', 'swaps:write'], createdAt: expect.any(String) },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(key.slice(12));
  });

  it('off (the default): serves a missing, a wrong and a revoked key alike', async () => {
    expect(cache().modeOf('swaps')).toBe('off');
    const spare = await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: 'spare' });
    await stack.ops('key-registry', 'DELETE', `/ops/organisations/${orgId}/keys/${spare.body.apiKey.id}`);
    for (const k of [undefined, 'svc_wrong', spare.body.key]) {
      expect((await read(k)).status).toBe(200);
      expect((await write(k)).status).toBe(200);
    }
  });

  it('counts usage in every mode, exactly, per organisation, key, route and outcome, once the batch is flushed', async () => {
    const HASH = 'POST /v1/swaps/intents/hash';
    const SUBMIT = 'POST /v1/swaps/submit-tx';
    const counted = (await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'Counted' })).body.id;
    const full = await stack.ops('key-registry', 'POST', `/ops/organisations/${counted}/keys`, { name: 'full' });
    const reader = await stack.ops('key-registry', 'POST', `/ops/organisations/${counted}/keys`, { name: 'reader' });
    await stack.ops('key-registry', 'PUT', `/ops/keys/${reader.body.apiKey.id}/scopes`, { scopes: ['swaps:read'] });
    await eventually(() => cache().check(reader.body.key, 'swaps:write').outcome === 'scope', 2_000);
    const recorder = stack.services['swap-gateway'].app.get(UsageRecorder);
    const store = stack.services['key-registry'].app.get(UsageStore);
    const deployment = async () => {
      await recorder.flush();
      return (
        (await stack.ops('key-registry', 'GET', '/ops/enforcement-modes/readiness')).body.routes.find(
          (r: { route: string }) => r.route === HASH,
        ) ?? { requests: 0, unidentified: 0 }
      );
    };
    const before = await deployment();

    for (const k of [undefined, undefined, 'svc_wrong', full.body.key, full.body.key, full.body.key])
      expect((await read(k)).status).toBe(200);
    expect((await write(reader.body.key)).status).toBe(200); // off: served, counted as lacking the scope
    const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000).toISOString();
    const report = () => store.report({ orgId: counted, from: new Date(Date.now() - 7_200_000).toISOString(), to, interval: 'minute' });
    await eventually(async () => (await recorder.flush(), (await report()).totals.requests === 4), 3_000);
    const usage = await report();
    expect(usage.routes).toEqual([
      expect.objectContaining({ route: HASH, requests: 3, clientErrors: 0, outcomes: expect.objectContaining({ valid: 3 }) }),
      expect.objectContaining({ route: SUBMIT, requests: 1, outcomes: expect.objectContaining({ scope: 1, valid: 0 }) }),
    ]);
    const perKey = await store.report({ orgId: counted, from: usage.from, to, interval: 'hour', keyId: reader.body.apiKey.id });
    expect(perKey.totals.requests).toBe(1);
    const after = await deployment();
    expect({ requests: after.requests - before.requests, unidentified: after.unidentified - before.unidentified }).toEqual({
      requests: 6,
      unidentified: 3,
    });
    // The operator's table: `npm run ops -- modes readiness` as a process, against this key-registry.
    const { stdout } = await run(process.execPath, ['dist/tools/ops/src/main.js', 'modes', 'readiness'], {
      env: { ...process.env, KEY_REGISTRY_URL: stack.url('key-registry'), OPS_TOKEN: `tester:${TESTER_TOKEN}` },
    });
    expect(stdout).toMatch(new RegExp(`^POST /v1/swaps/intents/hash +off +${after.requests} +${after.unidentified} `, 'm'));
    expect(stdout).toMatch(new RegExp(`^${counted} +POST /v1/swaps/intents/hash +3 +100\\.00% too-early$`, 'm'));
    expect(stdout).toMatch(new RegExp(`^${counted} +POST /v1/swaps/submit-tx +1 +0\\.00% not-ready$`, 'm'));
  });

  it('refuses illegal mode moves with a message', async () => {
    const skip = await stack.ops('key-registry', 'PUT', '/ops/enforcement-modes/swaps', { mode: 'enforce' });
    expect(skip).toEqual({
      status: 409,
      body: expect.objectContaining({
        code: 'ILLEGAL_MODE_MOVE',
        message: 'Cannot move swaps from off to enforce; from off the only move is to monitor',
      }),
    });
    const sponsorships = await stack.ops('key-registry', 'PUT', '/ops/enforcement-modes/sponsorships', { mode: 'off' });
    expect(sponsorships.status).toBe(400);
    expect(sponsorships.body.message).toContain('sponsorship routes are always enforced');
  });

  it('monitor: serves every request and counts each outcome by route, mode and organisation', async () => {
    await setMode('monitor');
    expect((await read()).status).toBe(200);
    expect((await read('svc_wrong')).status).toBe(200);
    expect((await read(key)).status).toBe(200);
    const metrics = await (await fetch(`${stack.services['swap-gateway'].adminUrl}/metrics`)).text();
    expect(metrics).toMatch(
      /api_key_checks_total\{route="\/v1\/swaps\/intents\/hash",family="swaps",mode="monitor",outcome="missing",org="",service="swap-gateway"\} 1/,
    );
    expect(metrics).toMatch(
      /api_key_checks_total\{route="\/v1\/swaps\/intents\/hash",family="swaps",mode="monitor",outcome="invalid",org="",service="swap-gateway"\} 1/,
    );
    expect(metrics).toContain(`outcome="ok",org="${orgId}"`);
  });

  it('a route of its own: enforced while its family monitors, through the signed key set, then back to the family', async () => {
    const HASH = 'POST /v1/swaps/intents/hash';
    const set = await stack.ops('key-registry', 'PUT', '/ops/route-modes', { route: HASH, mode: 'enforce' });
    expect(set).toEqual({
      status: 200,
      body: expect.objectContaining({
        route: HASH,
        mode: 'enforce',
        familyMode: 'monitor',
        override: expect.objectContaining({ mode: 'enforce' }),
      }),
    });
    await eventually(() => cache().modeOf('swaps', HASH) === 'enforce', 2_000);
    expect(await rejection(await read())).toEqual({ status: 401, message: KeyCheckMessages.missing });
    expect((await read(key)).status).toBe(200);
    expect((await write()).status).toBe(200); // submit-tx follows the family: monitor
    const illegal = await stack.ops('key-registry', 'PUT', '/ops/route-modes', { route: 'POST /v1/swaps/quote', mode: 'off' });
    expect(illegal).toMatchObject({ status: 409, body: { code: 'ILLEGAL_MODE_MOVE' } });
    const unknown = await stack.ops('key-registry', 'PUT', '/ops/route-modes', { route: 'GET /v1/swaps/tokens', mode: 'monitor' });
    expect(unknown).toMatchObject({ status: 400, body: { details: [expect.objectContaining({ field: 'route' })] } });
    const listed = await stack.ops('key-registry', 'GET', '/ops/route-modes');
    expect(listed.body.filter((r: { override?: unknown }) => r.override).map((r: { route: string }) => r.route)).toEqual([HASH]);
    const { stdout } = await run(process.execPath, ['dist/tools/ops/src/main.js', 'modes', 'clear-route', HASH], {
      env: { ...process.env, KEY_REGISTRY_URL: stack.url('key-registry'), OPS_TOKEN: `tester:${TESTER_TOKEN}` },
    });
    expect(JSON.parse(stdout)).toEqual({ route: HASH, family: 'swaps', mode: 'monitor', familyMode: 'monitor' });
    await eventually(() => cache().modeOf('swaps', HASH) === 'monitor', 2_000);
    expect((await read()).status).toBe(200);
  });

  it('enforce: rejects with the exact messages of the spec, before the handler runs', async () => {
    await setMode('enforce');
    expect(await rejection(await read())).toEqual({ status: 401, message: KeyCheckMessages.missing });
    expect(await rejection(await read('svc_wrong'))).toEqual({ status: 401, message: 'Invalid API key' });
    expect(await rejection(await write())).toEqual({ status: 401, message: 'Missing x-api-key' });
    const before = stack.logs.where((l) => l.service === 'relay-tracker' && l.msg === 'message handled').length;
    expect((await write('svc_wrong')).status).toBe(401);
    expect(stack.logs.where((l) => l.service === 'relay-tracker' && l.msg === 'message handled').length).toBe(before);
  });

  it('enforce: serves a valid key and puts its organisation on the request in the logs', async () => {
    const res = await write(key);
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    expect(stack.logs.where((l) => l.requestId === requestId && l.msg === 'request completed')[0]).toMatchObject({
      service: 'swap-gateway',
      orgId,
    });
  });

  it('enforce: a narrowed key keeps its scope and is refused the other', async () => {
    const narrow = await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: 'read-only' });
    const narrowed = await stack.ops('key-registry', 'PUT', `/ops/keys/${narrow.body.apiKey.id}/scopes`, { scopes: ['swaps:read'] });
    expect(narrowed.body.scopes).toEqual(['swaps:read']);
    await eventually(async () => (await write(narrow.body.key)).status === 403, 2_000);
    expect(await rejection(await write(narrow.body.key))).toEqual({ status: 403, message: 'API key is missing the swaps:write scope' });
    expect((await read(narrow.body.key)).status).toBe(200);
    const widen = await stack.ops('key-registry', 'PUT', `/ops/keys/${narrow.body.apiKey.id}/scopes`, {
      scopes: ['swaps:read', 'swaps:write'],
    });
    expect(widen.status).toBe(400);
    await stack.ops('key-registry', 'DELETE', `/ops/organisations/${orgId}/keys/${narrow.body.apiKey.id}`);
  });

  it('enforce: no key of a suspended organisation works until it is lifted', async () => {
    await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/suspend`);
    await eventually(async () => (await read(key)).status === 403, 2_000);
    expect(await rejection(await read(key))).toEqual({ status: 403, message: 'This organisation is suspended' });
    await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/lift`);
    await eventually(async () => (await read(key)).status === 200, 2_000);
  });

  it('caps active keys at two, also under 20 concurrent creates', async () => {
    const other = (await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'Busy' })).body.id;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stack.ops('key-registry', 'POST', `/ops/organisations/${other}/keys`, { name: `k${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(18);
    expect(results.find((r) => r.status === 409)!.body.message).toBe('Two active API keys already exist; revoke one, then create another');
    expect((await stack.ops('key-registry', 'GET', `/ops/organisations/${other}/keys`)).body).toHaveLength(2);
  });

  it('validates key names: 1 to 64 characters', async () => {
    const long = await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: 'x'.repeat(65) });
    expect(long.status).toBe(400);
    expect(long.body.details[0]).toMatchObject({ field: 'name', message: 'name must be at most 64 characters' });
    expect((await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: '' })).status).toBe(400);
  });

  it('validates organisation names: 1 to 64 characters, as the portal and the bus do', async () => {
    const long = await stack.ops('key-registry', 'POST', '/ops/organisations', { name: 'x'.repeat(65) });
    expect(long.status).toBe(400);
    expect(long.body.details[0]).toMatchObject({ field: 'name', message: 'name must be at most 64 characters' });
    expect((await stack.ops('key-registry', 'POST', '/ops/organisations', { name: ' ' })).body.details[0]).toMatchObject({
      field: 'name',
      message: 'name must not be blank',
    });
  });

  it('revocation reaches swap-gateway within a second through the change event; a second revoke is a 404', async () => {
    const temp = await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: 'temporary' });
    await eventually(async () => (await read(temp.body.key)).status === 200, 2_000);
    const revoked = Date.now();
    expect((await stack.ops('key-registry', 'DELETE', `/ops/organisations/${orgId}/keys/${temp.body.apiKey.id}`)).status).toBe(200);
    await eventually(async () => (await read(temp.body.key)).status === 401, 1_000, 10);
    expect(Date.now() - revoked).toBeLessThan(1_000);
    const again = await stack.ops('key-registry', 'DELETE', `/ops/organisations/${orgId}/keys/${temp.body.apiKey.id}`);
    expect(again).toEqual({ status: 404, body: expect.objectContaining({ message: 'API key not found; it may already be revoked' }) });
  });

  it('records every change with who, what, when and the request id', async () => {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: (stack as unknown as { db: { url: string } }).db.url });
    await client.connect();
    const { rows } = await client.query(
      `SELECT actor, action, request_id FROM key_registry.audit_log WHERE organisation_id = $1 ORDER BY id`,
      [orgId],
    );
    await client.end();
    expect(rows[0]).toEqual({ actor: 'operator:tester', action: 'organisation.create', request_id: expect.any(String) });
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['key.create', 'key.revoke', 'key.narrow', 'organisation.suspend', 'organisation.lift']),
    );
  });

  it('sponsoring keys work only on the sponsorship routes, portal keys only on the swaps routes', async () => {
    const minted = await stack.ops('sponsorship-keys', 'POST', '/ops/sponsoring-keys', { owner: 'acme-relayer' });
    const sponsoringKey: string = minted.body.key;
    expect(sponsoringKey).toMatch(/^spk_/);
    const wallet = '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5';
    const sponsor = (apiKey?: string, body: object = { chainKey: '0xA4B1.arbitrum', walletAddress: wallet }) =>
      fetch(`${stack.url('sponsorship-keys')}/v1/sponsorships/requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
        body: JSON.stringify(body),
      });
    await eventually(async () => (await sponsor(sponsoringKey)).status === 201, 2_000);
    // The network must be one the platform supports, and the wallet an address of its kind.
    const unknownChain = await sponsor(sponsoringKey, { chainKey: 'not-a-chain', walletAddress: wallet });
    expect(unknownChain.status).toBe(404);
    expect((await jsonOf(unknownChain)).code).toBe('CHAIN_NOT_FOUND');
    const badWallet = await sponsor(sponsoringKey, { chainKey: '0xa4b1.arbitrum', walletAddress: 'x' });
    expect(badWallet.status).toBe(400);
    expect((await jsonOf(badWallet)).details).toEqual([expect.objectContaining({ field: 'walletAddress', rule: 'evmAddress' })]);
    expect(await rejection(await sponsor(key))).toEqual({ status: 401, message: 'Invalid API key' });
    expect(await rejection(await sponsor())).toEqual({ status: 401, message: 'Missing x-api-key' });
    expect(await rejection(await read(sponsoringKey))).toEqual({ status: 401, message: 'Invalid API key' });
    const mine = await jsonOf(
      await fetch(`${stack.url('sponsorship-keys')}/v1/sponsorships/requests`, { headers: { 'x-api-key': sponsoringKey } }),
    );
    expect(mine).toEqual([expect.objectContaining({ chainKey: '0xa4b1.arbitrum', walletAddress: wallet, status: 'received' })]);
  });

  it('revocation reaches a replica that lost the change event within the 15-second refresh', async () => {
    const temp = await stack.ops('key-registry', 'POST', `/ops/organisations/${orgId}/keys`, { name: 'short-lived' });
    const nats = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'deaf-replica', subjectPrefix: RUN_PREFIX });
    const deaf = await stack.add(swapGateway, {}, { bus: withoutEvents(nats, Events.keySetChanged) }, 'deaf-replica');
    expect((await read(temp.body.key, deaf.url)).status).toBe(200);
    const revokedAt = Date.now();
    await stack.ops('key-registry', 'DELETE', `/ops/organisations/${orgId}/keys/${temp.body.apiKey.id}`);
    await eventually(async () => (await read(temp.body.key)).status === 401, 1_000, 10); // the replica that heard the event
    expect((await read(temp.body.key, deaf.url)).status).toBe(200); // the deaf one still holds its last set
    await eventually(async () => (await read(temp.body.key, deaf.url)).status === 401, 16_000, 100);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(15_500);
    await deaf.close();
    await nats.close();
  });

  it('keeps serving the last good key set while key-registry is stopped', async () => {
    const extra = await stack.add(swapGateway, { KEYSET_REFRESH_MS: '200' }, undefined, 'swap-gateway-replica');
    await eventually(async () => (await read(key, extra.url)).status === 200, 2_000);
    await stack.services['key-registry'].close();
    const failures = () =>
      fetch(`${extra.adminUrl}/metrics`)
        .then((r) => r.text())
        .then((t) => Number(/api_key_set_refresh_failures_total\{registry="portal",service="swap-gateway"\} (\d+)/.exec(t)?.[1] ?? 0));
    await eventually(async () => (await failures()) >= 2, 3_000);
    expect((await read(key, extra.url)).status).toBe(200);
    expect(await rejection(await read('svc_wrong', extra.url))).toEqual({ status: 401, message: 'Invalid API key' });
  });
});
