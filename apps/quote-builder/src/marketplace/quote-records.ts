import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode, type QuoteAnswer, type QuoteRecord } from '@swap/contracts';
import { RequestContext } from '@swap/observability';
import { randomUUID } from 'node:crypto';
import { PrismaClient } from '../generated/prisma/client';
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
    // One plain INSERT: a quote is written on the hot path of every quote request.
    const c = columns;
    await this.db
      .$executeRaw`INSERT INTO quote_builder.quotes (id, created_at, expires_at, request_id, src_chain_key, dst_chain_key, token_src, token_dst, hub_token_src, hub_token_dst, amount, fee_amount, hub_amount_in, hub_quoted_amount, quoted_amount, solver_id, solver_name, answers)
      VALUES (${id}::uuid, ${createdAt}, ${expiresAt}, ${requestId}, ${c.srcChainKey}, ${c.dstChainKey}, ${c.tokenSrc}, ${c.tokenDst}, ${c.hubTokenSrc}, ${c.hubTokenDst}, ${c.amount}::numeric, ${c.feeAmount}::numeric, ${c.hubAmountIn}::numeric, ${c.hubQuotedAmount}::numeric, ${c.quotedAmount}::numeric, ${c.solverId}::uuid, ${solver}, ${JSON.stringify(answers)}::jsonb)`;
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
