import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiTag, ErrorBodyDto, TokenDto } from '@swap/contracts';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import type { FastifyReply } from 'fastify';

/** From memory: the lists are JSON text already. */
@ApiTags(ApiTag.quote)
@ApiExtraModels(TokenDto)
@Controller('v1/swaps/tokens')
export class TokensController {
  constructor(private readonly catalog: ChainCatalogMirror) {}

  @Get()
  @ApiOperation({ summary: 'All supported tokens, grouped by chain key' })
  @ApiOkResponse({
    description: 'An object whose keys are chain keys and whose values are arrays of Token',
    schema: { type: 'object', additionalProperties: { type: 'array', items: { $ref: getSchemaPath(TokenDto) } } },
  })
  async all(@Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', 'application/json; charset=utf-8').send(await this.catalog.tokensJson());
  }

  @Get(':chainKey')
  @ApiOperation({ summary: 'The tokens of one chain' })
  @ApiParam({
    name: 'chainKey',
    example: '0xa4b1.arbitrum',
    description: 'EVM: <hex_chain_id>.<network_name> (hub: 0x92.sonic); others: plain name; any letter case',
  })
  @ApiOkResponse({ type: [TokenDto] })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Unknown chain key' })
  async ofChain(@Param('chainKey') chainKey: string, @Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', 'application/json; charset=utf-8').send(await this.catalog.tokensJson(chainKey));
  }
}
