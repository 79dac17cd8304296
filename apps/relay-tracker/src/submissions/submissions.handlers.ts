import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubmissionStatusQueryDto, SubmitTxRequestDto, Subjects, type RpcReply } from '@swap/contracts';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { SubmissionsService } from './submissions.service';

/** The submit request, and the organisation of the API key it came with (for claims). */
class SubmitTxMessageDto extends SubmitTxRequestDto {
  @IsOptional()
  @MaxLength(64)
  @IsString()
  orgId?: string;
}

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
}
