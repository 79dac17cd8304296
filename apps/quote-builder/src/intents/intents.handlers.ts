import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CancelRequestDto, GasEstimateRequestDto, IntentRequestDto, LimitOrderRequestDto, Subjects, type ReplyOf } from '@swap/contracts';
import { GasEstimatorService } from './gas-estimator.service';
import { IntentBuilderService } from './intent-builder.service';
import type { Hex } from 'viem';
import { HubIntentStates } from '../executions/hub-intent-states';
import { DeadlineMessage, IntentLookupMessage, PartnerFeeMessage } from './intents.messages';

@Controller()
export class IntentsHandlers {
  constructor(
    private readonly builder: IntentBuilderService,
    private readonly gas: GasEstimatorService,
    private readonly hubIntents: HubIntentStates,
  ) {}

  @MessagePattern(Subjects.intentLookup)
  lookup(@Payload() request: IntentLookupMessage): ReplyOf<'intentLookup'> {
    return this.hubIntents.createdBy(request.txHash as Hex);
  }

  @MessagePattern(Subjects.intentBuild)
  build(@Payload() request: IntentRequestDto): ReplyOf<'intentBuild'> {
    return this.builder.build(request);
  }

  @MessagePattern(Subjects.limitOrderBuild)
  limitOrder(@Payload() request: LimitOrderRequestDto): ReplyOf<'limitOrderBuild'> {
    return this.builder.buildLimitOrder(request);
  }

  @MessagePattern(Subjects.gasEstimate)
  gasEstimate(@Payload() request: GasEstimateRequestDto): ReplyOf<'gasEstimate'> {
    return this.gas.estimate(request.chainKey, request.tx);
  }

  @MessagePattern(Subjects.allowanceCheck)
  allowance(@Payload() request: IntentRequestDto): ReplyOf<'allowanceCheck'> {
    return this.builder.allowanceCheck(request);
  }

  @MessagePattern(Subjects.approveBuild)
  approve(@Payload() request: IntentRequestDto): ReplyOf<'approveBuild'> {
    return this.builder.approve(request);
  }

  @MessagePattern(Subjects.intentCancel)
  cancel(@Payload() request: CancelRequestDto): ReplyOf<'intentCancel'> {
    return this.builder.cancel(request);
  }

  @MessagePattern(Subjects.deadline)
  deadline(@Payload() request: DeadlineMessage): ReplyOf<'deadline'> {
    return this.builder.deadline(request.offsetSeconds);
  }

  /** The previous release's swap-gateway asks this; see chain-catalog.handlers.ts (remove in the next release). */
  @MessagePattern(Subjects.partnerFee)
  async partnerFee(@Payload() request: PartnerFeeMessage): ReplyOf<'partnerFee'> {
    return this.builder.partnerFee(request.amount, request.partnerFee);
  }
}
