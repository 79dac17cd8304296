import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IntentStatusRequestDto, SolverExecuteRequestDto, Subjects, type ReplyOf } from '@swap/contracts';
import { ExecutionService } from './execution.service';

@Controller()
export class ExecutionsHandlers {
  constructor(private readonly executions: ExecutionService) {}

  @MessagePattern(Subjects.intentExecute)
  execute(@Payload() request: SolverExecuteRequestDto): ReplyOf<'intentExecute'> {
    return this.executions.execute(request);
  }

  @MessagePattern(Subjects.intentSolverStatus)
  status(@Payload() request: IntentStatusRequestDto): ReplyOf<'intentSolverStatus'> {
    return this.executions.status(request.intentTxHash);
  }
}
