import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type RpcReply } from '@swap/contracts';
import { WebhooksService } from './webhooks.service';
import { CreateMessage, DeliveriesMessage, EndpointMessage, OrgMessage, ReplayMessage } from './webhooks.messages';

/** partner-portal-api checks the member's role first. */
@Controller()
export class WebhooksHandlers {
  constructor(private readonly webhooks: WebhooksService) {}

  @MessagePattern(Subjects.webhookCreate)
  create(@Payload() m: CreateMessage): Promise<RpcReply<typeof Subjects.webhookCreate>> {
    return this.webhooks.create(m.orgId, m, m.actor ?? 'unknown');
  }

  @MessagePattern(Subjects.webhookList)
  list(@Payload() m: OrgMessage): Promise<RpcReply<typeof Subjects.webhookList>> {
    return this.webhooks.list(m.orgId);
  }

  @MessagePattern(Subjects.webhookDelete)
  remove(@Payload() m: EndpointMessage): Promise<RpcReply<typeof Subjects.webhookDelete>> {
    return this.webhooks.remove(m.orgId, m.id, m.actor ?? 'unknown');
  }

  @MessagePattern(Subjects.webhookRotate)
  rotate(@Payload() m: EndpointMessage): Promise<RpcReply<typeof Subjects.webhookRotate>> {
    return this.webhooks.rotate(m.orgId, m.id, m.actor ?? 'unknown');
  }

  @MessagePattern(Subjects.webhookTest)
  test(@Payload() m: EndpointMessage): Promise<RpcReply<typeof Subjects.webhookTest>> {
    return this.webhooks.test(m.orgId, m.id);
  }

  @MessagePattern(Subjects.webhookDeliveries)
  deliveries(@Payload() m: DeliveriesMessage): Promise<RpcReply<typeof Subjects.webhookDeliveries>> {
    return this.webhooks.deliveries(m.orgId, m.id, m.cursor);
  }

  @MessagePattern(Subjects.webhookReplay)
  replay(@Payload() m: ReplayMessage): Promise<RpcReply<typeof Subjects.webhookReplay>> {
    return this.webhooks.replay(m.orgId, m.id, m.deliveryId);
  }
}
