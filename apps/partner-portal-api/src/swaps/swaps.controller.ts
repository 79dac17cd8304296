import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ApiTag, AppError, Subjects, SUBMISSION_STATUSES, SubmissionStatusDataDto, type SubmissionStatus } from '@swap/contracts';
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

export class OrgSwapsPage {
  @ApiProperty({ type: [SubmissionStatusDataDto] })
  swaps!: SubmissionStatusDataDto[];

  @ApiPropertyOptional({ description: 'Pass as cursor for the next page; absent on the last' })
  nextCursor?: string;
}

/** The swaps submitted with the organisation's keys (any member), kept by relay-tracker. */
@ApiTags(ApiTag.portal)
@UseGuards(CsrfGuard, SessionGuard)
@ApiSession()
@Controller('portal/api/orgs/:orgId/swaps')
export class SwapsController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly messaging: MessagingClient,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Swaps submitted with the organisation’s API keys, newest first (any member)' })
  @ApiOkResponse({ type: OrgSwapsPage })
  async list(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Query() query: OrgSwapsQuery) {
    await this.orgs.member(user, orgId);
    const { cursor, status, txHash, limit } = query;
    return callService('swap service', () => this.messaging.request(Subjects.orgSwapList, { orgId, ...{ cursor, status, txHash, limit } }));
  }

  @Get(':srcChainKey/:txHash')
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
}

function fieldError(field: string, message: string): AppError {
  return AppError.validation([{ field, rule: 'format', message }]);
}
