import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiTag, CandlesResponseDto, ErrorBodyDto, MarketsResponseDto } from '@swap/contracts';
import type { FastifyReply } from 'fastify';
import { CandlesQuery } from './candles.query';
import { CandlesService } from './candles.service';

/** The public oracle routes: no API key is read or required, in any enforcement mode. */
@ApiTags(ApiTag.candles)
@Controller('v1/be/oracle')
export class CandlesController {
  constructor(private readonly candles: CandlesService) {}

  @Get('markets')
  @ApiOperation({ summary: 'Quote currency, candle intervals, and every symbol that has candle data' })
  @ApiOkResponse({ type: MarketsResponseDto })
  async markets(@Res() reply: FastifyReply): Promise<void> {
    this.send(reply, await this.candles.marketsJson());
  }

  @Get('candles')
  @ApiOperation({
    summary: 'USD OHLC candles of one symbol, oldest first',
    description:
      'from inclusive, to exclusive (UNIX seconds); at most 5000 candles per request. An unknown symbol or an empty range gives 200 with no candles. Buckets without ticks are omitted. Cached about 10 seconds.',
  })
  @ApiOkResponse({ type: CandlesResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A missing or malformed parameter, or a range of more than 5000 candles' })
  async list(@Query() query: CandlesQuery, @Res() reply: FastifyReply): Promise<void> {
    this.send(reply, await this.candles.candlesJson(query));
  }

  private send(reply: FastifyReply, json: string): void {
    void reply
      .header('cache-control', `public, max-age=${this.candles.cacheSeconds}`)
      .header('content-type', 'application/json; charset=utf-8')
      .send(json);
  }
}
