import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type ReplyOf } from '@swap/contracts';
import { WebhooksService } from './webhooks.service';
import { CreateMessage, DeliveriesMessage, EndpointMessage, OrgMessage, ReplayMessage } from './webhooks.messages';

/** partner-portal-api checks the member's role first. */
@Controller()
export class WebhooksHandlers {
  constructor(private readonly webhooks: WebhooksService) {}

  @MessagePattern(Subjects.webhookCreate)
  create(@Payload() m: CreateMessage): ReplyOf<'webhookCreate'> {
    return this.webhooks.create(m.orgId, m, m.actor ?? 'unknown');
  }

  @MessagePattern(Subjects.webhookList)
  list(@Payload() m: OrgMessage): ReplyOf<'webhookList'> {
    return this.webhooks.list(m.orgId);
  }

  @MessagePattern(Subjects.webhookDelete)
  remove(@Payload() m: EndpointMessage): ReplyOf<'webhookDelete'> {
    return this.webhooks.remove(m.orgId, m.id, m.actor ?? 'unknown');
  }

  @MessagePattern(Subjects.webhookRotate)
  rotate(@Payload() m: EndpointMessage): ReplyOf<'webhookRotate'> {
    return this.webhooks.rotate(m.orgId, m.id, m.actor ?? 'unknown');
  }

  @MessagePattern(Subjects.webhookTest)
  test(@Payload() m: EndpointMessage): ReplyOf<'webhookTest'> {
    return this.webhooks.test(m.orgId, m.id);
  }

  @MessagePattern(Subjects.webhookDeliveries)
  deliveries(@Payload() m: DeliveriesMessage): ReplyOf<'webhookDeliveries'> {
    return this.webhooks.deliveries(m.orgId, m.id, m.cursor);
  }

  @MessagePattern(Subjects.webhookReplay)
  replay(@Payload() m: ReplayMessage): ReplyOf<'webhookReplay'> {
    return this.webhooks.replay(m.orgId, m.id, m.deliveryId);
  }
}
