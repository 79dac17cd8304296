import { createTestDatabase } from '@swap/testing';
import pg from 'pg';
import { createPrismaClient } from './prisma-client';

class NoClient {
  constructor(_options: unknown) {}
  async $disconnect(): Promise<void> {}
}

describe('a service database handle: its readiness check says what to run when the database or schema is missing', () => {
  let db: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  it('a database that does not exist: the server says so, and the check names npm run migrate', async () => {
    const url = new URL(db.url);
    url.pathname = `${url.pathname}_missing`;
    const handle = createPrismaClient(NoClient, { url: url.toString(), schema: 'quote_builder' });
    try {
      await expect(handle.ping()).rejects.toThrow(/database "swap_test\w*_missing" does not exist: run npm run migrate/);
    } finally {
      await handle.close();
    }
  });

  it('a database without the service schema is not ready until the schema exists', async () => {
    const handle = createPrismaClient(NoClient, { url: db.url, schema: 'ping_schema' });
    try {
      await expect(handle.ping()).rejects.toThrow('schema "ping_schema" does not exist in the database: run npm run migrate');
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('CREATE SCHEMA ping_schema');
      await client.end();
      await expect(handle.ping()).resolves.toBeUndefined();
    } finally {
      await handle.close();
    }
  });
});
