import pg from 'pg';
import { redactUrl } from '@swap/config';
import { databaseNameOf, quoteIdent, withDatabase } from './database-url';

export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseNameOf(url);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres'), connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`Cannot reach PostgreSQL at ${redactUrl(url)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
      return true;
    } catch (error) {
      // Another process created it between our check and our create.
      if ((error as { code?: string }).code === '42P04') return false;
      throw error;
    }
  } finally {
    await admin.end();
  }
}
