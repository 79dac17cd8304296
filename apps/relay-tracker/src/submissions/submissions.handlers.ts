import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SubmitTxRequestDto, Subjects, type RpcReply } from '@swap/contracts';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { SubmissionsService } from './submissions.service';

class StatusMessage {
  @MaxLength(128)
  @MinLength(1)
  @IsString()
  txHash!: string;

  @MaxLength(64)
  @MinLength(1)
  @IsString()
  srcChainKey!: string;
}

@Controller()
export class SubmissionsHandlers {
  constructor(private readonly submissions: SubmissionsService) {}

  @MessagePattern(Subjects.submissionSubmit)
  submit(@Payload() request: SubmitTxRequestDto): Promise<RpcReply<typeof Subjects.submissionSubmit>> {
    return this.submissions.submit(request);
  }

  @MessagePattern(Subjects.submissionStatus)
  status(@Payload() request: StatusMessage): Promise<RpcReply<typeof Subjects.submissionStatus>> {
    return this.submissions.status(request.txHash, request.srcChainKey);
  }
}
