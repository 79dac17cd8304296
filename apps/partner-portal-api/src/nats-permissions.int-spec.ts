import { Subjects } from '@swap/contracts';
import { unusedPort } from '@swap/testing';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { connect, StringCodec, type NatsConnection } from 'nats';

const CONF = join(__dirname, '..', '..', '..', 'charts', 'swap-platform', 'files', 'nats-permissions.conf');
const NATS_SERVER = '/usr/sbin/nats-server';
const PASSWORDS: Record<string, string> = {
  'key-registry': 'kr-secret',
  'partner-portal-api': 'portal-secret',
  operator: 'operator-secret',
  'swap-gateway': 'sg-secret',
  'api-gateway': 'ag-secret',
  'quote-builder': 'qb-secret',
  'relay-tracker': 'rt-secret',
  'oracle-candles': 'oc-secret',
  'sponsorship-keys': 'sk-secret',
};
const env = { ...process.env, ...Object.fromEntries(Object.entries(PASSWORDS).map(([user, password]) => [`NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`, password])) };
const codec = StringCodec();

/**
 * The chart's NATS permissions file, on a nats-server started with it: only
 * partner-portal-api and the operators' user reach key-registry's management subjects.
 */
describe('charts/swap-platform/files/nats-permissions.conf on a real nats-server', () => {
  let server: ChildProcess;
  let url: string;
  const connections: NatsConnection[] = [];
  const as = async (user: string) => {
    const nc = await connect({ servers: url, user, pass: PASSWORDS[user], timeout: 2_000 });
    connections.push(nc);
    return nc;
  };

  beforeAll(async () => {
    const check = spawnSync(NATS_SERVER, ['-t', '-c', CONF], { env, encoding: 'utf8' });
    expect(check.status).toBe(0);
    const port = await unusedPort();
    url = `nats://127.0.0.1:${port}`;
    server = spawn(NATS_SERVER, ['-c', CONF, '-a', '127.0.0.1', '-p', String(port)], { env, stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        (await connect({ servers: url, user: 'operator', pass: PASSWORDS.operator })).close();
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });

  afterAll(async () => {
    for (const nc of connections) await nc.close().catch(() => undefined);
    server?.kill('SIGTERM');
  });

  it('lets partner-portal-api and the operator publish key management, and no other service', async () => {
    const registry = await as('key-registry');
    const heard: string[] = [];
    registry.subscribe('key-registry.>', { callback: (_, msg) => (heard.push(`${msg.subject} ${codec.decode(msg.data)}`), msg.respond(codec.encode('ok'))) });
    await registry.flush();

    const portal = await as('partner-portal-api');
    expect(codec.decode((await portal.request(Subjects.keyCreate, codec.encode('portal'), { timeout: 2_000 })).data)).toBe('ok');
    const operator = await as('operator');
    expect(codec.decode((await operator.request(Subjects.modeSet, codec.encode('operator'), { timeout: 2_000 })).data)).toBe('ok');

    for (const user of ['swap-gateway', 'sponsorship-keys', 'quote-builder']) {
      const service = await as(user);
      // Asking for the key set stays allowed: every service caches it.
      expect(codec.decode((await service.request(Subjects.keySetSnapshot, codec.encode(user), { timeout: 2_000 })).data)).toBe('ok');
      for (const subject of [Subjects.keyCreate, Subjects.keyRevoke, Subjects.orgCreate, Subjects.modeSet, 'key-registry.keyset.changed.v1']) {
        service.publish(subject, codec.encode(`${user} forged`));
        await expect(service.request(subject, codec.encode(`${user} forged`), { timeout: 300 })).rejects.toThrow();
      }
      await service.flush();
    }
    // The portal may not move enforcement modes or suspend organisations either.
    await expect(portal.request(Subjects.modeSet, codec.encode('portal forged'), { timeout: 300 })).rejects.toThrow();
    await expect(portal.request(Subjects.orgSuspend, codec.encode('portal forged'), { timeout: 300 })).rejects.toThrow();

    await registry.flush();
    expect(heard.filter((h) => h.includes('forged'))).toEqual([]);
    expect(heard).toEqual(expect.arrayContaining([`${Subjects.keyCreate} portal`, `${Subjects.modeSet} operator`]));
  });

  it('refuses a service that connects without its password', async () => {
    await expect(connect({ servers: url, user: 'swap-gateway', pass: 'wrong', timeout: 2_000, maxReconnectAttempts: 0, reconnect: false })).rejects.toThrow(/Authorization/i);
  });
});
