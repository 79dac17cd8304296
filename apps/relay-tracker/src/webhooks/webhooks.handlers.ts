import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, WEBHOOK_EVENT_TYPES, type RpcReply, type WebhookEventType } from '@swap/contracts';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { WebhooksService } from './webhooks.service';

/** partner-portal-api asks for a member of the organisation it names. */
class OrgMessage {
  @MaxLength(64)
  @IsString()
  orgId!: string;

  @IsOptional()
  @MaxLength(200)
  @IsString()
  actor?: string;
}

class CreateMessage extends OrgMessage {
  @MaxLength(2_048)
  @MinLength(1)
  @IsString()
  url!: string;

  @IsOptional()
  @MaxLength(200)
  @IsString()
  description?: string;

  @IsOptional()
  @ArrayMaxSize(2)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: `events must be among ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  @IsArray()
  events?: WebhookEventType[];
}

class EndpointMessage extends OrgMessage {
  @IsUUID()
  id!: string;
}

class DeliveriesMessage extends EndpointMessage {
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;
}

class ReplayMessage extends EndpointMessage {
  @IsUUID()
  deliveryId!: string;
}

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
