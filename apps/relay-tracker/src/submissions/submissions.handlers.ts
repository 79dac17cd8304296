import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubmissionStatusQueryDto, Subjects, type ReplyOf } from '@swap/contracts';
import { OrgSwaps } from './org-swaps';
import { SubmissionsService } from './submissions.service';
import { OrgFeesMessage, OrgSwapMessage, OrgSwapsMessage, SubmissionEventsMessage, SubmitTxMessage } from './submissions.messages';

@Controller()
export class SubmissionsHandlers {
  constructor(
    private readonly submissions: SubmissionsService,
    private readonly orgSwaps: OrgSwaps,
  ) {}

  @MessagePattern(Subjects.submissionSubmit)
  submit(@Payload() request: SubmitTxMessage): ReplyOf<'submissionSubmit'> {
    return this.submissions.submit(request);
  }

  @MessagePattern(Subjects.submissionStatus)
  status(@Payload() request: SubmissionStatusQueryDto): ReplyOf<'submissionStatus'> {
    return this.submissions.status(request.txHash, request.srcChainKey);
  }

  @MessagePattern(Subjects.submissionEvents)
  events(@Payload() request: SubmissionEventsMessage): ReplyOf<'submissionEvents'> {
    return this.submissions.events(request.txHash, request.srcChainKey, request.after);
  }

  @MessagePattern(Subjects.orgSwapList)
  listOrgSwaps(@Payload() request: OrgSwapsMessage): ReplyOf<'orgSwapList'> {
    return this.orgSwaps.list(request);
  }

  @MessagePattern(Subjects.orgSwapGet)
  getOrgSwap(@Payload() request: OrgSwapMessage): ReplyOf<'orgSwapGet'> {
    return this.orgSwaps.get(request.orgId, request.txHash, request.srcChainKey);
  }

  @MessagePattern(Subjects.orgSwapFees)
  orgFees(@Payload() request: OrgFeesMessage): ReplyOf<'orgSwapFees'> {
    return this.orgSwaps.fees(request);
  }
}
