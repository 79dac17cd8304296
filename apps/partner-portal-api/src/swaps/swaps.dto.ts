import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SUBMISSION_STATUSES, SubmissionStatusDataDto, type OrgFeeRow, type SubmissionStatus } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** 64 hex digits (EVM, ICON, Stellar, Injective) or base58 (Solana signatures, Sui digests). */
export const TX_HASH = /^((0x)?[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{43,88})$/;
export const CHAIN_KEY = /^[A-Za-z0-9._-]{1,64}$/;
export const TX_HASH_RULE = 'txHash must be a transaction hash: 64 hex digits (0x optional), or base58 (a Solana signature, a Sui digest)';

export class OrgSwapsQuery {
  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;

  @ApiPropertyOptional({ enum: SUBMISSION_STATUSES })
  @IsOptional()
  @IsIn(SUBMISSION_STATUSES, { message: `status must be one of ${SUBMISSION_STATUSES.join(', ')}` })
  status?: SubmissionStatus;

  @ApiPropertyOptional({ description: 'The source transaction of one swap' })
  @IsOptional()
  @Matches(TX_HASH, { message: TX_HASH_RULE })
  txHash?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @Min(1, { message: 'limit must be 1 to 100' })
  @Max(100, { message: 'limit must be 1 to 100' })
  @IsInt({ message: 'limit must be 1 to 100' })
  limit?: number;
}

const DAY = /^\d{4}-\d\d-\d\d$/;
export const DAY_MS = 86_400_000;
/** NaN for a day no calendar has (2026-02-30): Date would roll it into March. */
export function dayStart(day: string): number {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== day ? NaN : start;
}

export class OrgFeesQuery {
  @ApiPropertyOptional({ example: '2026-11-01', description: 'First day (UTC), included; default 30 days before to' })
  @IsOptional()
  @Matches(DAY, { message: 'from must be a day: YYYY-MM-DD' })
  from?: string;

  @ApiPropertyOptional({ example: '2026-12-01', description: 'The day (UTC) after the last one; default tomorrow' })
  @IsOptional()
  @Matches(DAY, { message: 'to must be a day: YYYY-MM-DD' })
  to?: string;

  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json' })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'format must be json or csv' })
  format?: 'json' | 'csv';
}

export class OrgFeeRowDto implements OrgFeeRow {
  @ApiProperty({ example: '2026-11-26' })
  day!: string;

  @ApiProperty({ description: 'The hub token the fee was taken in (the intent’s input token)' })
  token!: string;

  @ApiProperty({ description: 'The partner-fee receiver named in the intents' })
  receiver!: string;

  @ApiProperty({ example: '2500', description: 'In the token’s smallest unit' })
  amount!: string;

  @ApiProperty()
  swaps!: number;
}

export class OrgFeesReport {
  @ApiProperty()
  from!: string;

  @ApiProperty()
  to!: string;

  @ApiProperty({ type: [OrgFeeRowDto] })
  fees!: OrgFeeRowDto[];
}

export class OrgSwapsPage {
  @ApiProperty({ type: [SubmissionStatusDataDto] })
  swaps!: SubmissionStatusDataDto[];

  @ApiPropertyOptional({ description: 'Pass as cursor for the next page; absent on the last' })
  nextCursor?: string;
}
