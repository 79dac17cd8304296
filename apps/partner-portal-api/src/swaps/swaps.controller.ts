import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import {
  ApiTag,
  AppError,
  Subjects,
  SUBMISSION_STATUSES,
  SubmissionStatusDataDto,
  type OrgFeeRow,
  type SubmissionStatus,
} from '@swap/contracts';
import type { FastifyReply } from 'fastify';
import { MessagingClient } from '@swap/messaging';
import { uuidParam as uuid } from '@swap/service-kit';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ApiSession, CsrfGuard, CurrentUser, SessionGuard } from '../auth/portal.guards';
import type { PortalUser } from '../auth/sessions.service';
import { OrgsService } from '../orgs/orgs.service';
import { callService } from '../service-calls';

/** 64 hex digits (EVM, ICON, Stellar, Injective) or base58 (Solana signatures, Sui digests). */
const TX_HASH = /^((0x)?[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{43,88})$/;
const CHAIN_KEY = /^[A-Za-z0-9._-]{1,64}$/;
const TX_HASH_RULE = 'txHash must be a transaction hash: 64 hex digits (0x optional), or base58 (a Solana signature, a Sui digest)';

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
const DAY_MS = 86_400_000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

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

/** The swaps submitted with the organisation's keys and the partner fees they carried (any member), kept by relay-tracker. */
@ApiTags(ApiTag.portal)
@UseGuards(CsrfGuard, SessionGuard)
@ApiSession()
@Controller('portal/api/orgs/:orgId')
export class SwapsController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly messaging: MessagingClient,
  ) {}

  @Get('swaps')
  @ApiOperation({ summary: 'Swaps submitted with the organisation’s API keys, newest first (any member)' })
  @ApiOkResponse({ type: OrgSwapsPage })
  async list(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Query() query: OrgSwapsQuery) {
    await this.orgs.member(user, orgId);
    const { cursor, status, txHash, limit } = query;
    return callService('swap service', () => this.messaging.request(Subjects.orgSwapList, { orgId, cursor, status, txHash, limit }));
  }

  @Get('swaps/:srcChainKey/:txHash')
  @ApiOperation({
    summary: 'One swap’s timeline: every status with its time and duration, its transactions, the user message (any member)',
  })
  @ApiOkResponse({ type: SubmissionStatusDataDto })
  async get(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Param('srcChainKey') srcChainKey: string,
    @Param('txHash') txHash: string,
  ) {
    if (!CHAIN_KEY.test(srcChainKey))
      throw fieldError('srcChainKey', 'srcChainKey must be a chain key (at most 64 letters, digits or ._-)');
    if (!TX_HASH.test(txHash)) throw fieldError('txHash', TX_HASH_RULE);
    await this.orgs.member(user, orgId);
    return callService('swap service', () => this.messaging.request(Subjects.orgSwapGet, { orgId, srcChainKey, txHash }));
  }

  @Get('fees')
  @ApiOperation({
    summary: 'Partner fees of the organisation’s solved swaps per UTC day, token and receiver (any member); format=csv for a spreadsheet',
  })
  @ApiOkResponse({ type: OrgFeesReport })
  @ApiProduces('application/json', 'text/csv')
  async fees(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Query() query: OrgFeesQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const to = query.to ? dayStart(query.to) : dayStart(new Date(Date.now() + DAY_MS).toISOString().slice(0, 10));
    const from = query.from ? dayStart(query.from) : to - 30 * DAY_MS;
    if (Number.isNaN(from)) throw fieldError('from', 'from must be a day: YYYY-MM-DD');
    if (Number.isNaN(to)) throw fieldError('to', 'to must be a day: YYYY-MM-DD');
    if (from >= to) throw fieldError('to', 'to must be after from');
    if (to - from > 366 * DAY_MS) throw fieldError('from', 'from and to may be at most 366 days apart');
    await this.orgs.member(user, orgId);
    const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
    const { fees } = await callService('swap service', () => this.messaging.request(Subjects.orgSwapFees, { orgId, ...range }));
    if (query.format !== 'csv') return { ...range, fees };
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="fees-${range.from.slice(0, 10)}-${range.to.slice(0, 10)}.csv"`);
    return (
      ['day,token,receiver,amount,swaps', ...fees.map((f) => [f.day, f.token, f.receiver, f.amount, f.swaps].join(','))].join('\n') + '\n'
    );
  }
}

function fieldError(field: string, message: string): AppError {
  return AppError.validation([{ field, rule: 'format', message }]);
}
