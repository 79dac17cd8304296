import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiDefaultResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiTag,
  SolverErrorBodyDto,
  SolverExecuteRequestDto,
  SolverExecuteResponseDto,
  SolverQuoteRequestDto,
  SolverQuoteResponseDto,
  SolverStatusCode,
  SolverStatusRequestDto,
  SolverStatusResponseDto,
  type SolverStatusResponse,
} from '@swap/contracts';
import { ExecutionService } from '../executions/execution.service';
import { QuoteService } from '../quotes/quote.service';
import { SolverApiLimits } from './solver-api-limits';

const LIMITED =
  'This client’s limit a minute was reached (detail.code -429), or too many of its requests are in progress at the gateway; retry after Retry-After seconds';

/** The public network's solver API, served by the marketplace. */
@ApiTags(ApiTag.solvers)
@ApiDefaultResponse({ type: SolverErrorBodyDto, description: 'Errors: { detail: { code, message } } with the protocol’s negative codes' })
@Controller('v1/intent')
export class SolverApiController {
  constructor(
    private readonly quotes: QuoteService,
    private readonly executions: ExecutionService,
    private readonly limits: SolverApiLimits,
  ) {}

  @Post('quote')
  @HttpCode(200)
  @ApiOperation({ summary: 'The best quote of the connected solvers for hub assets (amount after the partner fee)' })
  @ApiOkResponse({ type: SolverQuoteResponseDto })
  @ApiTooManyRequestsResponse({ type: SolverErrorBodyDto, description: LIMITED })
  async quote(@Body() body: SolverQuoteRequestDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.limits.admit('quote', request, reply);
    return this.quotes.quoteHubAssets(body);
  }

  @Post('execute')
  @HttpCode(200)
  @ApiOperation({ summary: 'Hand the intent a hub transaction created to the solvers (once per intent; the quote’s winner first)' })
  @ApiOkResponse({ type: SolverExecuteResponseDto })
  @ApiTooManyRequestsResponse({ type: SolverErrorBodyDto, description: LIMITED })
  async execute(@Body() body: SolverExecuteRequestDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.limits.admit('execute', request, reply);
    // An unknown transaction is remembered a few seconds: a repeated execute of it asks the hub once.
    return this.executions.execute(body, { rememberUnknown: true });
  }

  @Post('status')
  @HttpCode(200)
  @ApiOperation({ summary: 'Solver status of an intent: -1 not found, 1 not started, 2 in progress, 3 solved, 4 failed' })
  @ApiOkResponse({ type: SolverStatusResponseDto })
  async status(@Body() body: SolverStatusRequestDto): Promise<SolverStatusResponse> {
    const status = await this.executions.status(body.intent_tx_hash);
    return { status: status.status as SolverStatusCode, ...(status.fillTxHash ? { fill_tx_hash: status.fillTxHash } : {}) };
  }
}
