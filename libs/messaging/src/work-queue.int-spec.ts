import { createTestDatabase, eventually, testInfra, uniqueId } from '@swap/testing';
import pg from 'pg';
import { JetStreamWorkQueue } from './jetstream-work-queue';
import { NatsBus } from './nats-bus';
import { PgWorkQueue } from './pg-work-queue';
import type { WorkQueue, WorkResult } from './work-queue';

jest.setTimeout(30_000);

/** A queue under test: another replica of it, and a way to cut one off as a crash would. */
interface Harness {
  open(options?: { leaseMs?: number }): Promise<WorkQueue>;
  /** Cuts the replica's connection (no more acknowledgements or lease renewals): a kill -9. */
  kill(queue: WorkQueue): Promise<void>;
  close(): Promise<void>;
}

async function postgresHarness(): Promise<Harness> {
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  // The database is dropped at the end (connections terminated): an idle client's error then is expected.
  pool.on('error', () => undefined);
  await pool.query(
    'CREATE TABLE work_items (id TEXT PRIMARY KEY, due_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(), attempts INT NOT NULL DEFAULT 0, lease_until TIMESTAMPTZ(3), leased_by TEXT)',
  );
  const dead = new Set<WorkQueue>();
  return {
    open: async (options) => {
      let queue: WorkQueue | undefined = undefined;
      const sql = async <T>(text: string, ...params: unknown[]) => {
        if (queue && dead.has(queue)) throw new Error('connection cut');
        return (await pool.query(text, params)).rows as T[];
      };
      queue = new PgWorkQueue(sql, { table: 'work_items', leaseMs: options?.leaseMs ?? 5_000, pollMs: 20 });
      return queue;
    },
    kill: async (queue) => void dead.add(queue),
    close: async () => {
      await pool.end();
      await db.drop();
    },
  };
}

async function jetstreamHarness(): Promise<Harness> {
  const buses: NatsBus[] = [];
  const busOf = new Map<WorkQueue, NatsBus>();
  const names = { stream: 'WQ_TEST', consumer: 'wq-test', subject: 'wq.test.work', prefix: uniqueId('wq').replace(/_/g, '-') };
  let first: JetStreamWorkQueue | undefined;
  return {
    open: async (options) => {
      const bus = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'work-queue-int-spec' });
      buses.push(bus);
      const queue = await JetStreamWorkQueue.open(bus.connection, { ...names, ackWaitMs: options?.leaseMs ?? 5_000, pullWaitMs: 200 });
      busOf.set(queue, bus);
      first ??= queue;
      return queue;
    },
    kill: async (queue) => {
      await busOf.get(queue)!.connection.close();
    },
    close: async () => {
      await first?.destroy();
      for (const bus of buses) await bus.close();
    },
  };
}

describe.each([
  ['PostgreSQL (SKIP LOCKED)', postgresHarness],
  ['NATS JetStream', jetstreamHarness],
])('the work queue on %s', (_kind, make) => {
  let harness: Harness;
  const queues: WorkQueue[] = [];
  const open = async (options?: { leaseMs?: number }) => {
    const queue = await harness.open(options);
    queues.push(queue);
    return queue;
  };

  beforeEach(async () => {
    harness = await make();
  });

  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop();
    await harness.close();
  });

  it('hands every item to one of several replicas, never to two at once, and drops it when done', async () => {
    const [a, b] = [await open(), await open()];
    const inHand = new Set<string>();
    const overlaps: string[] = [];
    const handled: { id: string; by: string }[] = [];
    const handler =
      (by: string) =>
      async (item: { id: string }): Promise<WorkResult> => {
        if (inHand.has(item.id)) overlaps.push(item.id);
        inHand.add(item.id);
        await new Promise((r) => setTimeout(r, 5));
        inHand.delete(item.id);
        handled.push({ id: item.id, by });
        return { done: true };
      };
    const ids = Array.from({ length: 40 }, (_, i) => `item-${i}`);
    await Promise.all(ids.map((id) => a.add(id)));
    // A second add of a queued id changes nothing.
    await Promise.all(ids.slice(0, 10).map((id) => b.add(id)));
    expect(await a.depth()).toBe(40);
    a.start(handler('a'), { concurrency: 4 });
    b.start(handler('b'), { concurrency: 4 });
    await eventually(() => handled.length >= 40, 15_000, 20);
    await new Promise((r) => setTimeout(r, 300));
    expect(overlaps).toEqual([]);
    expect(handled.map((h) => h.id).sort()).toEqual([...ids].sort());
    expect(new Set(handled.map((h) => h.by))).toEqual(new Set(['a', 'b']));
    expect(await a.depth()).toBe(0);
  });

  it('hands an item out again after the delay its handler asked for, counting attempts', async () => {
    const q = await open();
    const attempts: { attempt: number; at: number }[] = [];
    q.start(
      async (item) => {
        attempts.push({ attempt: item.attempt, at: Date.now() });
        return attempts.length < 3 ? { retryInMs: 200 } : { done: true };
      },
      { concurrency: 1 },
    );
    await q.add('retried');
    await eventually(() => attempts.length === 3, 10_000, 20);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(150);
  });

  it('gives the item of a replica that died mid-step to another once its lease runs out', async () => {
    const dying = await open({ leaseMs: 1_000 });
    let taken!: () => void;
    const took = new Promise<void>((resolve) => (taken = resolve));
    // This replica takes the item and never finishes; then it is cut off, as by kill -9.
    dying.start(
      () => {
        taken();
        return new Promise<WorkResult>(() => undefined);
      },
      { concurrency: 1 },
    );
    await dying.add('orphan');
    await took;
    queues.splice(queues.indexOf(dying), 1);
    await harness.kill(dying);
    const survivor = await open({ leaseMs: 1_000 });
    const seen: number[] = [];
    survivor.start(async (item) => (seen.push(item.attempt), { done: true }), { concurrency: 1 });
    await eventually(() => seen.length > 0, 10_000, 50);
    expect(seen[0]).toBe(2);
    // The dead replica's loop ends (its handler never will: it is not awaited).
    void dying.stop();
  });
});
