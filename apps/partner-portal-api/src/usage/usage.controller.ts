import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiTag, Subjects, USAGE_INTERVAL_MS, USAGE_MINUTES_KEPT_MS, type UsageInterval } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { uuidParam as uuid } from '@swap/service-kit';
import { ApiSession, CsrfGuard, CurrentUser, SessionGuard } from '../auth/portal.guards';
import type { PortalUser } from '../auth/sessions.service';
import { OrgsService } from '../orgs/orgs.service';
import { fieldError } from '../portal-fields';
import { callService } from '../service-calls';
import { OrgReadinessReport, OrgUsageQuery, OrgUsageReport } from './usage.dto';

/** The default span and the longest one asked at once, in intervals. */
const SPAN: Record<UsageInterval, { default: number; max: number }> = {
  minute: { default: 60, max: 24 * 60 },
  hour: { default: 24, max: 31 * 24 },
  day: { default: 30, max: 90 },
};

/** The requests the organisation's keys made, and whether its routes may be enforced (any member); counted by swap-gateway, kept by key-registry. */
@ApiTags(ApiTag.portal)
@UseGuards(CsrfGuard, SessionGuard)
@ApiSession()
@Controller('portal/api/orgs/:orgId/usage')
export class UsageController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly messaging: MessagingClient,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Requests with the organisation’s keys per interval, route and key-check outcome, with totals and the error share (any member)',
  })
  @ApiOkResponse({ type: OrgUsageReport })
  async usage(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Query() query: OrgUsageQuery) {
    const interval = query.interval ?? 'hour';
    const step = USAGE_INTERVAL_MS[interval];
    const now = Date.now();
    const to = Math.ceil((query.to ? Date.parse(query.to) : now) / step) * step;
    const from = Math.floor((query.from ? Date.parse(query.from) : to - SPAN[interval].default * step) / step) * step;
    if (from >= to) throw fieldError('to', 'order', 'to must be after from');
    if (interval === 'minute' && from < now - USAGE_MINUTES_KEPT_MS)
      throw fieldError('from', 'range', 'interval=minute reads the last 2 days only (older usage is kept per hour)');
    if ((to - from) / step > SPAN[interval].max)
      throw fieldError('from', 'range', `from and to may be at most ${SPAN[interval].max} ${interval}s apart with interval=${interval}`);
    await this.orgs.member(user, orgId);
    const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
    return callService('key service', () =>
      this.messaging.request(Subjects.usageReport, { orgId, ...range, interval, ...(query.keyId ? { keyId: query.keyId } : {}) }),
    );
  }

  @Get('readiness')
  @ApiOperation({
    summary:
      'Per route over the last 7 days: the share of the organisation’s requests that had the route’s scope and were not refused as suspended; ready to enforce at 99.9% (any member)',
  })
  @ApiOkResponse({ type: OrgReadinessReport })
  async readiness(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string) {
    await this.orgs.member(user, orgId);
    return callService('key service', () => this.messaging.request(Subjects.usageReadiness, { orgId }));
  }
}
