import { ServiceMetrics } from '@swap/observability';
import { MemoryCache, type Cache } from '@swap/cache';
import { loadConfig } from '@swap/config';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { QuoteRecords, type NewQuote } from './quote-records';
import { testSigningKeysEnv } from '@swap/testing';
import { v7 as timeOrderedUuid } from 'uuid';

const QUOTE: NewQuote = {
  srcChainKey: '0xa4b1.arbitrum',
  dstChainKey: '0x92.sonic',
  tokenSrc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  tokenDst: '0x50c42dEAcD8Fc9773493ED674b675bE577f2634b',
  hubTokenSrc: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
  hubTokenDst: '0x50c42dEAcD8Fc9773493ED674b675bE577f2634b',
  amount: '2500000000',
  feeAmount: '2500000',
  hubAmountIn: '2497500000',
  hubQuotedAmount: '1000',
  quotedAmount: '1000',
  solverId: '6f1c6c1e-34b5-4c43-9a59-0b0f2b0d3b1a',
  solver: 'fast',
  answers: [{ solverId: '6f1c6c1e-34b5-4c43-9a59-0b0f2b0d3b1a', solver: 'fast', quotedAmount: '1000', ms: 5 }],
};

/** PostgreSQL as far as quotes go: inserts land in `rows` when `gate` opens (or fail with `failure`). */
class Database {
  readonly rows = new Map<string, unknown[]>();
  gate: Promise<void> = Promise.resolve();
  failure?: Error;
  readonly pool: Pick<pg.Pool, 'query'> = {
    query: (async (q: { values: unknown[] }) => {
      await this.gate;
      if (this.failure) throw this.failure;
      this.rows.set(q.values[0] as string, q.values);
      return { rows: [], rowCount: 1 };
    }) as unknown as pg.Pool['query'],
  };
  // The stored row as Prisma reads it (numerics as decimals).
  readonly prisma = {
    quote: {
      findUnique: async ({ where }: { where: { id: string } }) => {
        const v = this.rows.get(where.id);
        if (!v) return null;
        const decimal = (x: unknown) => ({ toFixed: () => String(x) });
        return {
          id: v[0],
          createdAt: v[1],
          expiresAt: v[2],
          requestId: v[3],
          srcChainKey: v[4],
          dstChainKey: v[5],
          tokenSrc: v[6],
          tokenDst: v[7],
          hubTokenSrc: v[8],
          hubTokenDst: v[9],
          amount: decimal(v[10]),
          feeAmount: decimal(v[11]),
          hubAmountIn: decimal(v[12]),
          hubQuotedAmount: decimal(v[13]),
          quotedAmount: decimal(v[14]),
          solverId: v[15],
          solverName: v[16],
          answers: JSON.parse(v[17] as string),
        };
      },
    },
  } as unknown as PrismaClient;
}

