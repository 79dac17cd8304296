import autocannon from 'autocannon';
import { migrateService, startServiceFromEnv, type RunningService } from '@swap/service-kit';
import {
  createTestDatabase,
  eventually,
  removeTestStreams,
  RUN_PREFIX,
  sampleIntent,
  testInfra,
  testSigningKeysEnv,
  testServiceEnv,
  uniqueId,
  unusedPort,
} from '@swap/testing';
import { apiGateway } from '../../api-gateway/src/api-gateway.definition';
import { keyRegistry } from '../../key-registry/src/key-registry.definition';
import { quoteBuilder } from '../../quote-builder/src/quote-builder.definition';
import { spawnNode, type Spawned } from './processes';

jest.setTimeout(90_000);

/** One swap-gateway replica: its own process on fixed ports, so a restart comes back at the same address. */
interface Replica {
  port: number;
  adminPort: number;
  process?: Spawned;
}

const ready = (adminPort: number) =>
  eventually(async () => (await fetch(`http://127.0.0.1:${adminPort}/readyz`)).status === 200, 30_000, 50);

/** Requests a replica's process has served on a route (from its own /metrics). */
async function served(adminPort: number, route: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('http_requests_total{') && l.includes(`route="${route}"`))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/**
 * Issue 12: "a rolling restart of swap-gateway behind the gateway under load: 0 failed
 * requests". Two swap-gateway processes, both in the gateway's UPSTREAM_SWAP_GATEWAY_URL;
 * load through the gateway (the token list, and POST /intents/hash, which changes nothing);
 * each replica in turn gets SIGTERM, drains, exits, starts again and becomes ready.
 */
describe('a rolling restart of swap-gateway behind the gateway, under load', () => {
  let db: { url: string; drop: () => Promise<void> };
  let quote: RunningService;
  let registry: RunningService;
  let gateway: RunningService;
  const replicas: Replica[] = [];
  let env: Record<string, string>;

  const startReplica = async (replica: Replica) => {
    replica.process = spawnNode('dist/apps/swap-gateway/src/main.js', {
      ...env,
      PORT: String(replica.port),
      ADMIN_PORT: String(replica.adminPort),
    });
    await ready(replica.adminPort);
  };

  /** SIGTERM, wait for the exit (its code and how long the drain took), start again, wait until ready. */
  const restart = async (replica: Replica) => {
    const old = replica.process!;
    const signalled = Date.now();
    old.child.kill('SIGTERM');
    const code = await old.exited;
    const drainMs = Date.now() - signalled;
    await startReplica(replica);
    return { code, drainMs, backMs: Date.now() - signalled, stderr: old.stderr };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, quoteBuilder);
    await migrateService(db.url, keyRegistry);
    // The signed key set every swap-gateway needs (families off).
    registry = await startServiceFromEnv(keyRegistry, testServiceEnv({ DATABASE_URL: db.url }));
    quote = await startServiceFromEnv(quoteBuilder, testServiceEnv({ DATABASE_URL: db.url }));
    env = {
      ...testSigningKeysEnv,
      NATS_URL: testInfra.natsUrl,
      NATS_ALLOW_ANONYMOUS: 'true',
      NATS_SUBJECT_PREFIX: RUN_PREFIX,
      REDIS_URL: testInfra.redisUrl,
      CACHE_KEY_PREFIX: uniqueId('rolling'),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    };
    for (let i = 0; i < 2; i++) replicas.push({ port: await unusedPort(), adminPort: await unusedPort() });
    await Promise.all(replicas.map(startReplica));
    gateway = await startServiceFromEnv(
      apiGateway,
      testServiceEnv({ UPSTREAM_SWAP_GATEWAY_URL: replicas.map((r) => `http://127.0.0.1:${r.port}`).join(',') }),
    );
  });

  afterAll(async () => {
    await gateway?.close();
    for (const r of replicas) {
      if (r.process && r.process.child.exitCode === null) {
        r.process.child.kill('SIGTERM');
        await r.process.exited;
      }
    }
    await quote?.close();
    await registry?.close();
    await db?.drop();
    await removeTestStreams();
  });

  it('answers every request (0 errors, 0 non-2xx) while each replica in turn is stopped and started again', async () => {
    // Warm: both replicas hold quote-builder's chain catalog.
    for (const r of replicas) expect((await fetch(`http://127.0.0.1:${r.port}/v1/swaps/tokens/0x92.sonic`)).status).toBe(200);

    const statuses: Record<string, number> = {};
    let finish: (result: autocannon.Result) => void = () => undefined;
    const finished = new Promise<autocannon.Result>((resolve) => (finish = resolve));
    const load = autocannon(
      {
        url: gateway.url,
        connections: 8,
        duration: 60, // stopped once both restarts are done
        requests: [
          { method: 'GET', path: '/v1/swaps/tokens/0x92.sonic' },
          {
            method: 'POST',
            path: '/v1/swaps/intents/hash',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ intent: sampleIntent() }),
          },
        ],
      },
      (_error, result) => finish(result),
    );
    load.on('response', (_client, statusCode) => void (statuses[statusCode] = (statuses[statusCode] ?? 0) + 1));

    await new Promise((r) => setTimeout(r, 1_500)); // load running on both before the first restart
    const first = await restart(replicas[0]);
    const second = await restart(replicas[1]);
    // The replicas started again take their share before the load ends.
    await eventually(
      async () =>
        (await served(replicas[0].adminPort, '/v1/swaps/tokens/:chainKey')) > 0 &&
        (await served(replicas[1].adminPort, '/v1/swaps/tokens/:chainKey')) > 0,
      10_000,
      100,
    );
    load.stop();
    const result = await finished;

    process.stdout.write(
      `rolling restart: ${result.requests.total} requests through the gateway in ${result.duration.toFixed(1)} s, statuses ${JSON.stringify(statuses)}, errors ${result.errors}, timeouts ${result.timeouts}; ` +
        `replica 1 drained and exited in ${first.drainMs} ms (back ready after ${first.backMs} ms), replica 2 in ${second.drainMs} ms (${second.backMs} ms)\n`,
    );
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(Object.keys(statuses)).toEqual(['200']);
    expect(result.requests.total).toBeGreaterThan(500);
  });
});
