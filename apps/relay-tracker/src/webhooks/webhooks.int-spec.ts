import { loadConfig } from '@swap/config';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase, testSigningKeysEnv } from '@swap/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import pg from 'pg';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { relayTracker } from '../relay-tracker.definition';
import { WebhooksService } from './webhooks.service';

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** A receiver on this machine's loopback: answers each delivery with the next status of `answers` (then 204), keeps what came. */
async function receiver(answers: number[] = []): Promise<{ url: string; got: Received[]; server: Server; answers: number[] }> {
  const got: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
      });
      const status = answers.shift() ?? 204;
      if (status === 302) res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`, got, server, answers };
}

const headersOf = (r: Received) => ({ 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });

describe('webhooks: endpoints, signed deliveries, retries, rotation, refused addresses (PostgreSQL, loopback receivers)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  const servers: Server[] = [];
  const connects: string[] = [];
  const resolved: string[] = [];
  const services: WebhooksService[] = [];
  /** The deployment's key: every replica (every service made here) has the same. */
  const key = randomBytes(32).toString('hex');
  /** A sender as relay-tracker builds it, with the test's resolver and connect hook. */
  const serviceWith = (env: Record<string, string>) => {
    const config = loadConfig(RelayTrackerConfig, {
      ...testSigningKeysEnv,
      DATABASE_URL: db.url,
      WEBHOOK_ENCRYPTION_KEY: key,
      WEBHOOK_RETRY_DELAYS_MS: '50',
      ...env,
    });
    const service = new WebhooksService(pool, config, pino({ level: 'silent' }), {
      resolver: async (host) => {
        resolved.push(host);
        if (host === 'internal.example') return ['10.1.2.3'];
        if (host === 'mixed.example') return ['192.168.0.9', '127.0.0.1'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
      onConnect: (host, address) => connects.push(`${host}→${address}`),
    });
    services.push(service);
    return service;
  };
  const loopback = () => serviceWith({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8,::1/128', WEBHOOK_ALLOW_HTTP: 'true' });
  const started = async (answers?: number[]) => {
    const r = await receiver(answers);
    servers.push(r.server);
    return r;
  };
  /** A submission of `orgId` moved through `statuses` (its events, and their deliveries, written by the triggers). */
  const swapOf = async (orgId: string, statuses: string[]) => {
    const id = randomUUID();
    const txHash = `0x${randomBytes(32).toString('hex')}`;
    const at = (i: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, i)).toISOString();
    await pool.query(
      `INSERT INTO relay_tracker.submissions (id, tx_hash, src_chain_key, wallet_address, intent, relay_data, intent_hash, history, submitted_by_org)
       VALUES ($1, $2, '0xa4b1.arbitrum', '0x1', '{}', '0x', $3, $4::jsonb, $5)`,
      [id, txHash, `0x${'11'.repeat(32)}`, JSON.stringify([{ status: 'pending', at: at(0), detail: 'submitted' }]), orgId],
    );
    for (const [i, status] of statuses.entries())
      await pool.query(
        `UPDATE relay_tracker.submissions SET status = $2::relay_tracker."SubmissionStatus", history = history || $3::jsonb,
           hub_tx_hash = CASE WHEN $2 = 'relayed' THEN '0xhub' ELSE hub_tx_hash END WHERE id = $1`,
        [id, status, JSON.stringify([{ status, at: at(i + 1), detail: status }])],
      );
    return { id, txHash };
  };
  /** The dispatcher's loop, by hand: deliveries due handed out and attempted until none is left due. */
  const drain = async (service: WebhooksService, rounds = 50) => {
    for (let i = 0; i < rounds; i++) {
      const due = await service.store.claimDue(60_000, 100);
      for (const id of due) {
        const outcome = await service.attempt(id);
        if (outcome.waits) await pool.query(`UPDATE relay_tracker.webhook_deliveries SET next_attempt_at = now() WHERE id = $1`, [id]);
      }
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM relay_tracker.webhook_deliveries WHERE next_attempt_at IS NOT NULL`,
      );
      if (rows[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 60));
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, relayTracker);
    pool = new pg.Pool({ connectionString: db.url, max: 5 });
  });

  afterAll(async () => {
    for (const s of services) await s.onModuleDestroy();
    for (const s of servers) s.close();
    await pool.end();
    await db.drop();
  });

  it('adds an endpoint with a whsec_ secret shown once, at most 5 per organisation, https only unless allowed', async () => {
    const service = loopback();
    const created = await service.create('org-limit', { url: 'http://127.0.0.1:9/hooks' }, 'owner@example.com');
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['submission.status'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    // Sealed at rest: the column holds no trace of it.
    const { rows } = await pool.query(`SELECT secret FROM relay_tracker.webhook_endpoints WHERE id = $1`, [created.id]);
    expect(rows[0].secret).toMatch(/^v1\./);
    expect(rows[0].secret).not.toContain(created.secret.slice(6, 20));
    expect((await service.list('org-limit'))[0]).not.toHaveProperty('secret');
    for (let i = 0; i < 4; i++) await service.create('org-limit', { url: `https://hooks.example/${i}` }, 'owner@example.com');
    await expect(service.create('org-limit', { url: 'https://hooks.example/6' }, 'owner@example.com')).rejects.toMatchObject({
      status: 409,
    });
    await expect(serviceWith({}).create('org-http', { url: 'http://hooks.example/' }, 'x')).rejects.toMatchObject({
      status: 400,
      details: [{ field: 'url', rule: 'webhookUrl', message: 'url must be an https:// URL' }],
    });
  });

  it('delivers every transition of an organisation’s swap in order, signed per Standard Webhooks, the same webhook-id on each attempt', async () => {
    const service = loopback();
    // Down for the first three attempts of the first event: the rest wait behind it (per endpoint, in order).
    const r = await started([503, 500, 502]);
    const endpoint = await service.create('org-a', { url: r.url }, 'owner@example.com');
    const terminalOnly = await started();
    await service.create('org-a', { url: terminalOnly.url, events: ['submission.terminal'] }, 'owner@example.com');
    const other = await started();
    await loopback().create('org-b', { url: other.url }, 'owner@example.com');
    const swap = await swapOf('org-a', ['relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved']);
    await drain(service);
    const verifier = new Webhook(endpoint.secret);
    const delivered = r.got.slice(3).map((g) => ({
      ...(verifier.verify(g.body, headersOf(g)) as {
        type: string;
        data: { status: string; txHash: string; srcChainKey: string; history: unknown[]; result?: unknown };
      }),
      id: g.id,
    }));
    expect(delivered.map((d) => d.data.status)).toEqual([
      'pending',
      'relaying',
      'relayed',
      'posting_execution',
      'posted_execution',
      'solved',
    ]);
    expect(
      delivered.every((d) => d.type === 'submission.status' && d.data.txHash === swap.txHash && d.data.srcChainKey === '0xa4b1.arbitrum'),
    ).toBe(true);
    delivered.forEach((d, i) => expect(d.data.history).toHaveLength(i + 1));
    expect(delivered[1].data.result).toBeUndefined();
    expect(delivered[2].data.result).toEqual({ hubTxHash: '0xhub' });
    // The three failed attempts and the success carried one webhook-id.
    expect(new Set(r.got.slice(0, 4).map((g) => g.id))).toEqual(new Set([delivered[0].id]));
    const log = (await service.deliveries('org-a', endpoint.id)).deliveries;
    expect(log.map((d) => d.seq)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(log[5]).toMatchObject({
      attempts: 4,
      delivered: true,
      lastStatusCode: 204,
      txHash: swap.txHash,
      srcChainKey: '0xa4b1.arbitrum',
    });
    // A replay sends it again; its answer is the delivery as the log shows it.
    expect(await service.replay('org-a', endpoint.id, log[0].id)).toMatchObject({
      id: log[0].id,
      seq: 6,
      txHash: swap.txHash,
      delivered: false,
    });
    await drain(service);
    expect(r.got.at(-1)!.id).toBe(log[0].id);
    // Terminal only: just solved; another organisation's endpoint: nothing.
    expect(terminalOnly.got.map((g) => (JSON.parse(g.body) as { type: string; data: { status: string } }).data.status)).toEqual(['solved']);
    expect(JSON.parse(terminalOnly.got[0].body)).toMatchObject({ type: 'submission.terminal' });
    expect(other.got).toEqual([]);
  });

  it('survives the sender dying after it claimed a delivery: the claim runs out and the delivery is sent', async () => {
    const service = loopback();
    const r = await started();
    await service.create('org-crash', { url: r.url }, 'owner@example.com');
    await swapOf('org-crash', []);
    // A replica claims the delivery, then dies before sending it (nothing else happens).
    expect(await service.store.claimDue(200, 100)).toHaveLength(1);
    expect(await service.store.claimDue(200, 100)).toHaveLength(0);
    await new Promise((r2) => setTimeout(r2, 300));
    await drain(loopback());
    expect(r.got).toHaveLength(1);
  });

  it('signs with both secrets while a rotation overlaps, then with the new one only', async () => {
    const service = loopback();
    const r = await started();
    const endpoint = await service.create('org-rotate', { url: r.url }, 'owner@example.com');
    const rotated = await service.rotate('org-rotate', endpoint.id, 'owner@example.com');
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previousSecretValidUntil!) - Date.now()).toBeGreaterThan(86_000_000);
    await service.test('org-rotate', endpoint.id);
    const during = r.got[0];
    expect(during.signature.split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(during.body, headersOf(during))).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(during.body, headersOf(during))).not.toThrow();
    await pool.query(`UPDATE relay_tracker.webhook_endpoints SET previous_secret_until = now() - interval '1 second' WHERE id = $1`, [
      endpoint.id,
    ]);
    const outcome = await service.test('org-rotate', endpoint.id);
    expect(outcome).toMatchObject({ ok: true, statusCode: 204 });
    const after = r.got[1];
    expect(after.signature.split(' ')).toHaveLength(1);
    expect(() => new Webhook(rotated.secret).verify(after.body, headersOf(after))).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(after.body, headersOf(after))).toThrow();
  });

  it('never connects to a loopback, private, link-local or metadata address, a name resolving to one, or a redirect’s target', async () => {
    const strict = serviceWith({ WEBHOOK_ALLOW_HTTP: 'true' });
    connects.length = 0;
    const urls = [
      'http://127.0.0.1:9/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:9/',
      'http://[::ffff:127.0.0.1]:9/',
      'http://internal.example/',
      'http://mixed.example/',
    ];
    for (const url of urls) {
      const endpoint = await strict.create(`org-ssrf-${urls.indexOf(url)}`, { url }, 'x');
      const outcome = await strict.test(`org-ssrf-${urls.indexOf(url)}`, endpoint.id);
      expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining('not a public address') });
    }
    expect(resolved).toEqual(expect.arrayContaining(['internal.example', 'mixed.example']));
    // A receiver on loopback (allowed here) answers 302 to a private address: not followed.
    const allowed = loopback();
    const redirecting = await started([302]);
    const endpoint = await allowed.create('org-redirect', { url: redirecting.url }, 'x');
    expect(await allowed.test('org-redirect', endpoint.id)).toMatchObject({ ok: false, statusCode: 302 });
    expect(connects).toEqual([`127.0.0.1→127.0.0.1`]);
  });

  it('records a secret it cannot open (another WEBHOOK_ENCRYPTION_KEY) as the attempt’s error, sending nothing and not holding it against the endpoint', async () => {
    const r = await started();
    const endpoint = await loopback().create('org-key', { url: r.url }, 'x');
    const otherKey = new WebhooksService(
      pool,
      loadConfig(RelayTrackerConfig, {
        ...testSigningKeysEnv,
        DATABASE_URL: db.url,
        WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        WEBHOOK_ALLOW_HTTP: 'true',
      }),
      pino({ level: 'silent' }),
      {},
    );
    services.push(otherKey);
    expect(await otherKey.test('org-key', endpoint.id)).toMatchObject({
      ok: false,
      error: 'the endpoint secret cannot be opened with this WEBHOOK_ENCRYPTION_KEY',
    });
    expect(r.got).toEqual([]);
    expect((await otherKey.list('org-key'))[0].failingSince).toBeUndefined();
  });

  it('deletes finished deliveries older than the log’s 7 days, keeping those still owed', async () => {
    const service = loopback();
    const r = await started();
    const endpoint = await service.create('org-old', { url: r.url }, 'x');
    await service.test('org-old', endpoint.id);
    await swapOf('org-old', ['relaying']);
    await pool.query(`UPDATE relay_tracker.webhook_deliveries SET created_at = now() - interval '8 days' WHERE endpoint_id = $1`, [
      endpoint.id,
    ]);
    // The test is finished; the swap's two deliveries are still owed (next_attempt_at set).
    expect(await service.store.prune(7, 10_000)).toBe(1);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM relay_tracker.webhook_deliveries WHERE endpoint_id = $1`, [
      endpoint.id,
    ]);
    expect(rows[0].n).toBe(2);
    await pool.query(`DELETE FROM relay_tracker.webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id]);
  });

  it('disables an endpoint failing for WEBHOOK_DISABLE_AFTER_MS, saying why, and sends it nothing more', async () => {
    const service = serviceWith({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_DISABLE_AFTER_MS: '1000' });
    const r = await started([500, 500, 500, 500, 500, 500, 500, 500, 500, 500]);
    const endpoint = await service.create('org-down', { url: r.url }, 'x');
    await service.test('org-down', endpoint.id);
    await pool.query(`UPDATE relay_tracker.webhook_endpoints SET failing_since = now() - interval '2 seconds' WHERE id = $1`, [
      endpoint.id,
    ]);
    await service.test('org-down', endpoint.id);
    const [view] = await service.list('org-down');
    expect(view).toMatchObject({
      disabledAt: expect.any(String),
      disabledReason: expect.stringMatching(/^every delivery failed since .+; the last: answered 500$/),
    });
    await swapOf('org-down', ['relaying']);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM relay_tracker.webhook_deliveries WHERE endpoint_id = $1 AND type <> 'webhook.test'`,
      [endpoint.id],
    );
    expect(rows[0].n).toBe(0);
  });
});
