import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiTag,
  AppError,
  CancelRequestDto,
  CancelResponseDto,
  ErrorBodyDto,
  EVM_HASH_PATTERN,
  GasEstimateRequestDto,
  GasEstimateResponseDto,
  IntentDto,
  IntentExtraDataRequestDto,
  IntentHashRequestDto,
  IntentHashResponseDto,
  IntentPacketRequestDto,
  IntentStatusRequestDto,
  IntentStatusResponseDto,
  IntentSubmitRequestDto,
  LEVERAGE_YIELD_POST_ROUTES,
  PartnerFeeQueryDto,
  PartnerFeeResponseDto,
  SolverFeeQueryDto,
  SolverFeeResponseDto,
  Subjects,
  type Intent,
  type IntentLookup,
  type PartnerFeeResponse,
  type ReplyOf,
} from '@swap/contracts';
import { partnerFeeQuote, solverFeeQuote } from '@swap/chains';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import { KeyedRoute } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import { PacketResponse, RelayDataResponse, SubmitResponse } from '../intents/relay.controller';
import { givenPartnerFee } from '../reads/reads.controller';
import { SwapGatewayConfig } from '../swap-gateway.config';

const ROUTES = LEVERAGE_YIELD_POST_ROUTES;

class IntentFillStateDto {
  @ApiProperty({ description: 'Input left to fill or cancel' }) exists!: boolean;
  @ApiProperty() remainingInput!: string;
  @ApiProperty({ description: 'Output paid so far' }) receivedOutput!: string;
  @ApiProperty() pendingPayment!: boolean;
}

/** The intent helpers of the family: the swaps' own, answered by the same services (public-api-families.md §1.2, routes 21–31). */
@ApiTags(ApiTag.leverageYield)
@Controller()
export class VaultHelpersController {
  constructor(
    private readonly messaging: MessagingClient,
    private readonly config: SwapGatewayConfig,
    private readonly catalog: ChainCatalogMirror,
  ) {}

