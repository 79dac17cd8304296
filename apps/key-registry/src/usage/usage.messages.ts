import { USAGE_BATCH_ROWS, UsageIntervals, UsageOutcomes, type UsageInterval, type UsageOutcome } from '@swap/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

const COUNT = 2_147_483_647;
const ORG_OR_NONE = /^$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class UsageRowMessage {
  @IsISO8601({ strict: true }, { message: 'minute must be an ISO 8601 time' })
  minute!: string;

  @Matches(ORG_OR_NONE, { message: 'orgId must be a UUID or empty' })
  orgId!: string;

  @Matches(ORG_OR_NONE, { message: 'keyId must be a UUID or empty' })
  keyId!: string;

  @MaxLength(256)
  @Matches(/^[A-Z]+ \/\S*$/, { message: 'route must be METHOD /path' })
  @IsString()
  route!: string;

  @IsIn(UsageOutcomes)
  outcome!: UsageOutcome;

  @Max(COUNT)
  @Min(1)
  @IsInt()
  requests!: number;

  @Max(COUNT)
  @Min(0)
  @IsInt()
  clientErrors!: number;

  @Max(COUNT)
  @Min(0)
  @IsInt()
  serverErrors!: number;
}

export class UsageBatchMessage {
  @IsUUID('all', { message: 'batchId must be a UUID' })
  batchId!: string;

  @ValidateNested({ each: true })
  @Type(() => UsageRowMessage)
  @ArrayMaxSize(USAGE_BATCH_ROWS)
  @IsArray()
  rows!: UsageRowMessage[];
}

export class UsageOrgMessage {
  @IsUUID('all', { message: 'orgId must be a UUID' })
  orgId!: string;
}

export class UsageReportMessage extends UsageOrgMessage {
  @IsISO8601({ strict: true })
  from!: string;

  @IsISO8601({ strict: true })
  to!: string;

  @IsIn(UsageIntervals)
  interval!: UsageInterval;

  @IsOptional()
  @IsUUID('all', { message: 'keyId must be a UUID' })
  keyId?: string;
}
