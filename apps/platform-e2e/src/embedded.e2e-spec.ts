import { listMigrations } from '@swap/persistence';
import { eventually, jsonOf, LogCapture, sampleIntent } from '@swap/testing';
import { relayTracker } from '../../relay-tracker/src/relay-tracker.definition';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPlatform, type Platform } from '../../../tools/embedded/src/platform';
import { CLIENT_DIR, documentText } from '../../../tools/client-gen/src/main';
import { readFileSync } from 'node:fs';

jest.setTimeout(60_000);

const OPS_TOKEN = 'embedded-e2e-operator-token-0123456789';

const get = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
};

describe('the embedded default, called through the gateway', () => {
  let platform: Platform;
  let dataDir: string;
  const logs = new LogCapture();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-e2e-'));
    // OPS_TOKEN reaches every service it starts: the operator routes then want it, loopback or not.
    platform = await startPlatform({
      dataDir,
      gatewayPort: 0,
      servicePorts: 'ephemeral',
      logLevel: 'debug',
      logDestination: logs,
      env: { OPS_TOKEN: `e2e:${OPS_TOKEN}` },
    });
  });

  afterAll(async () => {
    await platform.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs all eight services, each alive and ready', async () => {
    expect(platform.services.map((s) => s.name).sort()).toEqual([
      'api-gateway',
      'key-registry',
      'oracle-candles',
      'partner-portal-api',
      'quote-builder',
      'relay-tracker',
      'sponsorship-keys',
      'swap-gateway',
    ]);
    for (const service of platform.services) {
      expect((await get(`${service.adminUrl}/healthz`)).json()).toEqual({ status: 'ok', service: service.name });
      const ready = await get(`${service.adminUrl}/readyz`);
      expect({ service: service.name, status: ready.status }).toEqual({ service: service.name, status: 200 });
    }
    expect(
      (await get(`${platform.services.find((s) => s.name === 'relay-tracker')!.adminUrl}/readyz`)).json().checks.postgresql.status,
    ).toBe('up');
  });

  it('lists every token grouped by chain key, the hub as 0x92.sonic', async () => {
    const res = await get(`${platform.gatewayUrl}/v1/swaps/tokens`);
    expect(res.status).toBe(200);
    const groups = res.json() as Record<string, { chainKey: string; symbol: string; decimals: number; address: string; name: string }[]>;
    expect(Object.keys(groups)).toEqual(expect.arrayContaining(['0x92.sonic', '0xa4b1.arbitrum', '0x2105.base', 'solana']));
    expect(groups.sonic).toBeUndefined();
    for (const [key, tokens] of Object.entries(groups)) for (const t of tokens) expect(t.chainKey).toBe(key);
    expect(groups['0x92.sonic'].find((t) => t.symbol === 'USDC')).toEqual({
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      address: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
      chainKey: '0x92.sonic',
      hubAsset: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
      vault: '0xAbbb91c0617090F0028BDC27597Cd0D038F3A833',
    });
  });

  it('lists the tokens of one chain, and accepts the public plain name as an alias', async () => {
    const arbitrum = await get(`${platform.gatewayUrl}/v1/swaps/tokens/0xa4b1.arbitrum`);
    expect(arbitrum.status).toBe(200);
    expect(arbitrum.json().map((t: { symbol: string }) => t.symbol)).toEqual(expect.arrayContaining(['ETH', 'USDC', 'WBTC']));
    const sonic = await get(`${platform.gatewayUrl}/v1/swaps/tokens/sonic`);
    expect(sonic.json().filter((t: { chainKey: string }) => t.chainKey !== '0x92.sonic')).toEqual([]);
  });

  it('answers an unknown chain key with 404 and a clear message', async () => {
    const res = await get(`${platform.gatewayUrl}/v1/swaps/tokens/0x1.nowhere`);
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, code: 'CHAIN_NOT_FOUND', message: 'Unknown chain key: 0x1.nowhere' });
  });

  it('answers unknown paths with a 404 in the error shape', async () => {
    for (const path of ['/nope', '/v1/nope', '/v1/swaps/nope/deeper']) {
      const res = await get(`${platform.gatewayUrl}${path}`);
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, code: 'ROUTE_NOT_FOUND', requestId: expect.any(String) });
    }
  });

  it('answers a known path asked with a method it does not answer with 405 and Allow', async () => {
    const wrong = [
      ['DELETE', '/v1/swaps/tokens', 'GET, HEAD'],
      ['GET', '/v1/swaps/quote', 'POST'],
      ['PUT', '/v1/swaps/tokens/0xa4b1.arbitrum', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of wrong) {
      const res = await get(`${platform.gatewayUrl}${path}`, { method });
      expect([path, res.status, res.headers.get('allow')]).toEqual([path, 405, allow]);
      expect(res.json()).toMatchObject({
        statusCode: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: `${method} is not answered at ${path}; it answers ${allow}`,
      });
    }
  });

  it('refuses bodies over 1 MiB with 413', async () => {
    const res = await get(`${platform.gatewayUrl}/v1/swaps/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `"${'a'.repeat(1024 * 1024)}"`,
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('carries one request id from the gateway through swap-gateway to quote-builder', async () => {
    const res = await fetch(`${platform.gatewayUrl}/v1/swaps/intents/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'e2e-trace-1' },
      body: JSON.stringify({ intent: sampleIntent() }),
    });
    expect(res.headers.get('x-request-id')).toBe('e2e-trace-1');
    const services = new Set(logs.where((l) => l.requestId === 'e2e-trace-1').map((l) => l.service));
    expect(services).toEqual(new Set(['api-gateway', 'swap-gateway', 'quote-builder']));
    expect(logs.where((l) => l.requestId === 'e2e-trace-1' && l.service === 'quote-builder')[0]).toMatchObject({
      msg: 'message handled',
      subject: 'quote-builder.intents.hash.v1',
    });
  });

  it('answers the token list from swap-gateway’s memory: no bus message per read', async () => {
    // Each read's own request id: whatever else the platform asks meanwhile (catalog loads, presence) carries another.
    for (let i = 0; i < 5; i++) {
      const read = await get(`${platform.gatewayUrl}/v1/swaps/tokens/0X92.SONIC`, { headers: { 'x-request-id': `e2e-token-read-${i}` } });
      expect(read.status).toBe(200);
    }
    expect(logs.where((l) => String(l.requestId).startsWith('e2e-token-read-') && l.service === 'swap-gateway').length).toBeGreaterThan(0);
    expect(logs.where((l) => String(l.requestId).startsWith('e2e-token-read-') && l.service === 'quote-builder')).toEqual([]);
  });

  it('serves the merged OpenAPI document and Swagger UI over it, its assets from the platform itself', async () => {
    const doc = (await get(`${platform.gatewayUrl}/v1/openapi.json`)).json();
    expect(doc.openapi).toBe('3.0.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/swaps/tokens', '/v1/swaps/tokens/{chainKey}']));
    expect(doc.components.schemas.TokenDto).toBeDefined();
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    expect(doc.paths['/v1/swaps/quote'].post.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/v1/swaps/deadline'].get.security).toEqual([]);
    expect(doc.paths['/portal/api/me'].get.security).toEqual([{ portalSession: [] }]);
    const page = await get(`${platform.gatewayUrl}/v1/docs`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/v1/docs/assets/swagger-ui-bundle.js');
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'docs.js'])
      expect((await get(`${platform.gatewayUrl}/v1/docs/assets/${asset}`)).status).toBe(200);
    // The typed client is generated from this very document (npm run client:generate after an API change).
    expect(documentText(doc) === readFileSync(join(CLIENT_DIR, 'openapi.json'), 'utf8')).toBe(true);
    const missing = await get(`${platform.gatewayUrl}/v1/docs/assets/..%2fpackage.json`);
    expect(missing.status).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
  });

  it('serves the partner portal (its UI and its API) through the gateway at /portal/', async () => {
    const page = await get(`${platform.gatewayUrl}/portal/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<div id="root"></div>');
    const script = /src="(\/portal\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    expect((await get(`${platform.gatewayUrl}${script}`)).status).toBe(200);
    const csrf = await get(`${platform.gatewayUrl}/portal/api/auth/csrf`);
    expect(csrf.json().csrfToken).toMatch(/^[\w-]{32}$/);
    expect((await get(`${platform.gatewayUrl}/portal/api/me`)).status).toBe(401);
  });

  it('serves USD candles from the simulated feed through the gateway, without any key', async () => {
    const markets = await eventually(
      async () => {
        const res = await get(`${platform.gatewayUrl}/v1/be/oracle/markets`);
        return res.json().symbols.includes('ETH') ? res : undefined;
      },
      15_000,
      200,
    );
    expect(markets.headers.get('cache-control')).toBe('public, max-age=10');
    const now = Math.floor(Date.now() / 1000);
    const candles = await get(`${platform.gatewayUrl}/v1/be/oracle/candles?symbol=ETH&interval=1m&from=${now - 600}&to=${now + 60}`, {
      headers: { 'x-api-key': 'svc_wrong' },
    });
    expect(candles.status).toBe(200);
    const body = candles.json();
    expect(body).toMatchObject({ symbol: 'ETH', quote: 'USD', interval: '1m' });
    expect(body.candles.at(-1)).toMatchObject({ final: false, open: expect.stringMatching(/^\d+(\.\d+)?$/) });
    const tooMany = await get(`${platform.gatewayUrl}/v1/be/oracle/candles?symbol=ETH&interval=1m&from=0&to=300060`);
    expect(tooMany.status).toBe(400);
    expect(logs.where((l) => l.service === 'oracle-candles' && String(l.msg).startsWith('PRICES ARE SIMULATED'))).toHaveLength(1);
  });

  it('checks API keys through the gateway: sponsorships always, swaps once an operator enforces them', async () => {
    const registry = platform.services.find((s) => s.name === 'key-registry')!.url;
    const ops = (method: string, path: string, body?: unknown) =>
      fetch(`${registry}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${OPS_TOKEN}` },
        body: body ? JSON.stringify(body) : undefined,
      }).then(jsonOf);
    expect((await get(`${registry}/ops/organisations`)).status).toBe(401);
    const noKey = await get(`${platform.gatewayUrl}/v1/sponsorships/requests`);
    expect({ status: noKey.status, message: noKey.json().message }).toEqual({ status: 401, message: 'Missing x-api-key' });

    const org = await ops('POST', '/ops/organisations', { name: 'Embedded Co' });
    const { key } = await ops('POST', `/ops/organisations/${org.id}/keys`, { name: 'default' });
    await ops('PUT', '/ops/enforcement-modes/swaps', { mode: 'monitor' });
    await ops('PUT', '/ops/enforcement-modes/swaps', { mode: 'enforce' });
    const hash = (headers: Record<string, string>) =>
      get(`${platform.gatewayUrl}/v1/swaps/intents/hash`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    await eventually(async () => (await hash({})).status === 401, 2_000);
    expect((await hash({ 'x-api-key': 'svc_wrong' })).json().message).toBe('Invalid API key');
    // A valid key passes the check (then the empty body fails validation): the key crossed the gateway unchanged.
    expect((await hash({ 'x-api-key': key })).json()).toMatchObject({ statusCode: 400, message: 'intent is required' });
  });

  it('answers 502 naming no internals when an upstream service is down', async () => {
    const oracle = platform.services.find((s) => s.name === 'oracle-candles')!;
    await oracle.close();
    const res = await get(`${platform.gatewayUrl}/v1/be/oracle/markets`);
    expect(res.status).toBe(502);
    expect(res.json()).toMatchObject({ statusCode: 502, code: 'UPSTREAM_UNAVAILABLE', message: 'The upstream service is unavailable' });
    expect(res.text).not.toContain(String(oracle.port));
    expect(res.text).not.toContain('oracle');
  });
});

describe('state of the embedded default', () => {
  it('survives a restart on the same data directory, migrations applied once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'platform-restart-'));
    try {
      const first = await startPlatform({ dataDir, gatewayPort: 0, servicePorts: 'ephemeral', logLevel: 'silent' });
      const client = new pg.Client({ connectionString: first.databaseUrl });
      await client.connect();
      await client.query(
        `INSERT INTO relay_tracker.submissions (id, tx_hash, src_chain_key, wallet_address, intent, relay_data) VALUES (gen_random_uuid(), '0xfeed', '0x2105.base', '0x1', '{}', '0x')`,
      );
      await client.end();
      await first.stop();

      const second = await startPlatform({ dataDir, gatewayPort: 0, servicePorts: 'ephemeral', logLevel: 'silent' });
      const again = new pg.Client({ connectionString: second.databaseUrl });
      await again.connect();
      const rows = await again.query(`SELECT tx_hash FROM relay_tracker.submissions`);
      const migrations = await again.query(`SELECT count(*)::int AS n FROM relay_tracker._prisma_migrations`);
      await again.end();
      await second.stop();
      expect(rows.rows).toEqual([{ tx_hash: '0xfeed' }]);
      expect(migrations.rows[0].n).toBe((await listMigrations(relayTracker.uses.database!.migrationsDir)).length);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
