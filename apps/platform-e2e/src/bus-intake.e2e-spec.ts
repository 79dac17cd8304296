import { Subjects } from '@swap/contracts';
import { migrateService, startServiceFromEnv, type AnyServiceDefinition, type RunningService } from '@swap/service-kit';
import {
  createTestDatabase,
  eventually,
  jsonOf,
  LogCapture,
  removeTestStreams,
  sampleIntent,
  testServiceEnv,
  unusedPort,
} from '@swap/testing';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { keyRegistry } from '../../key-registry/src/key-registry.definition';
import { quoteBuilder } from '../../quote-builder/src/quote-builder.definition';
import { relayTracker } from '../../relay-tracker/src/relay-tracker.definition';
import { swapGateway } from '../../swap-gateway/src/swap-gateway.definition';
import { UNREACHABLE_RELAY } from './key-stack';

jest.setTimeout(60_000);

/**
 * A TCP proxy in front of PostgreSQL for one replica: `cut()` drops every connection through
 * it and drops each new one at once (the replica's database is gone, the others' is not);
 * `restore()` lets connections through again.
 */
class DatabaseProxy {
  private readonly sockets = new Set<Socket>();
  private cutOff = false;
  private server?: Server;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.port = await unusedPort();
    this.server = createServer((client) => {
      if (this.cutOff) return void client.destroy();
      const upstream = connect(this.target.port, this.target.host);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ]) {
        this.sockets.add(a);
        a.on('error', () => b.destroy()).on('close', () => (this.sockets.delete(a), b.destroy()));
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    return this;
  }

  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** One sample of a replica's Prometheus text: the sum of the series of `name` whose labels contain `labels`. */
async function metric(service: RunningService, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${service.adminUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && l.includes(labels))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/**
 * The SRE's test of issue 12: two relay-tracker replicas in cluster mode (NATS, PostgreSQL,
 * JetStream), one of them reaching its database through a proxy the test cuts. Once that
 * replica has noticed, it takes no bus work: every status read through swap-gateway is
 * answered by its peer, none with a 5xx; restored, it takes work again.
 */
describe('a relay-tracker replica whose database is cut takes no bus work while its peer serves everything', () => {
  let db: { url: string; drop: () => Promise<void> };
  let proxy: DatabaseProxy;
  const services: RunningService[] = [];
  let healthy: RunningService;
  let broken: RunningService;
  let gateway: RunningService;
  const brokenLogs = new LogCapture();
  const txHash = `0x${'5'.repeat(64)}`;
  const STATUS = `subject="${Subjects.submissionStatus}"`;

  const start = async (definition: AnyServiceDefinition, env: Record<string, string> = {}, logs?: LogCapture) => {
    const service = await startServiceFromEnv(
      definition,
      testServiceEnv({
        DATABASE_URL: db.url,
        WORK_QUEUE: 'jetstream',
        RELAY_API_URL: UNREACHABLE_RELAY,
        LOG_LEVEL: logs ? 'info' : 'silent',
        ...env,
      }),
      logs ? { logDestination: logs } : undefined,
    );
    services.push(service);
    return service;
  };
  /** N status reads through swap-gateway, one after another: their status codes. */
  const readStatus = async (n: number) => {
    const codes: number[] = [];
    for (let i = 0; i < n; i++)
      codes.push((await fetch(`${gateway.url}/v1/swaps/submit-tx/status?txHash=${txHash}&srcChainKey=0xa4b1.arbitrum`)).status);
    return codes;
  };
  const handled = async () => ({
    healthy: await metric(healthy, 'bus_messages_handled_total', STATUS),
    broken: await metric(broken, 'bus_messages_handled_total', STATUS),
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    for (const d of [quoteBuilder, relayTracker, keyRegistry]) await migrateService(db.url, d);
    const url = new URL(db.url);
    proxy = await new DatabaseProxy({ host: url.hostname, port: Number(url.port || 5432) }).start();
    const throughProxy = new URL(db.url);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    await start(keyRegistry); // the signed key set swap-gateway needs before it serves keyed routes (families off)
    await start(quoteBuilder);
    healthy = await start(relayTracker);
    broken = await start(relayTracker, { DATABASE_URL: throughProxy.toString() }, brokenLogs);
    // swap-gateway's Redis out of reach: its status reads miss the read model and are asked of
    // relay-tracker over the bus, the shared work this test watches.
    gateway = await start(swapGateway, { REDIS_URL: `redis://127.0.0.1:${await unusedPort()}` });
    const intent = sampleIntent();
    const submit = await fetch(`${gateway.url}/v1/swaps/submit-tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ txHash, srcChainKey: '0xa4b1.arbitrum', walletAddress: intent.srcAddress, intent, relayData: '0xbeef' }),
    });
    expect((await jsonOf(submit)).data.status).toBe('inserted');
  });

  afterAll(async () => {
    for (const service of services.reverse()) await service.close().catch(() => undefined);
    await proxy?.stop();
    await db?.drop();
    await removeTestStreams();
  });

  it('pauses the broken replica’s intake, serves every request from the peer (0 × 5xx), and takes the replica back once its database answers', async () => {
    // Both replicas serve while both reach the database.
    expect(await readStatus(40)).toEqual(Array(40).fill(200));
    const before = await handled();
    expect(before.healthy).toBeGreaterThan(0);
    expect(before.broken).toBeGreaterThan(0);

    proxy.cut();
    const cutAt = Date.now();
    // Bounded wait on the replica's own signal, not a sleep.
    await eventually(async () => (await metric(broken, 'bus_intake_paused')) === 1, 15_000, 50);
    const noticedMs = Date.now() - cutAt;
    const notReady = await fetch(`${broken.adminUrl}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await jsonOf(notReady)).toMatchObject({ code: 'NOT_READY', intake: 'paused', checks: { postgresql: { status: 'down' } } });
    expect(
      brokenLogs.where((l) => l.level === 'warn' && l.msg === 'not ready: postgresql failing; taking no bus work until it answers again'),
    ).toHaveLength(1);

    const N = 100;
    const atPause = await handled();
    const codes = await readStatus(N);
    const duringCut = await handled();
    expect(codes.filter((c) => c >= 500)).toEqual([]);
    expect(codes).toEqual(Array(N).fill(200));
    expect(duringCut.healthy - atPause.healthy).toBe(N);
    expect(duringCut.broken - atPause.broken).toBe(0);

    proxy.restore();
    await eventually(async () => (await metric(broken, 'bus_intake_paused')) === 0, 15_000, 50);
    expect((await fetch(`${broken.adminUrl}/readyz`)).status).toBe(200);
    const codesAfter = await readStatus(N);
    const after = await handled();
    expect(codesAfter).toEqual(Array(N).fill(200));
    // NATS picks a queue member at random: 100 requests none of which reach one of two is a 2^-99 chance.
    expect(after.broken - duringCut.broken).toBeGreaterThan(0);
    expect(after.healthy - duringCut.healthy + (after.broken - duringCut.broken)).toBe(N);
    process.stdout.write(
      `bus intake: broken replica paused ${noticedMs} ms after its database was cut; ${N}/${N} reads served by the peer meanwhile; after restore it served ${after.broken - duringCut.broken}/${N}\n`,
    );
  });
});
