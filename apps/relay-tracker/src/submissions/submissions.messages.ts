import { SubmissionStatusQueryDto, SubmitTxRequestDto } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** With the organisation of the API key it came with (for claims). */
export class SubmitTxMessage extends SubmitTxRequestDto {
  @IsOptional()
  @MaxLength(64)
  @IsString()
  orgId?: string;
}

/** `after`: the stream's Last-Event-ID. */
export class SubmissionEventsMessage extends SubmissionStatusQueryDto {
  @IsOptional()
  @Type(() => Number)
  @Min(0)
  @Max(1_000_000)
  @IsInt()
  after?: number;
}
