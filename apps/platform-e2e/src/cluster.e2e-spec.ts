import {
  createTestDatabase,
  eventually,
  jsonOf,
  removeTestStreams,
  RUN_PREFIX,
  testInfra,
  testSigningKeysEnv,
  uniqueId,
  unusedPort,
} from '@swap/testing';
import { spawnNode, stopProcess, type Spawned } from './processes';

jest.setTimeout(60_000);

const SERVICES = ['quote-builder', 'swap-gateway', 'relay-tracker', 'oracle-candles'];

const ready = (url: string) => eventually(async () => (await fetch(`${url}/readyz`)).status === 200, 20_000, 100);

describe('cluster mode: one process per service over NATS and PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> };
  const running: Spawned[] = [];
  const urls: Record<string, string> = {};
  /** Each service's admin port (health, readiness, metrics), apart from the one clients use. */
  const admin: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    const migrate = spawnNode('dist/tools/migrate/src/main.js', { DATABASE_URL: db.url });
    expect(await migrate.exited).toBe(0);
    expect(migrate.stdout.join('\n')).toContain('relay-tracker (schema relay_tracker): applied 20261122000000_submissions');
    expect(migrate.stdout.join('\n')).toContain('oracle-candles (schema oracle_candles): applied 20261122010000_candles');
    for (const name of [...SERVICES, 'api-gateway']) {
      urls[name] = `http://127.0.0.1:${await unusedPort()}`;
      admin[name] = `http://127.0.0.1:${await unusedPort()}`;
    }
    const common = {
      ...testSigningKeysEnv,
      NATS_URL: testInfra.natsUrl,
      NATS_ALLOW_ANONYMOUS: 'true',
      NATS_SUBJECT_PREFIX: RUN_PREFIX,
      REDIS_URL: testInfra.redisUrl,
      CACHE_KEY_PREFIX: uniqueId('cluster'),
      DATABASE_URL: db.url,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      SIMULATION_TICK_MS: '200',
      FLUSH_INTERVAL_MS: '200',
    };
    for (const name of SERVICES) {
      running.push(
        spawnNode(`dist/apps/${name}/src/main.js`, { ...common, PORT: new URL(urls[name]).port, ADMIN_PORT: new URL(admin[name]).port }),
      );
    }
    running.push(
      spawnNode('dist/apps/api-gateway/src/main.js', {
        ...common,
        PORT: new URL(urls['api-gateway']).port,
        ADMIN_PORT: new URL(admin['api-gateway']).port,
        UPSTREAM_SWAP_GATEWAY_URL: urls['swap-gateway'],
        UPSTREAM_QUOTE_BUILDER_URL: urls['quote-builder'],
        UPSTREAM_RELAY_TRACKER_URL: urls['relay-tracker'],
        UPSTREAM_ORACLE_CANDLES_URL: urls['oracle-candles'],
      }),
    );
    for (const url of Object.values(admin)) await ready(url);
  });

  afterAll(async () => {
    for (const p of running) await stopProcess(p);
    await db.drop();
    await removeTestStreams();
  });

  it('serves the token routes through the gateway, swap-gateway asking quote-builder over NATS', async () => {
    const res = await fetch(`${urls['api-gateway']}/v1/swaps/tokens/0x92.sonic`, { headers: { 'x-request-id': 'cluster-1' } });
    expect(res.status).toBe(200);
    expect((await jsonOf(res)).map((t: { symbol: string }) => t.symbol)).toContain('USDC');
    const ready = await jsonOf(await fetch(`${admin['relay-tracker']}/readyz`));
    expect(ready.checks).toMatchObject({ nats: { status: 'up' }, postgresql: { status: 'up' } });
    // The access line is written once the answer has left: it may reach the pipe a moment after the client has it.
    const logged = () =>
      running[1].stdout
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .some((l) => l.requestId === 'cluster-1' && l.msg === 'request completed');
    expect(await eventually(() => (logged() ? true : undefined), 5_000, 20)).toBe(true);
  });

  it('serves candles through the gateway from PostgreSQL and Redis', async () => {
    const markets = await eventually(
      async () => {
        const body = await jsonOf(await fetch(`${urls['api-gateway']}/v1/be/oracle/markets`));
        return body.symbols.includes('BTC') ? body : undefined;
      },
      15_000,
      200,
    );
    expect(markets.quote).toBe('USD');
    const now = Math.floor(Date.now() / 1000);
    const res = await fetch(`${urls['api-gateway']}/v1/be/oracle/candles?symbol=BTC&interval=5m&from=${now - 3600}&to=${now + 300}`);
    expect(res.status).toBe(200);
    expect((await jsonOf(res)).candles.length).toBeGreaterThan(0);
    const ready = await jsonOf(await fetch(`${admin['oracle-candles']}/readyz`));
    expect(ready.checks).toMatchObject({ postgresql: { status: 'up' }, redis: { status: 'up' } });
  });

  it('stops a service gracefully on SIGTERM', async () => {
    const relay = running[2];
    expect(await stopProcess(relay)).toBe(0);
    expect(relay.stdout).toContainEqual(expect.stringContaining('"msg":"relay-tracker stopped"'));
  });
});

describe('a service with bad configuration', () => {
  it('stops at boot with a message naming the variable', async () => {
    const p = spawnNode('dist/apps/swap-gateway/src/main.js', { PORT: 'abc', NATS_URL: 'http://wrong' });
    expect(await p.exited).toBe(78);
    const err = p.stderr.join('\n');
    expect(err).toContain('PORT="abc" is invalid: PORT must be an integer number');
    expect(err).toContain('NATS_URL="http://wrong" is invalid: NATS_URL must be a URL with scheme nats:// or tls://');
    expect(err).toContain("KEYSET_PUBLIC_KEY is required: KEYSET_PUBLIC_KEY must be key-registry's Ed25519 public key");
    expect(err).toContain("CATALOG_PUBLIC_KEY is required: CATALOG_PUBLIC_KEY must be quote-builder's Ed25519 public key");
  });
});

describe('npm start (the embedded default as a process)', () => {
  it('prints the gateway URL and what runs, serves the devnet, and exits cleanly on SIGTERM', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = await mkdtemp(join(tmpdir(), 'npm-start-'));
    const p = spawnNode('dist/tools/embedded/src/main.js', { PORT: '0', SERVICE_PORTS: 'ephemeral', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    try {
      const banner = await eventually(() => p.stdout.find((l) => l.startsWith('Swap platform (embedded default) is up: ')), 30_000, 100);
      const gateway = banner.split(': ')[1];
      expect(p.stdout.join('\n')).toMatch(/quote-builder\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(p.stdout.join('\n')).toMatch(/chains\s+devnet \(anvil\): 0x92\.sonic http/);
      const res = await fetch(`${gateway}/v1/swaps/tokens/0xa4b1.arbitrum`);
      expect((await jsonOf(res)).map((t: { symbol: string }) => t.symbol)).toEqual(['ETH', 'USDC', 'WETH']);
      const deadline = await jsonOf(await fetch(`${gateway}/v1/swaps/deadline?offsetSeconds=60`));
      expect(Number(deadline.deadline)).toBeGreaterThan(Date.now() / 1000);
      expect(await stopProcess(p)).toBe(0);
    } finally {
      await stopProcess(p);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
