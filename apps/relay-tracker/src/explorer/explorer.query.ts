import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches, MaxLength } from 'class-validator';

/** A non-negative integer in a query string. */
const COUNT = /^(0|[1-9]\d{0,8})$/;
const BLOCK = /^(0|[1-9]\d{0,15})$/;
/** UNIX seconds up to the year 5138. */
const SECONDS = /^(0|[1-9]\d{0,10})$/;
/** ISO 8601 (what the public client sends) or milliseconds since 1970. */
const DATE = /^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?|\d{1,15})$/;
const ADDRESS_TEXT = /^0x[0-9a-fA-F]{40}$/;

/** The largest offset a page may start at (deeper reads: narrow by date or block, or use volume's cursor). */
export const MAX_OFFSET = 100_000;

export class PageQuery {
  @IsOptional()
  @ApiPropertyOptional({ example: '0', description: `Rows to skip, 0–${MAX_OFFSET} (default 0)` })
  @Matches(COUNT, { message: 'offset must be a non-negative integer' })
  offset?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '50', description: 'Rows per page, 1–100 (default 50)' })
  @Matches(COUNT, { message: 'limit must be an integer from 1 to 100' })
  limit?: string;
}

export class UserIntentsQuery extends PageQuery {
  @IsOptional()
  @ApiPropertyOptional({ example: '2026-11-01T00:00:00.000Z', description: 'Created at or after (ISO 8601, or milliseconds)' })
  @Matches(DATE, { message: 'startDate must be an ISO 8601 date or milliseconds since 1970' })
  startDate?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '2026-11-30T00:00:00.000Z', description: 'Created at or before (ISO 8601, or milliseconds)' })
  @Matches(DATE, { message: 'endDate must be an ISO 8601 date or milliseconds since 1970' })
  endDate?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '1000', description: 'Created in this hub block or later' })
  @Matches(BLOCK, { message: 'fromBlock must be a non-negative integer' })
  fromBlock?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '2000', description: 'Created in this hub block or earlier' })
  @Matches(BLOCK, { message: 'toBlock must be a non-negative integer' })
  toBlock?: string;
}

export class OrderbookQuery extends PageQuery {
  @IsOptional()
  @ApiPropertyOptional({ example: '0xa4b1.arbitrum', description: 'Source chain: a chain key, a plain name, or a relay chain id' })
  @MaxLength(64)
  srcChain?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '0x92.sonic', description: 'Destination chain: a chain key, a plain name, or a relay chain id' })
  @MaxLength(64)
  dstChain?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'Hub input token' })
  @Matches(ADDRESS_TEXT, { message: 'inputToken must be a 20-byte hex address' })
  inputToken?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'Hub output token' })
  @Matches(ADDRESS_TEXT, { message: 'outputToken must be a 20-byte hex address' })
  outputToken?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'The hub wallet that created the intent' })
  @Matches(ADDRESS_TEXT, { message: 'creator must be a 20-byte hex address' })
  creator?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '1764000000', description: 'Deadline at or before (UNIX seconds)' })
  @Matches(SECONDS, { message: 'deadlineBefore must be a non-negative integer (UNIX seconds)' })
  deadlineBefore?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '1763000000', description: 'Deadline at or after (UNIX seconds)' })
  @Matches(SECONDS, { message: 'deadlineAfter must be a non-negative integer (UNIX seconds)' })
  deadlineAfter?: string;

  @IsOptional()
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Leave out intents without a deadline (0)' })
  @IsIn(['true', 'false'], { message: 'excludeZeroDeadline must be true or false' })
  excludeZeroDeadline?: string;
}

export class VolumeQuery {
  @IsOptional()
  @ApiPropertyOptional({ description: 'Hub input token' })
  @Matches(ADDRESS_TEXT, { message: 'inputToken must be a 20-byte hex address' })
  inputToken?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'Hub output token' })
  @Matches(ADDRESS_TEXT, { message: 'outputToken must be a 20-byte hex address' })
  outputToken?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '146', description: 'The chain of the fill (the hub): a chain key, a plain name, or a chain id' })
  @MaxLength(64)
  chainId?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'The fill transaction’s sender' })
  @Matches(ADDRESS_TEXT, { message: 'solver must be a 20-byte hex address' })
  solver?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'From this hub block (inclusive). One kind of range only: blocks, since/until or fromTs/toTs' })
  @Matches(BLOCK, { message: 'fromBlock must be a non-negative integer' })
  fromBlock?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'To this hub block (inclusive)' })
  @Matches(BLOCK, { message: 'toBlock must be a non-negative integer' })
  toBlock?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '2026-11-01T00:00:00Z', description: 'From this time (ISO 8601, inclusive)' })
  @Matches(DATE, { message: 'since must be an ISO 8601 date or milliseconds since 1970' })
  since?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '2026-12-01T00:00:00Z', description: 'Until this time (ISO 8601, exclusive)' })
  @Matches(DATE, { message: 'until must be an ISO 8601 date or milliseconds since 1970' })
  until?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '1763000000', description: 'From this time (UNIX seconds, inclusive)' })
  @Matches(SECONDS, { message: 'fromTs must be a non-negative integer (UNIX seconds)' })
  fromTs?: string;

  @IsOptional()
  @ApiPropertyOptional({ example: '1764000000', description: 'To this time (UNIX seconds, exclusive)' })
  @Matches(SECONDS, { message: 'toTs must be a non-negative integer (UNIX seconds)' })
  toTs?: string;

  @IsOptional()
  @ApiPropertyOptional({ enum: ['asc', 'desc'], description: 'By block, default desc (newest first)' })
  @IsIn(['asc', 'desc'], { message: 'sort must be asc or desc' })
  sort?: 'asc' | 'desc';

  @IsOptional()
  @ApiPropertyOptional({ example: '50', description: 'Records per page, 1–100 (default 50)' })
  @Matches(COUNT, { message: 'limit must be an integer from 1 to 100' })
  limit?: string;

  @IsOptional()
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Add each record’s intent as data' })
  @IsIn(['true', 'false'], { message: 'includeData must be true or false' })
  includeData?: string;

  @IsOptional()
  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'cursor must be the nextCursor of a previous page' })
  cursor?: string;
}

export class PartnersQuery {
  @IsOptional()
  @ApiPropertyOptional({
    example: '0xa4b1.arbitrum',
    description: 'Only intents from this source chain: a chain key, a plain name, or a relay chain id',
  })
  @MaxLength(64)
  chainId?: string;
}
