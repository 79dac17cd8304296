import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AppError,
  IDENTIFIED_OUTCOMES,
  KEYED_ROUTES,
  READINESS_THRESHOLD,
  Subjects,
  USAGE_INTERVAL_MS,
  USAGE_MAX_POINTS,
  USAGE_RETENTION_DAYS,
  type ReplyOf,
  type UsageRow,
} from '@swap/contracts';
import { KeyRegistryService } from '../registry/key-registry.service';
import { DAY_MS, UsageStore } from './usage-store';
import { UsageBatchMessage, UsageOrgMessage, UsageReportMessage } from './usage.messages';

/** Batches from swap-gateway; series and readiness for partner-portal-api (which checks membership first). */
@Controller()
export class UsageHandlers {
  constructor(
    private readonly usage: UsageStore,
    private readonly registry: KeyRegistryService,
  ) {}

  /** Rows that cannot be true are left out and counted in the answer; the rest are kept (docs/architecture/usage.md#what-key-registry-believes). */
  @MessagePattern(Subjects.usageRecord)
  async record(@Payload() m: UsageBatchMessage): ReplyOf<'usageRecord'> {
    const now = Date.now();
    const rows = m.rows.filter((row) => plausible(row, now));
    return { ...(await this.usage.record({ batchId: m.batchId, rows })), rejected: m.rows.length - rows.length };
  }

  @MessagePattern(Subjects.usageReport)
  async report(@Payload() m: UsageReportMessage): ReplyOf<'usageReport'> {
    const step = USAGE_INTERVAL_MS[m.interval];
    const [from, to] = [Date.parse(m.from), Date.parse(m.to)];
    if (from % step || to % step || to <= from || (to - from) / step > USAGE_MAX_POINTS)
      throw AppError.validation([
        {
          field: 'from',
          rule: 'range',
          message: `from and to must be whole ${m.interval}s, to after from, at most ${USAGE_MAX_POINTS} apart`,
        },
      ]);
    return this.usage.report(m);
  }

  @MessagePattern(Subjects.usageReadiness)
  async readiness(@Payload() m: UsageOrgMessage): ReplyOf<'usageReadiness'> {
    const modes = (await this.registry.listRouteModes()).map(({ route, mode }) => ({ route, mode }));
    return { ...(await this.usage.orgReadiness(m.orgId)), threshold: READINESS_THRESHOLD, modes };
  }
}

/** A keyed route; ids exactly when a key identified the request; errors within requests; a minute in retention, not ahead of now. */
function plausible(row: UsageRow, now: number): boolean {
  const minute = Date.parse(row.minute);
  const identified = IDENTIFIED_OUTCOMES.includes(row.outcome);
  return (
    Object.hasOwn(KEYED_ROUTES, row.route) &&
    identified === (row.orgId !== '') &&
    identified === (row.keyId !== '') &&
    row.clientErrors + row.serverErrors <= row.requests &&
    minute >= now - USAGE_RETENTION_DAYS * DAY_MS &&
    minute <= now + 120_000
  );
}
