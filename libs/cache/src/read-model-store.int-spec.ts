import { testInfra, uniqueId, unusedPort } from '@swap/testing';
import { Redis } from 'ioredis';
import { MemoryReadModelStore, RedisReadModelStore, type ReadModelStore } from './read-model-store';

/**
 * The status read model's rule, on Redis and in memory: a write never replaces a newer
 * one, whatever order concurrent writers arrive in.
 */
describe.each([
  ['Redis', () => new RedisReadModelStore({ url: testInfra.redisUrl, namespace: uniqueId('read-models') })],
  ['memory', () => new MemoryReadModelStore()],
] as const)('ReadModelStore on %s', (_kind, make) => {
  let writer: ReadModelStore;
  let otherWriter: ReadModelStore;

  beforeAll(async () => {
    writer = make();
    otherWriter = writer.kind === 'redis' ? new RedisReadModelStore({ url: testInfra.redisUrl, namespace: namespaceOf(writer) }) : writer;
    for (const store of [writer, otherWriter]) if (store instanceof RedisReadModelStore) await store.connect();
  });

  afterAll(async () => {
    await writer.close();
    if (otherWriter !== writer) await otherWriter.close();
  });

  it('keeps the newer answer when an older write arrives later (a stale write never replaces a newer one)', async () => {
    expect(await writer.put('s:1', 5, '{"status":"relayed"}', 60_000)).toBe(true);
    expect(await otherWriter.put('s:1', 4, '{"status":"relaying"}', 60_000)).toBe(false);
    expect(await otherWriter.put('s:1', 5, '{"status":"relaying"}', 60_000)).toBe(false);
    expect(await writer.get('s:1')).toBe('{"status":"relayed"}');
    expect(await otherWriter.put('s:1', 6, '{"status":"posting_execution"}', 60_000)).toBe(true);
    expect(await writer.get('s:1')).toBe('{"status":"posting_execution"}');
  });

  it('ends with the newest of many concurrent writes from two writers, in any arrival order', async () => {
    const versions = Array.from({ length: 40 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    await Promise.all(versions.map((v, i) => (i % 2 ? writer : otherWriter).put('s:2', v, `{"v":${v}}`, 60_000)));
    expect(await writer.get('s:2')).toBe('{"v":40}');
  });

  it('answers nothing for a key never written', async () => {
    expect(await writer.get('s:never')).toBeUndefined();
  });
});

describe('RedisReadModelStore when Redis is out of reach', () => {
  it('fails a write and a read within its command time, never hangs', async () => {
    const store = new RedisReadModelStore({ url: `redis://127.0.0.1:${await unusedPort()}`, namespace: 'nowhere', commandTimeoutMs: 200 });
    await store.connect().catch(() => undefined);
    const started = Date.now();
    await expect(store.put('k', 1, '{}', 1_000)).rejects.toThrow();
    await expect(store.get('k')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    await store.close();
  });
});

/** The namespace a Redis store writes under (its client's key prefix). */
function namespaceOf(store: ReadModelStore): string {
  const client = (store as unknown as { client: Redis }).client;
  return String(client.options.keyPrefix).replace(/:$/, '');
}
