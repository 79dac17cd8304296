import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import type { Cache } from '@swap/cache';
import { AppError, ErrorCode, type QuoteAnswer, type QuoteRecord } from '@swap/contracts';
import { RequestContext, ServiceMetrics, type Logger } from '@swap/observability';
import { CACHE, DATABASE_POOL, LOGGER } from '@swap/service-kit';
import type pg from 'pg';
import { Counter } from 'prom-client';
import { v7 as timeOrderedUuid } from 'uuid';
import { PrismaClient } from '../generated/prisma/client';
import { QuoteBuilderConfig } from '../quote-builder.config';

export type NewQuote = Omit<QuoteRecord, 'id' | 'createdAt' | 'expiresAt' | 'requestId'>;

const INSERT_QUOTE = `INSERT INTO quote_builder.quotes (id, created_at, expires_at, request_id, src_chain_key, dst_chain_key, token_src, token_dst, hub_token_src, hub_token_dst, amount, fee_amount, hub_amount_in, hub_quoted_amount, quoted_amount, solver_id, solver_name, answers)
  VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::numeric, $12::numeric, $13::numeric, $14::numeric, $15::numeric, $16::uuid, $17, $18::jsonb)`;

const CACHE_MARGIN_MS = 60_000;
/** Past it (PostgreSQL slow or gone) quotes wait for their insert again. */
const MAX_INSERTS_BEHIND = 1_000;
/** A quote not found whose id (UUIDv7) is at most 2 s old or ahead (replicas' clocks) is looked for again: another replica's copies follow its answer. */
const COPY_LATE_WAITS_MS = [25, 250];
const COPY_LATE_WITHIN_MS = 2_000;

/** Resolves in the event loop's next turn: after this turn's answers have been written (the bus flushes at the turn's end). */
const afterTheAnswer = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** Quotes kept for audit and execution; see docs/architecture/marketplace.md#recorded-quotes. */
@Injectable()
export class QuoteRecords implements OnModuleDestroy {
  private readonly storing = new Map<string, { record: QuoteRecord; done: Promise<void> }>();
  private readonly failures: Counter;

  constructor(
    private readonly db: PrismaClient,
    private readonly config: QuoteBuilderConfig,
    @Inject(DATABASE_POOL) private readonly pool: Pick<pg.Pool, 'query'>,
    metrics: ServiceMetrics,
    @Optional() @Inject(CACHE) private readonly cache?: Cache,
    @Optional() @Inject(LOGGER) private readonly logger?: Logger,
  ) {
    this.failures = new Counter({
      name: 'quote_record_failures_total',
      help: 'Quotes whose row could not be written after they were answered (honoured until they expire from the shared cache, or by the replica that gave them when their copy failed too; missing from the audit)',
      registers: [metrics.registry],
    });
  }

  async record(quote: NewQuote): Promise<QuoteRecord> {
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + this.config.QUOTE_TTL_MS);
    const id = timeOrderedUuid({ msecs: createdAt.getTime() });
    const requestId = RequestContext.requestId() ?? null;
    const record: QuoteRecord = { ...quote, id, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString(), requestId };
    const c = quote;
    const insert = () =>
      this.pool.query({
        text: INSERT_QUOTE,
        values: [
          id,
          createdAt,
          expiresAt,
          requestId,
          c.srcChainKey,
          c.dstChainKey,
          c.tokenSrc,
          c.tokenDst,
          c.hubTokenSrc,
          c.hubTokenDst,
          c.amount,
          c.feeAmount,
          c.hubAmountIn,
          c.hubQuotedAmount,
          c.quotedAmount,
          c.solverId,
          c.solver,
          JSON.stringify(c.answers),
        ],
      });
    const cache = this.storing.size < MAX_INSERTS_BEHIND && this.cache?.connected() ? this.cache : undefined;
    if (!cache) {
      await insert();
      return record;
    }
    const turnOver = afterTheAnswer();
    const copied = turnOver.then(() =>
      cache.set(cacheKey(id), JSON.stringify(record), this.config.QUOTE_TTL_MS + CACHE_MARGIN_MS).then(
        () => true,
        (error: Error) => {
          this.logger?.warn(
            { err: error, quoteId: id },
            'quote not copied to the shared cache: other replicas find it once its row is written',
          );
          return false;
        },
      ),
    );
    const storedElsewhere = turnOver.then(insert).then(
      () => true,
      async (error: Error) => {
        this.failures.inc();
        const elsewhere = await copied;
        const honoured = elsewhere ? 'from the shared cache' : 'by this replica alone';
        this.logger?.warn({ err: error, quoteId: id }, `quote answered but not stored: honoured ${honoured} until it expires`);
        return elsewhere;
      },
    );
    const done = Promise.all([copied, storedElsewhere]).then(() => undefined);
    this.storing.set(id, { record, done });
    void storedElsewhere.then((elsewhere) => {
      if (elsewhere) this.storing.delete(id);
      else setTimeout(() => this.storing.delete(id), Math.max(0, expiresAt.getTime() - Date.now())).unref();
    });
    return record;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.storing.values()].map((s) => s.done));
  }

  async find(anyCase: string): Promise<QuoteRecord | undefined> {
    const id = anyCase.toLowerCase();
    const age = Date.now() - uuidV7Time(id);
    const waits = Math.abs(age) <= COPY_LATE_WITHIN_MS ? COPY_LATE_WAITS_MS : [];
    for (const wait of [0, ...waits]) {
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      const found = await this.lookup(id);
      if (found) return found;
    }
    return undefined;
  }

  private async lookup(id: string): Promise<QuoteRecord | undefined> {
    const answered = this.storing.get(id); // answered here: its copies on their way, or kept here when both failed
    if (answered) return answered.record;
    const row = await this.db.quote.findUnique({ where: { id } });
    if (row) return recordOf(row);
    // Answered by another replica whose insert has not landed yet (or failed): the shared copy.
    const cached = await this.cache?.get(cacheKey(id)).catch(() => undefined);
    return cached ? (JSON.parse(cached) as QuoteRecord) : undefined;
  }

  async get(id: string): Promise<QuoteRecord> {
    const quote = await this.find(id);
    if (!quote) throw new AppError(404, ErrorCode.QuoteNotFound, `Quote not found: ${id}`);
    return quote;
  }

  async recent(limit: number): Promise<QuoteRecord[]> {
    return (await this.db.quote.findMany({ orderBy: { createdAt: 'desc' }, take: limit })).map(recordOf);
  }
}

function uuidV7Time(id: string): number {
  return id[14] === '7' ? parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : NaN;
}

function cacheKey(id: string): string {
  return `quote:${id}`;
}

type QuoteRow = Awaited<ReturnType<PrismaClient['quote']['findUniqueOrThrow']>>;

function recordOf(row: QuoteRow): QuoteRecord {
  const text = (d: { toFixed(): string }) => d.toFixed();
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    requestId: row.requestId,
    srcChainKey: row.srcChainKey,
    dstChainKey: row.dstChainKey,
    tokenSrc: row.tokenSrc,
    tokenDst: row.tokenDst,
    hubTokenSrc: row.hubTokenSrc,
    hubTokenDst: row.hubTokenDst,
    amount: text(row.amount),
    feeAmount: text(row.feeAmount),
    hubAmountIn: text(row.hubAmountIn),
    hubQuotedAmount: text(row.hubQuotedAmount),
    quotedAmount: text(row.quotedAmount),
    solverId: row.solverId,
    solver: row.solverName,
    answers: row.answers as unknown as QuoteAnswer[],
  };
}
