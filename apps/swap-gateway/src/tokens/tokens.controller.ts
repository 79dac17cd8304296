import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiTag, ErrorBodyDto, Subjects, TokenDto, type Token, type TokensByChain } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';

/** Public token reads; quote-builder owns the registry and answers over the bus. */
@ApiTags(ApiTag.quote)
@ApiExtraModels(TokenDto)
@Controller('v1/swaps/tokens')
export class TokensController {
  constructor(private readonly messaging: MessagingClient) {}

  @Get()
  @ApiOperation({ summary: 'All supported tokens, grouped by chain key' })
  @ApiOkResponse({
    description: 'An object whose keys are chain keys and whose values are arrays of Token',
    schema: { type: 'object', additionalProperties: { type: 'array', items: { $ref: getSchemaPath(TokenDto) } } },
  })
  all(): Promise<TokensByChain> {
    return this.messaging.request(Subjects.tokensList, {});
  }

  @Get(':chainKey')
  @ApiOperation({ summary: 'The tokens of one chain' })
  @ApiParam({ name: 'chainKey', example: '0xa4b1.arbitrum', description: 'EVM: <hex_chain_id>.<network_name> (hub: 0x92.sonic); others: plain name' })
  @ApiOkResponse({ type: [TokenDto] })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'Unknown chain key' })
  ofChain(@Param('chainKey') chainKey: string): Promise<Token[]> {
    return this.messaging.request(Subjects.tokensByChain, { chainKey });
  }
}
