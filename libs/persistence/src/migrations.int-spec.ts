import { createTestDatabase } from '@swap/testing';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { applyMigrations } from './migrations';

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    await mkdir(join(dir, name));
    await writeFile(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

describe('applyMigrations against PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> };
  let client: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    await db.drop();
  });

  it('applies migrations in order on an empty database, in the service schema, with Prisma bookkeeping', async () => {
    const dir = await migrationsDir({
      '20260101000000_first': 'CREATE TABLE "m_one"."things" (id INT PRIMARY KEY);',
      '20260102000000_second': 'ALTER TABLE "m_one"."things" ADD COLUMN name TEXT;',
    });
    const result = await applyMigrations(db.url, { schema: 'm_one', directory: dir });
    expect(result.applied).toEqual(['20260101000000_first', '20260102000000_second']);
    const { rows } = await client.query(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM m_one._prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(['20260101000000_first', '20260102000000_second']);
    expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.filter((r) => r.finished_at === null || r.applied_steps_count !== 1)).toEqual([]);
    await client.query(`INSERT INTO m_one.things (id, name) VALUES (1, 'a')`);
  });

  it('applies nothing the second time and leaves data alone', async () => {
    const dir = await migrationsDir({
      '20260101000000_first': 'CREATE TABLE "m_one"."things" (id INT PRIMARY KEY);',
      '20260102000000_second': 'ALTER TABLE "m_one"."things" ADD COLUMN name TEXT;',
    });
    const result = await applyMigrations(db.url, { schema: 'm_one', directory: dir });
    expect(result).toEqual({ schema: 'm_one', applied: [], alreadyApplied: 2 });
    expect((await client.query('SELECT count(*)::int AS n FROM m_one.things')).rows[0].n).toBe(1);
  });

  it('stops when an applied migration was edited afterwards', async () => {
    const dir = await migrationsDir({ '20260101000000_first': 'CREATE TABLE "m_one"."things" (id BIGINT PRIMARY KEY);' });
    await expect(applyMigrations(db.url, { schema: 'm_one', directory: dir })).rejects.toThrow(
      'Migration m_one/20260101000000_first was modified after it was applied',
    );
  });

  it('rolls a failing migration back entirely and records nothing', async () => {
    const dir = await migrationsDir({ '20260101000000_broken': 'CREATE TABLE "m_two"."a" (id INT); SELECT * FROM nowhere;' });
    await expect(applyMigrations(db.url, { schema: 'm_two', directory: dir })).rejects.toThrow(
      /20260101000000_broken failed: relation "nowhere" does not exist/,
    );
    expect((await client.query(`SELECT to_regclass('m_two.a') AS t`)).rows[0].t).toBeNull();
    expect((await client.query('SELECT count(*)::int AS n FROM m_two._prisma_migrations')).rows[0].n).toBe(0);
  });

  it('lets several replicas migrate at once: each migration runs exactly once', async () => {
    const dir = await migrationsDir({ '20260101000000_only': 'CREATE TABLE "m_three"."t" (id INT);' });
    const results = await Promise.all(Array.from({ length: 4 }, () => applyMigrations(db.url, { schema: 'm_three', directory: dir })));
    expect(results.flatMap((r) => r.applied)).toEqual(['20260101000000_only']);
  });
});
