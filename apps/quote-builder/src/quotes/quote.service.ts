import { Inject, Injectable } from '@nestjs/common';
import { ServiceMetrics, type Logger } from '@swap/observability';
import { Counter, Histogram } from 'prom-client';
import { LOGGER } from '@swap/service-kit';
import { fromHubAmount, lessSlippage, partnerFeeOn, toHubAmount } from '@swap/chains';
import {
  AppError,
  ErrorCode,
  type FieldViolation,
  type BuildResponse,
  type QuoteMessage,
  type QuoteResponse,
  type SolverQuoteRequest,
  type SolverQuoteResponse,
} from '@swap/contracts';
import { IntentBuilderService } from '../intents/intent-builder.service';
import { QUOTE_FIELDS, resolveSwap, type ResolvedSwap } from '../intents/swap-resolution';
import { RfqService, type RfqOutcome, type RfqRequest } from '../marketplace/rfq.service';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import { pickBest, type BestQuote } from './best-quote';
import { QuoteRecords } from '../marketplace/quote-records';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** The public client's default. */
export const QUOTE_DEADLINE_OFFSET_SECONDS = 300;

/** Step 1 of a swap; the steps: docs/integrators/quotes.md#asking-for-a-quote. */
@Injectable()
export class QuoteService {
  private readonly stages: Histogram<'stage'>;
  private readonly wins: Counter<'solver'>;

  constructor(
    private readonly catalog: ChainCatalog,
    private readonly rfq: RfqService,
    private readonly records: QuoteRecords,
    private readonly builder: IntentBuilderService,
    private readonly config: QuoteBuilderConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: ServiceMetrics,
  ) {
    this.stages = new Histogram({
      name: 'quote_stage_seconds',
      help: 'Where a quote spends its time, by stage: fanout (the RFQ sent to every solver), last_answer (from then until the last answer taken), decide (from the last answer to the decision), pick (the best answer), record (the quote held; its copies to Redis and PostgreSQL follow the answer); the answer itself: bus_reply_seconds',
      labelNames: ['stage'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metrics.registry],
    });
    this.wins = new Counter({
      name: 'solver_quotes_won_total',
      help: 'Quotes given, by the solver whose answer was the best (its win share: its rate over all solvers)',
      labelNames: ['solver'],
      registers: [metrics.registry],
    });
  }

  private decide(asked: RfqOutcome): BestQuote {
    const started = performance.now();
    try {
      const best = pickBest(asked, this.config.RFQ_DEADLINE_MS);
      this.wins.inc({ solver: best.solver.name });
      return best;
    } finally {
      this.stages.observe({ stage: 'fanout' }, asked.sentMs / 1000);
      this.stages.observe({ stage: 'last_answer' }, Math.max(0, asked.lastAnswerMs - asked.sentMs) / 1000);
      this.stages.observe({ stage: 'decide' }, Math.max(0, asked.elapsedMs - Math.max(asked.lastAnswerMs, asked.sentMs)) / 1000);
      this.stages.observe({ stage: 'pick' }, (performance.now() - started) / 1000);
    }
  }

  private async record(quote: Parameters<QuoteRecords['record']>[0]) {
    const started = performance.now();
    const record = await this.records.record(quote);
    this.stages.observe({ stage: 'record' }, (performance.now() - started) / 1000);
    return record;
  }

  async quote(request: QuoteMessage): Promise<QuoteResponse> {
    const started = Date.now();
    // Everything the body alone decides is checked before any solver is asked.
    const problems: FieldViolation[] = [];
    if (request.includeTxData) {
      if (request.srcAddress === undefined)
        problems.push({ field: 'srcAddress', rule: 'requiredWithTxData', message: 'srcAddress is required with includeTxData=true' });
      if (request.dstAddress === undefined)
        problems.push({ field: 'dstAddress', rule: 'requiredWithTxData', message: 'dstAddress is required with includeTxData=true' });
    }
    const sides = {
      srcChainKey: request.tokenSrcChainKey,
      dstChainKey: request.tokenDstChainKey,
      inputToken: request.tokenSrc,
      outputToken: request.tokenDst,
      srcAddress: request.srcAddress,
      dstAddress: request.dstAddress,
    };
    let resolved: ResolvedSwap | undefined;
    try {
      resolved = resolveSwap(this.catalog.chains, sides, QUOTE_FIELDS);
    } catch (error) {
      if (!(error instanceof AppError) || !Array.isArray(error.details)) throw error;
      problems.push(...error.details);
    }
    if (problems.length || !resolved) throw AppError.validation(problems);
    const { src, dst, input, output } = resolved;
    const build = async (minOutputAmount: string) =>
      this.builder.build({
        srcChainKey: src.key,
        dstChainKey: dst.key,
        inputToken: input.address,
        outputToken: output.address,
        inputAmount: request.amount,
        minOutputAmount,
        deadline: (await this.builder.deadline(QUOTE_DEADLINE_OFFSET_SECONDS)).deadline,
        allowPartialFill: false,
        srcAddress: request.srcAddress!,
        dstAddress: request.dstAddress!,
        solver: ZERO_ADDRESS,
        data: '0x',
        ...(request.partnerFee ? { partnerFee: request.partnerFee } : {}),
      });
    return this.quoteFor(resolved, request, request.includeTxData ? build : undefined, started);
  }

