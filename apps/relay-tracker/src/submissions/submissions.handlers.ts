import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubmissionStatusQueryDto, SubmitTxRequestDto, Subjects, type RpcReply } from '@swap/contracts';
import { SubmissionsService } from './submissions.service';

@Controller()
export class SubmissionsHandlers {
  constructor(private readonly submissions: SubmissionsService) {}

  @MessagePattern(Subjects.submissionSubmit)
  submit(@Payload() request: SubmitTxRequestDto): Promise<RpcReply<typeof Subjects.submissionSubmit>> {
    return this.submissions.submit(request);
  }

  @MessagePattern(Subjects.submissionStatus)
  status(@Payload() request: SubmissionStatusQueryDto): Promise<RpcReply<typeof Subjects.submissionStatus>> {
    return this.submissions.status(request.txHash, request.srcChainKey);
  }
}
