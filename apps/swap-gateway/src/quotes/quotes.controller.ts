import { Body, Controller, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiTag, ErrorBodyDto, QuoteQueryDto, QuoteRequestDto, QuoteResponseDto, SWAPS_POST_ROUTES, Subjects } from '@swap/contracts';
import { KeyedRoute } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';

/** Step 1 of a swap: the best quote of the solver marketplace (quote-builder asks the solvers). */
@ApiTags(ApiTag.quote)
@Controller()
export class QuotesController {
  constructor(private readonly messaging: MessagingClient) {}

  @Post(SWAPS_POST_ROUTES.quote.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.quote.scope })
  @ApiOperation({
    summary:
      'Quote a swap: { quotedAmount } in the destination token’s smallest unit; with includeTxData=true also txData ({ tx, intent, relayData }, as /intents builds it)',
  })
  @ApiOkResponse({ type: QuoteResponseDto })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'A field that breaks a rule, named with the rule (quoteType other than exact_input, percentage outside 1–100, …)',
  })
  @ApiResponse({ status: 422, type: ErrorBodyDto, description: 'NO_ROUTE (no solver can route the pair) or NO_LIQUIDITY' })
  @ApiResponse({ status: 503, type: ErrorBodyDto, description: 'NO_SOLVER_AVAILABLE: no solver connected, or none answered in time' })
  async quote(@Body() body: QuoteRequestDto, @Query() query: QuoteQueryDto, @Res() reply: FastifyReply): Promise<void> {
    const json = await this.messaging.requestJson(Subjects.quoteRequest, { ...body, includeTxData: query.includeTxData === 'true' });
    void reply.header('content-type', 'application/json; charset=utf-8').send(json);
  }
}
