import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { EVM_ADDRESS_PATTERN } from '@swap/contracts';
import { IsIn, IsOptional, Matches, MaxLength } from 'class-validator';

const COUNT = /^\d{1,9}$/;
const BLOCK = /^\d{1,16}$/;
/** UNIX seconds up to the year 5138. */
const SECONDS = /^(0|[1-9]\d{0,10})$/;
/** ISO 8601 (what the public client sends) or milliseconds since 1970. */
const DATE = /^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?|\d{1,15})$/;

/** Deeper reads narrow by date or block, or use volume's cursor. */
export const MAX_OFFSET = 100_000;

function Optional(pattern: RegExp, message: string, doc: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(IsOptional(), ApiPropertyOptional(doc), Matches(pattern, { message }));
}

const HubAddress = (field: string, description: string) =>
  Optional(EVM_ADDRESS_PATTERN, `${field} must be a 20-byte hex address`, { description });
const Block = (field: string, doc: ApiPropertyOptions) =>
  Optional(BLOCK, `${field} must be a non-negative integer of at most 16 digits`, doc);
const Seconds = (field: string, doc: ApiPropertyOptions) =>
  Optional(SECONDS, `${field} must be UNIX seconds: a non-negative integer of at most 11 digits`, doc);
const DateText = (field: string, doc: ApiPropertyOptions) =>
  Optional(DATE, `${field} must be an ISO 8601 date or milliseconds since 1970`, doc);
const Limit = (description: string) => Optional(COUNT, 'limit must be an integer from 1 to 100', { example: '50', description });

function Flag(field: string, description: string): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    ApiPropertyOptional({ enum: ['true', 'false'], description }),
    IsIn(['true', 'false'], { message: `${field} must be true or false` }),
  );
}

/** Resolved, and refused when unknown, by the reads. */
function Chain(doc: ApiPropertyOptions): PropertyDecorator {
  return applyDecorators(IsOptional(), ApiPropertyOptional(doc), MaxLength(64));
}

export class PageQuery {
  @Optional(COUNT, `offset must be an integer from 0 to ${MAX_OFFSET}`, {
    example: '0',
    description: `Rows to skip, 0–${MAX_OFFSET} (default 0)`,
  })
  offset?: string;

  @Limit('Rows per page, 1–100 (default 50)')
  limit?: string;
}

export class UserIntentsQuery extends PageQuery {
  @DateText('startDate', { example: '2026-11-01T00:00:00.000Z', description: 'Created at or after (ISO 8601, or milliseconds)' })
  startDate?: string;

  @DateText('endDate', { example: '2026-11-30T00:00:00.000Z', description: 'Created at or before (ISO 8601, or milliseconds)' })
  endDate?: string;

  @Block('fromBlock', { example: '1000', description: 'Created in this hub block or later' })
  fromBlock?: string;

  @Block('toBlock', { example: '2000', description: 'Created in this hub block or earlier' })
  toBlock?: string;
}

export class OrderbookQuery extends PageQuery {
  @Chain({ example: '0xa4b1.arbitrum', description: 'Source chain: a chain key, a plain name, or a relay chain id' })
  srcChain?: string;

  @Chain({ example: '0x92.sonic', description: 'Destination chain: a chain key, a plain name, or a relay chain id' })
  dstChain?: string;

  @HubAddress('inputToken', 'Hub input token')
  inputToken?: string;

  @HubAddress('outputToken', 'Hub output token')
  outputToken?: string;

  @HubAddress('creator', 'The hub wallet that created the intent')
  creator?: string;

  @Seconds('deadlineBefore', { example: '1764000000', description: 'Deadline at or before (UNIX seconds)' })
  deadlineBefore?: string;

  @Seconds('deadlineAfter', { example: '1763000000', description: 'Deadline at or after (UNIX seconds)' })
  deadlineAfter?: string;

  @Flag('excludeZeroDeadline', 'Leave out intents without a deadline (0)')
  excludeZeroDeadline?: string;
}

export class VolumeQuery {
  @HubAddress('inputToken', 'Hub input token')
  inputToken?: string;

  @HubAddress('outputToken', 'Hub output token')
  outputToken?: string;

  @Chain({ example: '146', description: 'The chain of the fill (the hub): a chain key, a plain name, or a chain id' })
  chainId?: string;

  @HubAddress('solver', 'The fill transaction’s sender')
  solver?: string;

  @Block('fromBlock', { description: 'From this hub block (inclusive). One kind of range only: blocks, since/until or fromTs/toTs' })
  fromBlock?: string;

  @Block('toBlock', { description: 'To this hub block (inclusive)' })
  toBlock?: string;

  @DateText('since', { example: '2026-11-01T00:00:00Z', description: 'From this time (ISO 8601, inclusive)' })
  since?: string;

  @DateText('until', { example: '2026-12-01T00:00:00Z', description: 'Until this time (ISO 8601, exclusive)' })
  until?: string;

  @Seconds('fromTs', { example: '1763000000', description: 'From this time (UNIX seconds, inclusive)' })
  fromTs?: string;

  @Seconds('toTs', { example: '1764000000', description: 'To this time (UNIX seconds, exclusive)' })
  toTs?: string;

  @IsOptional()
  @ApiPropertyOptional({ enum: ['asc', 'desc'], description: 'By block, default desc (newest first)' })
  @IsIn(['asc', 'desc'], { message: 'sort must be asc or desc' })
  sort?: 'asc' | 'desc';

  @Limit('Records per page, 1–100 (default 50)')
  limit?: string;

  @Flag('includeData', 'Add each record’s intent as data')
  includeData?: string;

  @Optional(/^[A-Za-z0-9_-]{1,64}$/, 'cursor must be the nextCursor of a previous page', { description: 'nextCursor of the previous page' })
  cursor?: string;
}

export class PartnersQuery {
  @Chain({ example: '0xa4b1.arbitrum', description: 'Only intents from this source chain: a chain key, a plain name, or a relay chain id' })
  chainId?: string;
}
