import { loadConfig } from '@swap/config';
import { createLogger } from '@swap/observability';
import { migrateService } from '@swap/service-kit';
import { createTestDatabase, testSigningKeysEnv } from '@swap/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { quoteBuilder } from '../quote-builder.definition';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { QuotePurge } from './quote-purge';

const DAY = 86_400_000;
const NOW = new Date('2026-11-26T12:00:00.000Z');

describe('stored quotes are purged a day after they expire (against PostgreSQL)', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  const config = loadConfig(QuoteBuilderConfig, { ...testSigningKeysEnv, QUOTE_TTL_MS: '120000' });
  const purge = () => new QuotePurge(pool, config, createLogger({ service: 'quote-builder', level: 'silent' })).purge(NOW);
  /** A quote given `ageMs` before NOW (it expired QUOTE_TTL_MS after that). */
  const quoteAged = async (ageMs: number) => {
    const id = randomUUID();
    const createdAt = new Date(NOW.getTime() - ageMs);
    await pool.query(
      `INSERT INTO quote_builder.quotes (id, created_at, expires_at, hub_token_src, hub_token_dst, amount, fee_amount, hub_amount_in, hub_quoted_amount, quoted_amount, solver_id, solver_name, answers)
       VALUES ($1, $2, $3, '0xa', '0xb', 1, 0, 1, 1, 1, $4, 'fast', '[]')`,
      [id, createdAt, new Date(createdAt.getTime() + config.QUOTE_TTL_MS), randomUUID()],
    );
    return id;
  };
  const stored = async () =>
    (await pool.query<{ id: string }>('SELECT id FROM quote_builder.quotes ORDER BY created_at')).rows.map((r) => r.id);

  beforeAll(async () => {
    db = await createTestDatabase();
    await migrateService(db.url, quoteBuilder);
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterEach(() => pool.query('TRUNCATE quote_builder.quotes'));
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('deletes quotes expired more than a day ago and keeps the rest', async () => {
    const old = await quoteAged(2 * DAY);
    const justPast = await quoteAged(DAY + config.QUOTE_TTL_MS + 1_000);
    const withinTheDay = await quoteAged(DAY);
    const live = await quoteAged(1_000);

    expect(await purge()).toBe(2);
    expect(new Set(await stored())).toEqual(new Set([withinTheDay, live]));
    expect(await stored()).not.toEqual(expect.arrayContaining([old]));
    expect(await stored()).not.toEqual(expect.arrayContaining([justPast]));
  });

  it('deletes in batches until none is left, and a second run finds nothing', async () => {
    await pool.query(
      `INSERT INTO quote_builder.quotes (id, created_at, expires_at, hub_token_src, hub_token_dst, amount, fee_amount, hub_amount_in, hub_quoted_amount, quoted_amount, solver_id, solver_name, answers)
       SELECT gen_random_uuid(), $1, $2, '0xa', '0xb', 1, 0, 1, 1, 1, gen_random_uuid(), 'fast', '[]' FROM generate_series(1, 12000)`,
      [new Date(NOW.getTime() - 3 * DAY), new Date(NOW.getTime() - 3 * DAY + config.QUOTE_TTL_MS)],
    );
    const kept = await quoteAged(60_000);

    expect(await purge()).toBe(12_000);
    expect(await stored()).toEqual([kept]);
    expect(await purge()).toBe(0);
  });
});