  @Post(ROUTES.intentSubmit.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentSubmit.scope })
  @ApiOperation({ summary: 'Hand a source transaction to the relay without tracking it, as /v1/swaps/intents/submit' })
  @ApiOkResponse({ type: SubmitResponse })
  submit(@Body() body: IntentSubmitRequestDto): ReplyOf<'relaySubmit'> {
    return this.messaging.request(Subjects.relaySubmit, body);
  }

  @Post(ROUTES.intentStatus.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentStatus.scope })
  @ApiOperation({ summary: "The solvers' status of an intent by its hub creation transaction, as /v1/swaps/intents/status" })
  @ApiOkResponse({ type: IntentStatusResponseDto })
  status(@Body() body: IntentStatusRequestDto): ReplyOf<'intentSolverStatus'> {
    return this.messaging.request(Subjects.intentSolverStatus, { intentTxHash: body.intentTxHash });
  }

  @Post(ROUTES.intentCancel.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentCancel.scope })
  @ApiOperation({
    summary:
      "The unsigned cancel of an open deposit or withdrawal, as /v1/swaps/intents/cancel; a withdrawal's shares stay in the hub wallet",
  })
  @ApiOkResponse({ type: CancelResponseDto })
  @ApiResponse({ status: 409, type: ErrorBodyDto, description: 'INTENT_NOT_OPEN: the hub holds no open intent of that hash' })
  cancel(@Body() body: CancelRequestDto): ReplyOf<'intentCancel'> {
    return this.messaging.request(Subjects.intentCancel, body);
  }

  @Post(ROUTES.intentHash.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentHash.scope })
  @ApiOperation({ summary: 'keccak256(abi.encode(intent))' })
  @ApiOkResponse({ type: IntentHashResponseDto })
  hash(@Body() body: IntentHashRequestDto): ReplyOf<'intentHash'> {
    return this.messaging.request(Subjects.intentHash, { intent: body.intent });
  }

  @Post(ROUTES.intentPacket.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentPacket.scope })
  @ApiOperation({ summary: "A transaction's relay packet, as /v1/swaps/intents/packet" })
  @ApiOkResponse({ type: PacketResponse })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'The relay has no packet for it (yet)' })
  packet(@Body() body: IntentPacketRequestDto): ReplyOf<'relayPacket'> {
    return this.messaging.request(Subjects.relayPacket, body, { timeoutMs: (body.timeout ?? 0) + this.config.RPC_TIMEOUT_MS });
  }

  @Post(ROUTES.intentExtraData.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.intentExtraData.scope })
  @ApiOperation({ summary: 'The relay data ({ address, payload }) of an intent or of a submitted transaction' })
  @ApiOkResponse({ type: RelayDataResponse })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'No submission of that transaction' })
  extraData(@Body() body: IntentExtraDataRequestDto): ReplyOf<'relayExtraData'> {
    return this.messaging.request(Subjects.relayExtraData, body);
  }

  @Post(ROUTES.gasEstimate.path)
  @HttpCode(200)
  @KeyedRoute({ family: 'leverage-yield', scope: ROUTES.gasEstimate.scope })
  @ApiOperation({ summary: 'The gas of a built transaction ({ chainKey, tx }), as /v1/swaps/gas/estimate' })
  @ApiOkResponse({ type: GasEstimateResponseDto })
  @ApiResponse({ status: 422, type: ErrorBodyDto, description: 'TRANSACTION_WOULD_FAIL: the transaction would revert' })
  gasEstimate(@Body() body: GasEstimateRequestDto): ReplyOf<'gasEstimate'> {
    return this.messaging.request(Subjects.gasEstimate, body);
  }

  @Get('v1/leverage-yield/fees/partner')
  @ApiOperation({
    summary:
      "The partner fee on an amount: the query's fee (feeAddress with feeAmount or feePercentage), else the family's (VAULT_PARTNER_FEE_*), which a deposit naming none pays",
  })
  @ApiOkResponse({ type: PartnerFeeResponseDto })
  async partnerFee(@Query() query: PartnerFeeQueryDto): Promise<PartnerFeeResponse> {
    return partnerFeeQuote(query.amount, givenPartnerFee(query), await this.catalog.vaultPartnerFee(), 'VAULT_PARTNER_FEE');
  }

  @Get('v1/leverage-yield/fees/solver')
  @ApiOperation({ summary: "The solvers' fee on an amount, as /v1/swaps/fees/solver" })
  @ApiOkResponse({ type: SolverFeeResponseDto })
  solverFee(@Query() query: SolverFeeQueryDto): SolverFeeResponseDto {
    return solverFeeQuote(query.amount, this.config.SOLVER_FEE_BPS);
  }

  @Get('v1/leverage-yield/intents/:txHash/fill')
  @ApiOperation({
    summary: 'The state of the intent a hub transaction created: { exists, remainingInput, receivedOutput, pendingPayment }',
  })
  @ApiParam({ name: 'txHash', description: 'The hub transaction that created the intent' })
  @ApiOkResponse({ type: IntentFillStateDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'INTENT_NOT_FOUND: the transaction created no intent' })
  async fill(@Param('txHash') txHash: string): Promise<IntentLookup['state']> {
    return (await this.lookup(txHash)).state;
  }

  @Get('v1/leverage-yield/intents/:txHash')
  @ApiOperation({ summary: 'The intent a hub transaction created (every field a string, as built)' })
  @ApiParam({ name: 'txHash', description: 'The hub transaction that created the intent' })
  @ApiOkResponse({ type: IntentDto })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'INTENT_NOT_FOUND: the transaction created no intent' })
  async intent(@Param('txHash') txHash: string): Promise<Intent> {
    return (await this.lookup(txHash)).intent;
  }

  private lookup(txHash: string): Promise<IntentLookup> {
    if (!EVM_HASH_PATTERN.test(txHash))
      throw AppError.validation([
        { field: 'txHash', rule: 'hubTxHash', message: 'txHash must be a hub transaction hash: 0x and 64 hex digits' },
      ]);
    return this.messaging.request(Subjects.intentLookup, { txHash });
  }
}
