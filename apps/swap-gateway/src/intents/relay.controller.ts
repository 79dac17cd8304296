import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiTag,
  ErrorBodyDto,
  IntentExtraDataRequestDto,
  IntentPacketRequestDto,
  IntentSubmitRequestDto,
  SWAPS_POST_ROUTES,
  Subjects,
  type ReplyOf,
} from '@swap/contracts';
import { KeyedRoute } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { SwapGatewayConfig } from '../swap-gateway.config';

export class RelayDataResponse {
  @ApiProperty({ description: 'The hub address the message is for: the intents contract (hub source) or the user’s hub wallet' })
  address!: string;
  @ApiProperty({ description: 'The bytes the relay delivers' })
  payload!: string;
}

export class PacketResponse {
  @ApiProperty() srcChainId!: number;
  @ApiProperty() srcTxHash!: string;
  @ApiProperty() srcAddress!: string;
  @ApiProperty({ enum: ['pending', 'validating', 'executing', 'executed'] }) status!: string;
  @ApiProperty() dstChainId!: number;
  @ApiProperty() connSn!: number;
  @ApiProperty() dstAddress!: string;
  @ApiProperty({ description: 'Where the packet landed (with executed)' }) dstTxHash!: string;
  @ApiProperty({ type: [String] }) signatures!: string[];
  @ApiProperty() payload!: string;
}

export class SubmitResponse {
  @ApiProperty({ description: "The relay's own answer: { success, message? }" })
  result!: { success: boolean; message?: string };
}

/** The relay helpers of the swaps API, answered by relay-tracker (which talks to the relay). */
@ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A field that breaks a rule, named with the rule' })
@ApiResponse({ status: 502, type: ErrorBodyDto, description: 'RELAY_UNAVAILABLE: the relay API could not be reached' })
@Controller()
export class RelayController {
  constructor(
    private readonly messaging: MessagingClient,
    private readonly config: SwapGatewayConfig,
  ) {}

  @Post(SWAPS_POST_ROUTES.intentPacket.path)
  @ApiTags(ApiTag.track)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intentPacket.scope })
  @ApiOperation({
    summary:
      "A transaction's relay packet ({ chainId, fillTxHash | txHash, timeout? }): a fill's delivery to the destination spoke, or a source's message to the hub; the executed one first",
  })
  @ApiOkResponse({ type: PacketResponse })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'The relay has no packet for it (yet); an unknown chainId is a 400 naming it' })
  packet(@Body() body: IntentPacketRequestDto): ReplyOf<'relayPacket'> {
    // The wait happens in relay-tracker: the bus answer may take that long.
    return this.messaging.request(Subjects.relayPacket, body, { timeoutMs: (body.timeout ?? 0) + this.config.RPC_TIMEOUT_MS });
  }

  @Post(SWAPS_POST_ROUTES.intentExtraData.path)
  @ApiTags(ApiTag.track)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intentExtraData.scope })
  @ApiOperation({ summary: 'The relay data ({ address, payload }) of an intent, or of a submitted transaction ({ txHash, srcChainKey? })' })
  @ApiOkResponse({ type: RelayDataResponse })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No submission of that transaction' })
  extraData(@Body() body: IntentExtraDataRequestDto): ReplyOf<'relayExtraData'> {
    return this.messaging.request(Subjects.relayExtraData, body);
  }

  @Post(SWAPS_POST_ROUTES.intentSubmit.path)
  @ApiTags(ApiTag.submit)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intentSubmit.scope })
  @ApiOperation({
    summary: 'Hand a source transaction to the relay without tracking it ({ chainId, txHash, data? }); submit-tx also tracks it',
  })
  @ApiOkResponse({ type: SubmitResponse })
  @ApiResponse({ status: 422, type: ErrorBodyDto, description: 'RELAY_REFUSED: the relay answered success: false, with its reason' })
  submit(@Body() body: IntentSubmitRequestDto): ReplyOf<'relaySubmit'> {
    return this.messaging.request(Subjects.relaySubmit, body);
  }
}
