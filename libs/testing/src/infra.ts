import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { generateSigningKeysEnv, removePrefixedStreams } from '@swap/messaging';
import pg from 'pg';

/** Override with TEST_* variables. */
export const testInfra = {
  postgresUrl: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

export function uniqueId(prefix = 't'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = uniqueId('swap_test');
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: testInfra.postgresUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(testInfra.postgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** Every signing key pair (key sets, the chain catalog, the portal's requests), one per test process. */
export const testSigningKeysEnv: Readonly<Record<string, string>> = generateSigningKeysEnv();

export function testServiceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    ADMIN_PORT: '0',
    LOG_LEVEL: 'silent',
    NATS_URL: testInfra.natsUrl,
    // The test server has no authorization: services are told that is meant.
    NATS_ALLOW_ANONYMOUS: 'true',
    REDIS_URL: testInfra.redisUrl,
    NATS_SUBJECT_PREFIX: RUN_PREFIX,
    CACHE_KEY_PREFIX: RUN_PREFIX,
    ...testSigningKeysEnv,
    ...extra,
  };
}

/** Test files run in parallel on one NATS: one file's services must never answer another's. */
export const RUN_PREFIX = uniqueId('it').replace(/_/g, '-');

export function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 5_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function jsonOf(response: Response): Promise<any> {
  return response.json();
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await jsonOf(res) };
}

export function removeTestStreams(prefix: string = RUN_PREFIX): Promise<void> {
  return removePrefixedStreams(testInfra.natsUrl, prefix);
}
