import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto, IntentHashRequestDto, SWAPS_POST_ROUTES, Subjects } from '@swap/contracts';
import { KeyedRoute } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';

class IntentHashResponse {
  hash!: string;
}

/** Intent look-ups that need no chain: the hash the hub's events carry. */
@ApiTags('swaps')
@ApiHeader({ name: 'x-api-key', required: false, description: 'Checked in the mode of the swaps family (scope swaps:read)' })
@Controller()
export class IntentsController {
  constructor(private readonly messaging: MessagingClient) {}

  @Post(SWAPS_POST_ROUTES.intentHash.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intentHash.scope })
  @ApiOperation({ summary: 'The intent hash: keccak256(abi.encode(intent))' })
  @ApiOkResponse({ type: IntentHashResponse })
  @ApiBadRequestResponse({ type: ErrorBodyDto })
  hash(@Body() body: IntentHashRequestDto): Promise<{ hash: string }> {
    return this.messaging.request(Subjects.intentHash, { intent: body.intent });
  }
}
