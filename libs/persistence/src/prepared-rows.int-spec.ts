import { createTestDatabase } from '@swap/testing';
import pg from 'pg';
import { preparedRows } from './prepared-rows';

const CIRCLE = pg.types.builtins.CIRCLE;

describe('preparedRows: a named statement described once per connection', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  const SELECT = `SELECT id, label, amount, amount::text AS amount_text, flag, at, doc, note
                  FROM rows_of_every_kind WHERE id >= $1 ORDER BY id`;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 1 });
    await pool.query(`CREATE TABLE rows_of_every_kind (id int PRIMARY KEY, label text NOT NULL, amount bigint NOT NULL, flag boolean NOT NULL,
                      at timestamptz NOT NULL, doc jsonb NOT NULL, note text)`);
    await pool.query(`INSERT INTO rows_of_every_kind VALUES
      (1, 'a "quoted" label', 9007199254740993, true, '2026-12-02T10:00:00.123Z', '{"k": [1, "two"]}', NULL),
      (2, 'ünïcode ✓', -5, false, '1970-01-01T00:00:00Z', 'null', 'a note')`);
  });

  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const describesOn = async (client: pg.PoolClient, run: () => Promise<unknown>) => {
    const connection = (client as unknown as { connection: { describe: (...args: unknown[]) => void } }).connection;
    const spy = jest.spyOn(connection, 'describe');
    try {
      await run();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  };

  it('answers the rows pg’s own query answers (every type parsed alike, nulls kept), describing the statement only the first time', async () => {
    const client = await pool.connect();
    try {
      const expected = (await client.query({ name: 'reference', text: SELECT, values: [1] })).rows;
      expect(expected).toHaveLength(2);
      let first: unknown[] = [];
      expect(await describesOn(client, async () => (first = await preparedRows(client, 'lean', SELECT, [1])))).toBe(1);
      expect(first).toEqual(expected);
      let again: unknown[] = [];
      expect(await describesOn(client, async () => (again = await preparedRows(client, 'lean', SELECT, [2])))).toBe(0);
      expect(again).toEqual(expected.slice(1));
      expect(await preparedRows(client, 'lean', SELECT, [3])).toEqual([]);
      expect(first[0]).toMatchObject({ amount: '9007199254740993', flag: true, at: new Date('2026-12-02T10:00:00.123Z'), note: null });
    } finally {
      client.release();
    }
  });

  it('rejects with PostgreSQL’s error, leaving the connection usable for the next statement', async () => {
    const client = await pool.connect();
    try {
      await expect(preparedRows(client, 'lean-bad', `SELECT id FROM rows_of_every_kind WHERE id = $1`, ['not a number'])).rejects.toThrow(
        /invalid input syntax for type integer/,
      );
      await expect(preparedRows(client, 'lean-bad', `SELECT id FROM rows_of_every_kind WHERE id = $1`, [2])).resolves.toEqual([{ id: 2 }]);
      await expect(preparedRows(client, 'lean-missing', `SELECT nothing FROM nowhere`, [])).rejects.toThrow(/nowhere/);
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      client.release();
    }
  });

  it('refuses, sending nothing, a parameter pg cannot write or a name taken by another statement; a parser that throws fails its query only', async () => {
    const client = await pool.connect();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const circleParser = pg.types.getTypeParser(CIRCLE, 'text');
    try {
      await expect(preparedRows(client, 'lean-json', `SELECT $1::jsonb AS doc`, [circular])).rejects.toThrow(/circular/i);
      await expect(preparedRows(client, 'lean-json', `SELECT $1::jsonb AS doc`, [{ k: 1 }])).resolves.toEqual([{ doc: { k: 1 } }]);
      await expect(preparedRows(client, 'lean-json', `SELECT 2 AS other`, [])).rejects.toThrow(/must be unique/);
      pg.types.setTypeParser(CIRCLE, () => {
        throw new Error('unreadable circle');
      });
      await expect(preparedRows(client, 'lean-circle', `SELECT circle(point(1, 2), 3) AS c`, [])).rejects.toThrow('unreadable circle');
      pg.types.setTypeParser(CIRCLE, circleParser);
      await expect(preparedRows(client, 'lean-circle', `SELECT circle(point(1, 2), 3) AS c`, [])).resolves.toEqual([
        { c: { x: 1, y: 2, radius: 3 } },
      ]);
      const [row] = await preparedRows<Record<string, unknown>>(client, 'lean-proto', `SELECT 1 AS "__proto__", 2 AS b`, []);
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.entries(row!)).toEqual([
        ['__proto__', 1],
        ['b', 2],
      ]);
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      pg.types.setTypeParser(CIRCLE, circleParser);
      client.release();
    }
  });

  it('forgets a shape PostgreSQL refused (its result changed): the name prepared again is described afresh', async () => {
    const client = await pool.connect();
    const star = `SELECT * FROM reshaped WHERE id = $1`;
    try {
      await client.query('CREATE TABLE reshaped (id int)');
      await client.query('INSERT INTO reshaped VALUES (1)');
      expect(await preparedRows(client, 'lean-star', star, [1])).toEqual([{ id: 1 }]);
      await client.query(`ALTER TABLE reshaped ADD COLUMN name text DEFAULT 'n'`);
      await expect(preparedRows(client, 'lean-star', star, [1])).rejects.toThrow(/cached plan must not change result type/);
      await client.query('DEALLOCATE "lean-star"');
      delete (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements['lean-star'];
      expect(await preparedRows(client, 'lean-star', star, [1])).toEqual([{ id: 1, name: 'n' }]);
    } finally {
      client.release();
    }
  });
});
