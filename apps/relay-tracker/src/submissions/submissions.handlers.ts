import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubmissionStatusQueryDto, SubmitTxRequestDto, Subjects, type RpcReply } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SubmissionsService } from './submissions.service';

/** With the organisation of the API key it came with (for claims). */
class SubmitTxMessageDto extends SubmitTxRequestDto {
  @IsOptional()
  @MaxLength(64)
  @IsString()
  orgId?: string;
}

/** `after`: the stream's Last-Event-ID. */
class SubmissionEventsQueryDto extends SubmissionStatusQueryDto {
  @IsOptional()
  @Type(() => Number)
  @Min(0)
  @Max(1_000_000)
  @IsInt()
  after?: number;
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

  @MessagePattern(Subjects.submissionEvents)
  events(@Payload() request: SubmissionEventsQueryDto): Promise<RpcReply<typeof Subjects.submissionEvents>> {
    return this.submissions.events(request.txHash, request.srcChainKey, request.after);
  }
}
