import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

export interface DatabaseHandle<C> {
  client: C;
  pool: pg.Pool;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface PrismaClientLike {
  $disconnect(): Promise<void>;
}

/** On the `pg` driver adapter: Prisma 7 needs no query engine binary this way. */
export function createPrismaClient<C extends PrismaClientLike>(
  ClientClass: new (options: { adapter: PrismaPg }) => C,
  options: { url: string; schema: string; poolMax?: number; connectTimeoutMs?: number },
): DatabaseHandle<C> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection dropped by the server must not crash the process; the pool reconnects.
  pool.on('error', () => undefined);
  const client = new ClientClass({ adapter: new PrismaPg(pool, { schema: options.schema }) });
  return {
    client,
    pool,
    async ping() {
      const hint = 'run npm run migrate (it creates the database, the schemas and their tables)';
      const found = await pool
        .query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [options.schema])
        .catch((error: Error & { code?: string }) => {
          throw error.code === '3D000' ? new Error(`${error.message}: ${hint}`) : error;
        });
      if (found.rows.length === 0) throw new Error(`schema "${options.schema}" does not exist in the database: ${hint}`);
    },
    async close() {
      await client.$disconnect();
      await pool.end();
    },
  };
}
