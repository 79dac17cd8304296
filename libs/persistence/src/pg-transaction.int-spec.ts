import { createTestDatabase } from '@swap/testing';
import { once } from 'node:events';
import pg from 'pg';
import { inTransaction, withPooledClient } from './pg-transaction';

describe('a pooled connection held by the platform, when PostgreSQL ends it', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  beforeEach(() => {
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });

  afterEach(async () => {
    await pool.end();
  });

  afterAll(async () => {
    await db.drop();
  });

  const terminate = async (pid: number) => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
  };

  it('between two statements of a transaction: the transaction fails, the process does not crash, the pool drops the connection', async () => {
    const failed = inTransaction(pool, async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const ended = once(tx as unknown as NodeJS.EventEmitter, 'error');
      await terminate(rows[0].pid);
      await ended;
      await tx.query('SELECT 1');
    });
    await expect(failed).rejects.toThrow();
    expect(pool.totalCount).toBe(0);
    await expect(withPooledClient(pool, (client) => client.query('SELECT 1 AS one'))).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });
});
