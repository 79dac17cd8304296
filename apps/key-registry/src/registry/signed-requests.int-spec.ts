import { randomUUID } from 'node:crypto';
import { KEYED_ROUTES, MessageHeaders as HeaderNames, Subjects, type UsageBatch } from '@swap/contracts';
import {
  decodeReply,
  generateSigningKeyPair,
  MessagingClient,
  NatsBus,
  parseSigningKey,
  RequestSigner,
  type MessageHeaders,
} from '@swap/messaging';
import { migrateService, startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { createTestDatabase, RUN_PREFIX, testInfra, testServiceEnv, testSigningKeysEnv } from '@swap/testing';
import pg from 'pg';
import { keyRegistry } from '../key-registry.definition';

jest.setTimeout(30_000);

/** key-registry as it runs, on the machine's nats-server (which lets anyone in): only requests signed by their sender are served. */
describe('key-registry serves only signed management requests and usage counts', () => {
  let db: { url: string; drop: () => Promise<void> };
  let registry: RunningService;
  let rogue: NatsBus;
  let portal: MessagingClient;
  const schema = keyRegistry.uses.database!.schema;

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, keyRegistry);
    registry = await startServiceFromEnv(keyRegistry, testServiceEnv({ DATABASE_URL: db.url }));
    rogue = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'rogue', subjectPrefix: RUN_PREFIX });
    portal = new MessagingClient(rogue, {
      timeoutMs: 5_000,
      signers: { portal: new RequestSigner(parseSigningKey(testSigningKeysEnv.PORTAL_SIGNING_KEY)) },
    });
  });

  afterAll(async () => {
    await rogue?.close();
    await registry?.close();
    await db?.drop();
  });

  async function rows(sql: string): Promise<Record<string, unknown>[]> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }

  async function send(subject: string, body: unknown, headers: MessageHeaders = {}): Promise<unknown> {
    const reply = decodeReply(
      (await rogue.request(subject, typeof body === 'string' ? body : JSON.stringify(body), { timeoutMs: 5_000, headers })).data,
    );
    return reply.ok ? 'ok' : reply.error;
  }

  const refusal = (reason: string, signer = 'partner-portal-api') => ({
    statusCode: 401,
    code: 'UNAUTHORIZED',
    message: `This request must be signed by ${signer}: ${reason}`,
  });

  it('refuses an unsigned request, one signed by another key, altered after signing, moved to another subject, or replayed', async () => {
    const forged = { name: 'Forged Org', actor: 'operator:alice' };
    expect(await send(Subjects.orgCreate, forged)).toEqual(refusal('it carries no signature'));

    const stranger = new RequestSigner(parseSigningKey(generateSigningKeyPair().signingKey));
    expect(await send(Subjects.orgCreate, forged, stranger.headers(Subjects.orgCreate, JSON.stringify(forged)))).toEqual(
      refusal(`signed by an unknown key "${stranger.keyId}"`),
    );

    // The portal's genuine signature on another body, or for another subject, proves nothing here.
    const signer = new RequestSigner(parseSigningKey(testSigningKeysEnv.PORTAL_SIGNING_KEY));
    const genuine = { name: 'Genuine Org', actor: 'user:1' };
    const headers = signer.headers(Subjects.orgCreate, JSON.stringify(genuine));
    expect(await send(Subjects.orgCreate, forged, headers)).toEqual(refusal('the signature does not match the subject, headers and body'));
    const revoke = { orgId: '00000000-0000-4000-8000-000000000000', keyId: '00000000-0000-4000-8000-000000000001', actor: 'user:1' };
    expect(await send(Subjects.keyRevoke, revoke, signer.headers(Subjects.orgCreate, JSON.stringify(revoke)))).toEqual(
      refusal('the signature does not match the subject, headers and body'),
    );
    // An old signature, or a signature dated ahead.
    for (const at of [Date.now() - 120_000, Date.now() + 120_000]) {
      const dated = new RequestSigner(parseSigningKey(testSigningKeysEnv.PORTAL_SIGNING_KEY), () => at);
      expect(await send(Subjects.orgCreate, genuine, dated.headers(Subjects.orgCreate, JSON.stringify(genuine)))).toEqual(
        refusal(`signed at ${at}, more than 60000 ms from now`),
      );
    }

    // Nor with a request id (recorded in the audit log) or an organisation it did not sign.
    for (const added of [{ [HeaderNames.requestId]: 'forged-request' }, { [HeaderNames.orgId]: 'forged-org' }] as MessageHeaders[])
      expect(await send(Subjects.orgCreate, genuine, { ...headers, ...added })).toEqual(
        refusal('the signature does not match the subject, headers and body'),
      );
    // The genuine request is served once; the same bytes and headers again are a replay.
    expect(await send(Subjects.orgCreate, genuine, headers)).toBe('ok');
    expect(await send(Subjects.orgCreate, genuine, headers)).toEqual(refusal('a replay: this nonce was already served'));
    expect(await send(Subjects.orgCreate, genuine, { ...headers, [HeaderNames.signature]: 'not base64!' })).toEqual(
      refusal('the signature is not 64 bytes of base64'),
    );

    expect(await rows(`SELECT name FROM "${schema}".organisations ORDER BY name`)).toEqual([{ name: 'Genuine Org' }]);
    expect(await rows(`SELECT actor, action FROM "${schema}".audit_log`)).toEqual([{ actor: 'user:1', action: 'organisation.create' }]);
  });

  it('refuses a replay whichever replica it reaches: the nonces are shared through Redis', async () => {
    const second = await startServiceFromEnv(keyRegistry, testServiceEnv({ DATABASE_URL: db.url }));
    try {
      const signer = new RequestSigner(parseSigningKey(testSigningKeysEnv.PORTAL_SIGNING_KEY));
      const body = { name: 'Replayed Org', actor: 'user:3' };
      const headers = signer.headers(Subjects.orgCreate, JSON.stringify(body));
      expect(await send(Subjects.orgCreate, body, headers)).toBe('ok');
      // The queue group hands each copy to either replica: none is served again, and copies go
      // until one has reached the replica that did not serve it (1 in 2 each).
      const refusals: unknown[] = [];
      const byAnother = refusal('a replay: this nonce was already served by another replica');
      while (refusals.length < 40 && !refusals.some((r) => JSON.stringify(r) === JSON.stringify(byAnother)))
        refusals.push(await send(Subjects.orgCreate, body, headers));
      expect(refusals).toContainEqual(byAnother);
      for (const refused of refusals) expect([refusal('a replay: this nonce was already served'), byAnother]).toContainEqual(refused);
      expect(await rows(`SELECT count(*)::int AS n FROM "${schema}".organisations WHERE name = 'Replayed Org'`)).toEqual([{ n: 1 }]);
    } finally {
      await second.close();
    }
  });

  it("serves the portal's client (libs/messaging, PORTAL_SIGNING_KEY) and records the actor it names", async () => {
    const org = await portal.request(Subjects.orgCreate, { name: 'Portal Org', actor: 'user:2' });
    const created = await portal.request(Subjects.keyCreate, {
      orgId: org.id,
      name: 'production',
      keyHash: 'ab'.repeat(32),
      prefix: 'svc_Ab3dE9xQ',
      actor: 'user:2',
    });
    await portal.request(Subjects.keyRevoke, { orgId: org.id, keyId: created.apiKey.id, actor: 'user:2' });
    expect(await rows(`SELECT actor, action FROM "${schema}".audit_log WHERE organisation_id = '${org.id}' ORDER BY id`)).toEqual([
      { actor: 'user:2', action: 'organisation.create' },
      { actor: 'user:2', action: 'key.create' },
      { actor: 'user:2', action: 'key.revoke' },
    ]);
    // A client without the key refuses before sending.
    const unsigned = new MessagingClient(rogue, { timeoutMs: 5_000 });
    await expect(unsigned.request(Subjects.orgCreate, { name: 'X', actor: 'user:2' })).rejects.toThrow(
      `${Subjects.orgCreate} must be signed, and this service holds no PORTAL_SIGNING_KEY`,
    );
  });

  it('counts usage only as swap-gateway signed it (USAGE_SIGNING_KEY): a forged batch is refused and stores nothing', async () => {
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    const row = {
      minute,
      orgId: '',
      keyId: '',
      route: Object.keys(KEYED_ROUTES)[0],
      outcome: 'missing' as const,
      clientErrors: 0,
      serverErrors: 0,
    };
    const forged: UsageBatch = { batchId: randomUUID(), rows: [{ ...row, requests: 999_999, clientErrors: 999_999 }] };
    expect(await send(Subjects.usageRecord, forged)).toEqual(refusal('it carries no signature', 'swap-gateway'));
    const portalSigner = new RequestSigner(parseSigningKey(testSigningKeysEnv.PORTAL_SIGNING_KEY));
    expect(await send(Subjects.usageRecord, forged, portalSigner.headers(Subjects.usageRecord, JSON.stringify(forged)))).toEqual(
      refusal(`signed by an unknown key "${portalSigner.keyId}"`, 'swap-gateway'),
    );
    expect(await rows(`SELECT count(*)::int AS n FROM "${schema}".usage_minutes`)).toEqual([{ n: 0 }]);

    const gateway = new MessagingClient(rogue, {
      timeoutMs: 5_000,
      signers: { usage: new RequestSigner(parseSigningKey(testSigningKeysEnv.USAGE_SIGNING_KEY)) },
    });
    const genuine: UsageBatch = { batchId: randomUUID(), rows: [{ ...row, requests: 3, clientErrors: 3 }] };
    expect(await gateway.request(Subjects.usageRecord, genuine)).toEqual({ rows: 1, duplicate: false, rejected: 0 });
    expect(await rows(`SELECT requests FROM "${schema}".usage_minutes`)).toEqual([{ requests: 3 }]);
    await expect(portal.request(Subjects.usageRecord, genuine)).rejects.toThrow(
      `${Subjects.usageRecord} must be signed, and this service holds no USAGE_SIGNING_KEY`,
    );
  });
});
