import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@swap/contracts';
import { OrgIdMessage } from '../org-message';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';

export class OrgMessage extends OrgIdMessage {
  @IsOptional()
  @MaxLength(200)
  @IsString()
  actor?: string;
}

export class CreateMessage extends OrgMessage {
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

export class EndpointMessage extends OrgMessage {
  @IsUUID()
  id!: string;
}

export class DeliveriesMessage extends EndpointMessage {
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;
}

export class ReplayMessage extends EndpointMessage {
  @IsUUID()
  deliveryId!: string;
}
