import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiTag, ChainMapEntryDto, ErrorBodyDto, HubAssetDto, TokenDto } from '@swap/contracts';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import type { FastifyReply } from 'fastify';

const CHAIN_PARAM = {
  name: 'chainId',
  example: '0xa4b1.arbitrum',
  description: 'A chain key or a public plain name (arbitrum, sonic, …), any letter case',
};

/** In the public client's IConfigApi shapes, from memory; chain keys are this platform's canonical ones. */
@ApiTags(ApiTag.config)
@ApiExtraModels(TokenDto, HubAssetDto)
@Controller('v1/be/config')
export class ConfigController {
  constructor(private readonly catalog: ChainCatalogMirror) {}

  @Get('spoke/chains')
  @ApiOperation({ summary: 'Every chain key of the deployment (the hub included)' })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' }, example: ['0x92.sonic', '0xa4b1.arbitrum', 'solana'] } })
  async chains(@Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.catalog.configJson('chainKeys'));
  }

  @Get('chains')
  @ApiOperation({
    summary:
      'The chain map: per chain key its kind, EVM chain id (what a wallet signs for), relay chain id (what intents and the relay routes carry), name and aliases',
  })
  @ApiOkResponse({ type: [ChainMapEntryDto] })
  async chainMap(@Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.catalog.configJson('chainMap'));
  }

  @Get('swap/tokens')
  @ApiOperation({ summary: 'Swap tokens by chain key' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: { type: 'array', items: { $ref: getSchemaPath(TokenDto) } } } })
  async swapTokens(@Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.catalog.tokensJson());
  }

  @Get('swap/:chainId/tokens')
  @ApiOperation({ summary: 'The swap tokens of one chain' })
  @ApiParam(CHAIN_PARAM)
  @ApiOkResponse({ type: [TokenDto] })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Unknown chain' })
  async swapTokensOf(@Param('chainId') chainId: string, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.catalog.tokensJson(chainId));
  }

  @Get('hub/assets')
  @ApiOperation({ summary: 'Each token’s hub asset, by chain key then token address' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: { $ref: getSchemaPath(HubAssetDto) } },
    },
  })
  async hubAssets(@Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.catalog.configJson('hubAssets'));
  }

  @Get('hub/:chainId/assets')
  @ApiOperation({ summary: 'One chain’s tokens’ hub assets, by token address' })
  @ApiParam(CHAIN_PARAM)
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: { $ref: getSchemaPath(HubAssetDto) } } })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Unknown chain' })
  async hubAssetsOf(@Param('chainId') chainId: string, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.catalog.configJson('hubAssets', chainId));
  }

  @Get('relay/chain-id-map')
  @ApiOperation({ summary: 'The relay chain id (what intents carry as srcChain/dstChain) of each chain key' })
  @ApiOkResponse({
    schema: { type: 'object', additionalProperties: { type: 'integer' }, example: { '0x92.sonic': 146, '0xa4b1.arbitrum': 23 } },
  })
  async relayChainIds(@Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.catalog.configJson('relayChainIds'));
  }
}

function send(reply: FastifyReply, json: string): void {
  void reply.header('cache-control', 'public, max-age=60').header('content-type', 'application/json; charset=utf-8').send(json);
}
