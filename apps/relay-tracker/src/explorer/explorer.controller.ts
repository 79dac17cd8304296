import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiTag,
  ErrorBodyDto,
  ExplorerIntentDto,
  OrderbookPageDto,
  PartnerSummaryDto,
  PartnersListDto,
  SwapLookupDto,
  UserIntentsPageDto,
  VolumePageDto,
  VolumeStatsDto,
  type PartnerSummary,
  type PartnersList,
  type SwapLookup,
  type VolumeStats,
} from '@swap/contracts';
import type { FastifyReply } from 'fastify';
import { ExplorerReads } from './explorer-reads';
import { SwapLookups } from './swap-lookups';
import { OrderbookQuery, PartnersQuery, UserIntentsQuery, VolumeQuery } from './explorer.query';

const BAD = { type: ErrorBodyDto, description: 'A malformed parameter (the body names it and the rule)' };

/** The data API's explorer reads (keyless by design, like all of /v1/be). */
@ApiTags(ApiTag.explorer)
@Controller('v1/be')
export class ExplorerController {
  constructor(
    private readonly reads: ExplorerReads,
    private readonly lookups: SwapLookups,
  ) {}

  @Get('intent/tx/:txHash')
  @ApiOperation({ summary: 'An intent by the hub transaction that created it, with its state and its hub events' })
  @ApiParam({ name: 'txHash', description: 'Hub transaction hash (0x and 64 hex digits)' })
  @ApiOkResponse({ type: ExplorerIntentDto })
  @ApiBadRequestResponse(BAD)
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No intent created by that transaction is indexed' })
  async byTx(@Param('txHash') txHash: string, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.reads.intentByTxJson(txHash));
  }

  @Get('intent/user/:userAddress')
  @ApiOperation({
    summary: 'A user’s intents, newest first',
    description:
      'The user is the hub wallet that created the intents or the source-chain address they were built for (EVM hex or a Solana public key); both resolve.',
  })
  @ApiParam({ name: 'userAddress', description: 'A 20-byte hex address, or a base58 Solana public key' })
  @ApiOkResponse({ type: UserIntentsPageDto })
  @ApiBadRequestResponse(BAD)
  async user(@Param('userAddress') userAddress: string, @Query() query: UserIntentsQuery, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.reads.userIntentsJson(userAddress, query));
  }

  @Get('intent/swap/:hash')
  @ApiOperation({
    summary: 'The swap a hash belongs to: its status answer (if submitted here) and its intent (if on the hub)',
    description:
      'This platform’s read behind the explorer page (/explorer/): the hash may be the source transaction (any chain), the hub transaction that created the intent, or the intent hash.',
  })
  @ApiParam({
    name: 'hash',
    description: 'A source transaction of any network (in its own form), a hub transaction or an intent hash',
  })
  @ApiOkResponse({ type: SwapLookupDto })
  @ApiBadRequestResponse(BAD)
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Nothing submitted here or indexed on the hub has that hash' })
  swap(@Param('hash') hash: string): Promise<SwapLookup> {
    return this.lookups.swap(hash);
  }

  @Get('intent/:intentHash')
  @ApiOperation({ summary: 'An intent by its hash, with its state and its hub events' })
  @ApiParam({ name: 'intentHash', description: '0x and 64 hex digits' })
  @ApiOkResponse({ type: ExplorerIntentDto })
  @ApiBadRequestResponse(BAD)
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No intent with that hash is indexed' })
  async byHash(@Param('intentHash') intentHash: string, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.reads.intentByHashJson(intentHash));
  }

  @Get('solver/orderbook')
  @ApiOperation({ summary: 'Open intents (not cancelled, input remaining), newest first' })
  @ApiOkResponse({ type: OrderbookPageDto })
  @ApiBadRequestResponse(BAD)
  async orderbook(@Query() query: OrderbookQuery, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.reads.orderbookJson(query));
  }

  @Get('solver/volume')
  @ApiOperation({
    summary: 'Fills, one record per fill event (a partial fill repeats its intent), a keyset page at a time',
    description: 'Pass nextCursor as cursor, with the same filters and sort, for the next page. One kind of range only.',
  })
  @ApiOkResponse({ type: VolumePageDto })
  @ApiBadRequestResponse(BAD)
  async volume(@Query() query: VolumeQuery, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.reads.volumeJson(query));
  }

  @Get('solver/volume/stats')
  @ApiOperation({ summary: 'How many fill events are indexed (an estimate once large; cached about 60 s)' })
  @ApiOkResponse({ type: VolumeStatsDto })
  volumeStats(): Promise<VolumeStats> {
    return this.reads.volumeStats();
  }

  @Get('partners')
  @ApiOperation({ summary: 'Every partner-fee receiver intents named, most recently seen first' })
  @ApiOkResponse({ type: PartnersListDto })
  @ApiBadRequestResponse(BAD)
  partners(@Query() query: PartnersQuery): Promise<PartnersList> {
    return this.reads.partners(query);
  }

  @Get('partners/:receiver/summary')
  @ApiOperation({ summary: 'Fees a receiver collected per input token, and the output its intents received per output token' })
  @ApiParam({ name: 'receiver', description: 'The partner fee receiver (a hub address)' })
  @ApiOkResponse({ type: PartnerSummaryDto })
  @ApiBadRequestResponse(BAD)
  partnerSummary(@Param('receiver') receiver: string, @Query() query: PartnersQuery): Promise<PartnerSummary> {
    return this.reads.partnerSummary(receiver, query);
  }
}

function send(reply: FastifyReply, json: string): void {
  void reply.header('content-type', 'application/json; charset=utf-8').send(json);
}