  /** The RFQ for resolved sides, the quote recorded, and with `build` the intent for it (minOutputAmount: the quote less slippage). */
  async quoteFor(
    resolved: ResolvedSwap,
    request: Pick<QuoteMessage, 'amount' | 'partnerFee' | 'slippageBps'>,
    build?: (minOutputAmount: string) => Promise<BuildResponse>,
    started = Date.now(),
  ): Promise<QuoteResponse> {
    const { src, dst, input, output } = resolved;
    const amount = BigInt(request.amount);
    const fee = partnerFeeOn(amount, request.partnerFee);
    const hubAmountIn = toHubAmount(amount - fee, input);
    if (hubAmountIn === 0n) {
      throw AppError.validation([
        {
          field: 'amount',
          rule: 'positiveOnHub',
          message: `amount is too small: nothing is left to swap in ${input.symbol}'s hub units after the partner fee`,
        },
      ]);
    }

    const rfq: RfqRequest = {
      token_src: input.hubAsset,
      token_dst: output.hubAsset,
      amount: hubAmountIn.toString(),
      src_chain_id: src.relayChainId,
      dst_chain_id: dst.relayChainId,
    };
    const asked = await this.rfq.ask(rfq);
    const best = this.decide(asked);
    const quotedAmount = fromHubAmount(best.quotedAmount, output);
    if (quotedAmount === 0n)
      throw new AppError(422, ErrorCode.NoLiquidity, `The best quote rounds to nothing in ${output.symbol}; try a larger amount`);
    const record = await this.record({
      srcChainKey: src.key,
      dstChainKey: dst.key,
      tokenSrc: input.address,
      tokenDst: output.address,
      hubTokenSrc: input.hubAsset,
      hubTokenDst: output.hubAsset,
      amount: amount.toString(),
      feeAmount: fee.toString(),
      hubAmountIn: hubAmountIn.toString(),
      hubQuotedAmount: best.quotedAmount.toString(),
      quotedAmount: quotedAmount.toString(),
      solverId: best.solver.id,
      solver: best.solver.name,
      answers: best.answers,
    });
    this.logger.debug(
      { quoteId: record.id, solver: best.solver.name, rfqMs: asked.elapsedMs, totalMs: Date.now() - started },
      'quote given',
    );
    const response: QuoteResponse = {
      quotedAmount: quotedAmount.toString(),
      quoteId: record.id,
      expiresAt: record.expiresAt,
      feeAmount: fee.toString(),
    };
    if (!build) return response;

    const minOutput = lessSlippage(quotedAmount, request.slippageBps ?? this.config.DEFAULT_SLIPPAGE_BPS);
    response.txData = await build((minOutput > 0n ? minOutput : 1n).toString());
    return response;
  }

  /** `/v1/intent/quote`: hub assets in and out, the amount already after fees. */
  async quoteHubAssets(request: SolverQuoteRequest): Promise<SolverQuoteResponse> {
    const chains = this.catalog.chains;
    const known = (asset: string) => chains.profile.tokens.some((t) => t.hubAsset.toLowerCase() === asset.toLowerCase());
    if (!known(request.token_src) || !known(request.token_dst) || request.token_src.toLowerCase() === request.token_dst.toLowerCase()) {
      throw new AppError(
        422,
        ErrorCode.NoRoute,
        'No path found: token_src and token_dst must be two different hub assets this deployment lists',
      );
    }
    const hub = chains.hub.relayChainId;
    const best = this.decide(
      await this.rfq.ask({
        token_src: request.token_src,
        token_dst: request.token_dst,
        amount: request.amount,
        src_chain_id: hub,
        dst_chain_id: hub,
      }),
    );
    const record = await this.record({
      srcChainKey: null,
      dstChainKey: null,
      tokenSrc: null,
      tokenDst: null,
      hubTokenSrc: request.token_src,
      hubTokenDst: request.token_dst,
      amount: request.amount,
      feeAmount: '0',
      hubAmountIn: request.amount,
      hubQuotedAmount: best.quotedAmount.toString(),
      quotedAmount: best.quotedAmount.toString(),
      solverId: best.solver.id,
      solver: best.solver.name,
      answers: best.answers,
    });
    return { quoted_amount: best.quotedAmount.toString(), quote_uuid: record.id, expires_at: record.expiresAt };
  }
}
