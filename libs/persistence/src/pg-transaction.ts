import type pg from 'pg';

/** `use` on one pooled connection; one that dies while held is dropped from the pool, not thrown at the process as an unhandled 'error'. */
export async function withPooledClient<T>(pool: pg.Pool, use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    return await use(client);
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** `work` on one pooled connection between BEGIN and COMMIT; rolled back when it throws. */
export function inTransaction<T>(pool: pg.Pool, work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  return withPooledClient(pool, async (client) => {
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
