import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiTag,
  AllowanceCheckResponseDto,
  ApproveResponseDto,
  BuildResponseDto,
  CancelRequestDto,
  CancelResponseDto,
  ErrorBodyDto,
  GasEstimateRequestDto,
  GasEstimateResponseDto,
  IntentHashRequestDto,
  IntentHashResponseDto,
  IntentStatusRequestDto,
  IntentStatusResponseDto,
  LimitOrderRequestDto,
  IntentRequestDto,
  SWAPS_POST_ROUTES,
  Subjects,
  type ReplyOf,
} from '@swap/contracts';
import { KeyedRoute } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';

/** Step 2 of a swap and its helpers: the unsigned transactions, built by quote-builder (the reads beside them are in reads/). */
@ApiBadRequestResponse({ type: ErrorBodyDto, description: 'A field that breaks a rule, named with the rule' })
@Controller()
export class IntentsController {
  constructor(private readonly messaging: MessagingClient) {}

  @Post(SWAPS_POST_ROUTES.intents.path)
  @ApiTags(ApiTag.build)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intents.scope })
  @ApiOperation({ summary: 'Build the unsigned transaction of an intent: { tx, intent, relayData }' })
  @ApiOkResponse({ type: BuildResponseDto })
  async build(@Body() body: IntentRequestDto, @Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', 'application/json; charset=utf-8').send(await this.messaging.requestJson(Subjects.intentBuild, body));
  }

  @Post(SWAPS_POST_ROUTES.limitOrders.path)
  @ApiTags(ApiTag.build)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.limitOrders.scope })
  @ApiOperation({
    summary:
      'Build a limit order: the intent body without a deadline; the intent carries deadline 0 and stays open until filled or cancelled (/intents/cancel)',
  })
  @ApiOkResponse({ type: BuildResponseDto })
  @ApiResponse({ status: 503, type: ErrorBodyDto, description: 'CHAIN_UNAVAILABLE or NOT_CONFIGURED: a chain read the build needs failed' })
  async limitOrder(@Body() body: LimitOrderRequestDto, @Res() reply: FastifyReply): Promise<void> {
    void reply
      .header('content-type', 'application/json; charset=utf-8')
      .send(await this.messaging.requestJson(Subjects.limitOrderBuild, body));
  }

  @Post(SWAPS_POST_ROUTES.gasEstimate.path)
  @ApiTags(ApiTag.build)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.gasEstimate.scope })
  @ApiOperation({
    summary: 'Gas of a built transaction ({ chainKey, tx } as a builder returned tx) and its fee at the chain’s current prices',
  })
  @ApiOkResponse({ type: GasEstimateResponseDto })
  @ApiResponse({
    status: 422,
    type: ErrorBodyDto,
    description: 'TRANSACTION_WOULD_FAIL: the chain would not run it now (a revert, insufficient funds), with its reason',
  })
  @ApiResponse({ status: 503, type: ErrorBodyDto, description: 'CHAIN_UNAVAILABLE or NOT_CONFIGURED: the chain could not be read' })
  gasEstimate(@Body() body: GasEstimateRequestDto): ReplyOf<'gasEstimate'> {
    return this.messaging.request(Subjects.gasEstimate, body);
  }

  @Post(SWAPS_POST_ROUTES.intentStatus.path)
  @ApiTags(ApiTag.track)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intentStatus.scope })
  @ApiOperation({
    summary: 'Solver status of a hub intent transaction: -1 not found, 1 not started, 2 in progress, 3 solved (with fillTxHash), 4 failed',
  })
  @ApiOkResponse({ type: IntentStatusResponseDto })
  intentStatus(@Body() body: IntentStatusRequestDto): ReplyOf<'intentSolverStatus'> {
    return this.messaging.request(Subjects.intentSolverStatus, { intentTxHash: body.intentTxHash });
  }

  @Post(SWAPS_POST_ROUTES.allowanceCheck.path)
  @ApiTags(ApiTag.build)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.allowanceCheck.scope })
  @ApiOperation({ summary: 'Whether the transaction may move the ERC-20 input now (read on chain)' })
  @ApiOkResponse({ type: AllowanceCheckResponseDto })
  allowance(@Body() body: IntentRequestDto): ReplyOf<'allowanceCheck'> {
    return this.messaging.request(Subjects.allowanceCheck, body);
  }

  @Post(SWAPS_POST_ROUTES.approve.path)
  @ApiTags(ApiTag.build)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.approve.scope })
  @ApiOperation({ summary: 'The unsigned approve transaction for the ERC-20 input, when one is needed' })
  @ApiOkResponse({ type: ApproveResponseDto })
  approve(@Body() body: IntentRequestDto): ReplyOf<'approveBuild'> {
    return this.messaging.request(Subjects.approveBuild, body);
  }

  @Post(SWAPS_POST_ROUTES.intentCancel.path)
  @ApiTags(ApiTag.cancel)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intentCancel.scope })
  @ApiOperation({ summary: "The unsigned cancel transaction for the intent's source chain, for an intent open on the hub" })
  @ApiOkResponse({ type: CancelResponseDto })
  @ApiResponse({
    status: 409,
    type: ErrorBodyDto,
    description: 'INTENT_NOT_OPEN: the hub holds no open intent of that hash; details { state: solved | cancelled | unknown, intentHash }',
  })
  @ApiResponse({ status: 501, type: ErrorBodyDto, description: 'NOT_IMPLEMENTED: cancels from this kind of network are not built yet' })
  cancel(@Body() body: CancelRequestDto): ReplyOf<'intentCancel'> {
    return this.messaging.request(Subjects.intentCancel, body);
  }

  @Post(SWAPS_POST_ROUTES.intentHash.path)
  @ApiTags(ApiTag.track)
  @HttpCode(200)
  @KeyedRoute({ family: 'swaps', scope: SWAPS_POST_ROUTES.intentHash.scope })
  @ApiOperation({ summary: 'The intent hash: keccak256(abi.encode(intent))' })
  @ApiOkResponse({ type: IntentHashResponseDto })
  hash(@Body() body: IntentHashRequestDto): ReplyOf<'intentHash'> {
    return this.messaging.request(Subjects.intentHash, { intent: body.intent });
  }
}
