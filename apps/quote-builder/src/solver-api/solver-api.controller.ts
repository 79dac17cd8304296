import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiDefaultResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
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

/** The public network's solver API, served by the marketplace. */
@ApiTags(ApiTag.solvers)
@ApiDefaultResponse({ type: SolverErrorBodyDto, description: 'Errors: { detail: { code, message } } with the protocol’s negative codes' })
@Controller('v1/intent')
export class SolverApiController {
  constructor(
    private readonly quotes: QuoteService,
    private readonly executions: ExecutionService,
  ) {}

  @Post('quote')
  @HttpCode(200)
  @ApiOperation({ summary: 'The best quote of the connected solvers for hub assets (amount after the partner fee)' })
  @ApiOkResponse({ type: SolverQuoteResponseDto })
  quote(@Body() body: SolverQuoteRequestDto) {
    return this.quotes.quoteHubAssets(body);
  }

  @Post('execute')
  @HttpCode(200)
  @ApiOperation({ summary: 'Hand the intent a hub transaction created to the solvers (once per intent; the quote’s winner first)' })
  @ApiOkResponse({ type: SolverExecuteResponseDto })
  execute(@Body() body: SolverExecuteRequestDto) {
    return this.executions.execute(body);
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
