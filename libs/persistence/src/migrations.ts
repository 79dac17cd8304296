import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { quoteIdent } from './database-url';

export interface MigrationSet {
  schema: string;
  /** `<dir>/<timestamp>_<name>/migration.sql`. */
  directory: string;
}

export interface MigrationResult {
  schema: string;
  applied: string[];
  alreadyApplied: number;
}

/** Prisma's own, column for column, so `prisma migrate deploy` agrees with us. */
const BOOKKEEPING_DDL = (schema: string) => `
CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}."_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function listMigrations(directory: string): Promise<{ name: string; sql: string; checksum: string }[]> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch (error) {
    // Any other failure must not pass for "up to date".
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  const names = entries.filter((e) => /^\d{14}_[a-z0-9_]+$/i.test(e)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(directory, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/** As `prisma migrate deploy`, without its engine (offline machines); see docs/architecture/runtime.md#persistence. */
export async function applyMigrations(databaseUrl: string, set: MigrationSet): Promise<MigrationResult> {
  const migrations = await listMigrations(set.directory);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  const schema = quoteIdent(set.schema);
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`swap-platform:migrate:${set.schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(BOOKKEEPING_DDL(set.schema));
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM ${schema}."_prisma_migrations" WHERE rolled_back_at IS NULL`);
    const recorded = new Map(rows.map((r) => [r.migration_name, r]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = recorded.get(migration.name);
      if (previous) {
        if (!previous.finished_at) throw new Error(`Migration ${set.schema}/${migration.name} failed earlier and must be resolved by hand`);
        if (previous.checksum !== migration.checksum)
          throw new Error(`Migration ${set.schema}/${migration.name} was modified after it was applied`);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO ${schema}`);
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO ${schema}."_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`Migration ${set.schema}/${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.name);
    }
    return { schema: set.schema, applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`swap-platform:migrate:${set.schema}`]).catch(() => undefined);
    await client.end();
  }
}
