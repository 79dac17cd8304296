import { SubmissionStatusQueryDto, SubmitTxRequestDto } from '@swap/contracts';
import { Type } from 'class-transformer';
import { SUBMISSION_STATUSES, type LeverageOperation, type SubmissionStatus } from '@swap/contracts';
import { OrgIdMessage } from '../org-message';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** With the organisation of the API key it came with (for claims). */
export class SubmitTxMessage extends SubmitTxRequestDto {
  @IsOptional()
  @MaxLength(64)
  @IsString()
  orgId?: string;

  @IsOptional()
  @IsIn(['leverage_deposit', 'leverage_withdraw'])
  operation?: LeverageOperation;
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

/** partner-portal-api checks the caller is a member of `orgId` first. */
export class OrgSwapMessage extends SubmissionStatusQueryDto {
  @MaxLength(64)
  @IsString()
  orgId!: string;
}

export class OrgSwapsMessage extends OrgIdMessage {
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;

  @IsOptional()
  @IsIn(SUBMISSION_STATUSES)
  status?: SubmissionStatus;

  @IsOptional()
  @MaxLength(128)
  @IsString()
  txHash?: string;

  @IsOptional()
  @Type(() => Number)
  @Min(1)
  @Max(100)
  @IsInt()
  limit?: number;
}

export class OrgFeesMessage extends OrgIdMessage {
  @IsISO8601({ strict: true })
  from!: string;

  @IsISO8601({ strict: true })
  to!: string;
}
