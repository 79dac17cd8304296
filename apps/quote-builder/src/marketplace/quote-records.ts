import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode, type QuoteAnswer, type QuoteRecord } from '@swap/contracts';
import { RequestContext } from '@swap/observability';
import { randomUUID } from 'node:crypto';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import { QuoteBuilderConfig } from '../quote-builder.config';

export type NewQuote = Omit<QuoteRecord, 'id' | 'createdAt' | 'expiresAt' | 'requestId'>;

/** The quotes the marketplace gave, kept so that what was quoted can be audited and honoured at execution. */
@Injectable()
export class QuoteRecords {
  constructor(
    private readonly db: PrismaClient,
    private readonly config: QuoteBuilderConfig,
  ) {}

  async record(quote: NewQuote): Promise<QuoteRecord> {
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + this.config.QUOTE_TTL_MS);
    const id = randomUUID();
    const requestId = RequestContext.requestId() ?? null;
    const { solver, answers, ...columns } = quote;
    await this.db.quote.create({ data: { ...columns, id, createdAt, expiresAt, requestId, solverName: solver, answers: answers as unknown as Prisma.InputJsonValue } });
    return { ...quote, id, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString(), requestId };
  }

  async find(id: string): Promise<QuoteRecord | undefined> {
    const row = await this.db.quote.findUnique({ where: { id } });
    return row ? recordOf(row) : undefined;
  }

  async get(id: string): Promise<QuoteRecord> {
    const quote = await this.find(id);
    if (!quote) throw new AppError(404, ErrorCode.QuoteNotFound, `Quote not found: ${id}`);
    return quote;
  }

  /** The newest quotes first, for operators. */
  async recent(limit: number): Promise<QuoteRecord[]> {
    return (await this.db.quote.findMany({ orderBy: { createdAt: 'desc' }, take: limit })).map(recordOf);
  }
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
