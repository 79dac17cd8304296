import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { READINESS_THRESHOLD, Subjects, type ReplyOf } from '@swap/contracts';
import { KeyRegistryService } from '../registry/key-registry.service';
import { UsageStore } from './usage-store';
import { UsageBatchMessage, UsageOrgMessage, UsageReportMessage } from './usage.messages';

/** Batches from swap-gateway; series and readiness for partner-portal-api (which checks membership first). */
@Controller()
export class UsageHandlers {
  constructor(
    private readonly usage: UsageStore,
    private readonly registry: KeyRegistryService,
  ) {}

  @MessagePattern(Subjects.usageRecord)
  record(@Payload() m: UsageBatchMessage): ReplyOf<'usageRecord'> {
    return this.usage.record(m);
  }

  @MessagePattern(Subjects.usageReport)
  report(@Payload() m: UsageReportMessage): ReplyOf<'usageReport'> {
    return this.usage.report(m);
  }

  @MessagePattern(Subjects.usageReadiness)
  async readiness(@Payload() m: UsageOrgMessage): ReplyOf<'usageReadiness'> {
    const modes = (await this.registry.listRouteModes()).map(({ route, mode }) => ({ route, mode }));
    return { ...(await this.usage.orgReadiness(m.orgId)), threshold: READINESS_THRESHOLD, modes };
  }
}