describe('QuoteRecords: a quote is answered before its row is written, and readable from then on', () => {
  const config = loadConfig(QuoteBuilderConfig, testSigningKeysEnv);
  const replicaOf = (db: Database, cache?: Cache) =>
    new QuoteRecords(db.prisma, config, db.pool, new ServiceMetrics('quote-builder', { defaultMetrics: false }), cache);

  it('finds it on this replica and on another while the insert is still running, then from the row', async () => {
    const db = new Database();
    let open!: () => void;
    db.gate = new Promise((r) => (open = r));
    const cache = new MemoryCache({ namespace: 't' });
    const a = replicaOf(db, cache);
    const b = replicaOf(db, cache);

    const record = await a.record(QUOTE);
    expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(parseInt(record.id.slice(0, 8) + record.id.slice(9, 13), 16)).toBe(Date.parse(record.createdAt));
    expect(db.rows.size).toBe(0); // answered; the row is not written yet
    await expect(a.find(record.id)).resolves.toEqual(record); // its own, at once
    // The copies follow the answer, which the bus writes at the end of this event-loop turn.
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await expect(cache.get(`quote:${record.id}`)).resolves.toBeUndefined();
    await nextTurn(); // the turn the bus writes the answer in
    await expect(cache.get(`quote:${record.id}`)).resolves.toBeUndefined();
    await nextTurn();
    await expect(cache.get(`quote:${record.id}`)).resolves.toBe(JSON.stringify(record));
    await expect(b.get(record.id)).resolves.toEqual(record);
    open();
    await a.onModuleDestroy();
    expect(db.rows.has(record.id)).toBe(true);
    await expect(a.find(record.id)).resolves.toEqual(record); // from the row
    await expect(b.get(record.id)).resolves.toEqual(record);
  });

  it('without the shared cache (or with it disconnected), writes the row before answering', async () => {
    const down: Cache = Object.assign(new MemoryCache({ namespace: 't' }), { connected: () => false });
    for (const cache of [undefined, down]) {
      const db = new Database();
      const record = await replicaOf(db, cache).record(QUOTE);
      expect(db.rows.has(record.id)).toBe(true);
    }
    const db = new Database();
    db.failure = new Error('database down');
    await expect(replicaOf(db).record(QUOTE)).rejects.toThrow('database down');
  });

  it('another replica asked before the copy arrives looks again before answering 404', async () => {
    const cache = new MemoryCache({ namespace: 't' });
    const db = new Database();
    const late = replicaOf(db, cache);
    const id = timeOrderedUuid(); // made by the giving replica just now
    const asked = late.get(id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await cache.set(`quote:${id}`, JSON.stringify({ ...QUOTE, id }), 60_000); // the giving replica's copy, a few ms late
    await expect(asked).resolves.toMatchObject({ id, solver: 'fast' });

    const later = timeOrderedUuid();
    const askedAgain = late.get(later);
    await new Promise((resolve) => setTimeout(resolve, 100)); // past the first look again (25 ms): found on the second
    await cache.set(`quote:${later}`, JSON.stringify({ ...QUOTE, id: later }), 60_000);
    await expect(askedAgain).resolves.toMatchObject({ id: later });
  });

  it('looks again only for an id made within 2 s either side of now, whatever the case of its letters', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const db = new Database();
      const lookups = jest.spyOn(db.prisma.quote, 'findUnique');
      const records = replicaOf(db, new MemoryCache({ namespace: 't' }));
      const madeAt = (offsetMs: number) => timeOrderedUuid({ msecs: Date.now() + offsetMs });
      for (const id of ['0b7a1a52-0000-4000-8000-00000000000a', madeAt(-2_001), madeAt(2_001), madeAt(-60_000)]) {
        lookups.mockClear();
        await expect(records.get(id)).rejects.toMatchObject({ code: 'QUOTE_NOT_FOUND' }); // no timer advanced: no wait
        expect(lookups).toHaveBeenCalledTimes(1);
      }
      for (const id of [madeAt(-1_999), madeAt(1_500), madeAt(0).toUpperCase()]) {
        lookups.mockClear();
        const settled = jest.fn();
        const asked = records.get(id);
        asked.catch(settled);
        await new Promise((resolve) => setImmediate(resolve));
        expect(settled).not.toHaveBeenCalled();
        await jest.advanceTimersByTimeAsync(300);
        await expect(asked).rejects.toMatchObject({ code: 'QUOTE_NOT_FOUND' });
        expect(lookups).toHaveBeenCalledTimes(3);
        expect(lookups).toHaveBeenLastCalledWith({ where: { id: id.toLowerCase() } });
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops holding a quote in memory once its row is written', async () => {
    const db = new Database();
    const cache = new MemoryCache({ namespace: 't' });
    const a = replicaOf(db, cache);
    const record = await a.record(QUOTE);
    await a.onModuleDestroy();
    await expect(a.find(record.id)).resolves.toEqual(record);
    db.rows.delete(record.id);
    await cache.delete(`quote:${record.id}`);
    await expect(a.find(record.id)).resolves.toBeUndefined();
  });

  it('a copy refused leaves the row, then this replica alone until expiry', async () => {
    const refusing = () =>
      Object.assign(new MemoryCache({ namespace: 't' }), { set: () => Promise.reject(new Error('OOM command not allowed')) });
    const db = new Database();
    let open!: () => void;
    db.gate = new Promise((r) => (open = r));
    const a = replicaOf(db, refusing());
    const record = await a.record(QUOTE); // answered before the copy is refused and the row written
    expect(db.rows.size).toBe(0);
    await expect(a.find(record.id)).resolves.toEqual(record);
    open();
    await a.onModuleDestroy();
    await expect(replicaOf(db).get(record.id)).resolves.toEqual(record); // another replica, from the row

    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const gone = new Database();
      gone.failure = new Error('database down');
      const b = replicaOf(gone, refusing());
      const kept = await b.record(QUOTE);
      await b.onModuleDestroy(); // both failed: stopping does not wait for the quote's expiry
      await expect(b.get(kept.id)).resolves.toEqual(kept);
      jest.advanceTimersByTime(config.QUOTE_TTL_MS + 1);
      await expect(b.get(kept.id)).rejects.toMatchObject({ code: 'QUOTE_NOT_FOUND' }); // its id too old to look again
    } finally {
      jest.useRealTimers();
    }
  });

  it('honours a quote whose row failed from the shared cache; an unknown quote is a 404', async () => {
    const db = new Database();
    db.failure = new Error('database down');
    const records = replicaOf(db, new MemoryCache({ namespace: 't' }));
    const record = await records.record(QUOTE);
    await records.onModuleDestroy();
    expect(db.rows.size).toBe(0);
    await expect(records.get(record.id)).resolves.toEqual(record);
    await expect(records.get('0b7a1a52-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'QUOTE_NOT_FOUND' });
  });
});
