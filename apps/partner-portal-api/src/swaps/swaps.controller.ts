import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiTag, Subjects, SubmissionStatusDataDto } from '@swap/contracts';
import type { FastifyReply } from 'fastify';
import { MessagingClient } from '@swap/messaging';
import { uuidParam as uuid } from '@swap/service-kit';
import { ApiSession, CsrfGuard, CurrentUser, SessionGuard } from '../auth/portal.guards';
import type { PortalUser } from '../auth/sessions.service';
import { OrgsService } from '../orgs/orgs.service';
import { fieldError } from '../portal-fields';
import { callService } from '../service-calls';
import { CHAIN_KEY, DAY_MS, dayStart, OrgFeesQuery, OrgFeesReport, OrgSwapsPage, OrgSwapsQuery, TX_HASH, TX_HASH_RULE } from './swaps.dto';

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
      throw fieldError('srcChainKey', 'format', 'srcChainKey must be a chain key (at most 64 letters, digits or ._-)');
    if (!TX_HASH.test(txHash)) throw fieldError('txHash', 'format', TX_HASH_RULE);
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
    const to = query.to ? dayStart(query.to) : (Math.floor(Date.now() / DAY_MS) + 1) * DAY_MS;
    const from = query.from ? dayStart(query.from) : to - 30 * DAY_MS;
    if (Number.isNaN(from)) throw fieldError('from', 'format', 'from must be a day: YYYY-MM-DD');
    if (Number.isNaN(to)) throw fieldError('to', 'format', 'to must be a day: YYYY-MM-DD');
    if (from >= to) throw fieldError('to', 'order', 'to must be after from');
    if (to - from > 366 * DAY_MS) throw fieldError('from', 'range', 'from and to may be at most 366 days apart');
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
