import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubmissionStatusQueryDto, Subjects, type RpcReply } from '@swap/contracts';
import { SubmissionsService } from './submissions.service';
import { SubmissionEventsQueryDto, SubmitTxMessageDto } from './submissions.messages';

@Controller()
export class SubmissionsHandlers {
  constructor(private readonly submissions: SubmissionsService) {}

  @MessagePattern(Subjects.submissionSubmit)
  submit(@Payload() request: SubmitTxMessageDto): Promise<RpcReply<typeof Subjects.submissionSubmit>> {
    return this.submissions.submit(request);
  }

  @MessagePattern(Subjects.submissionStatus)
  status(@Payload() request: SubmissionStatusQueryDto): Promise<RpcReply<typeof Subjects.submissionStatus>> {
    return this.submissions.status(request.txHash, request.srcChainKey);
  }

  @MessagePattern(Subjects.submissionEvents)
  events(@Payload() request: SubmissionEventsQueryDto): Promise<RpcReply<typeof Subjects.submissionEvents>> {
    return this.submissions.events(request.txHash, request.srcChainKey, request.after);
  }
}
