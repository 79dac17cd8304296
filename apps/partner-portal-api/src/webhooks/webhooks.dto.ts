import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NoControlCharacters, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@swap/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class WebhookBody {
  @ApiProperty({
    example: 'https://hooks.acme.example/swaps',
    description: 'https:// (http:// only where the deployment allows it), no credentials',
  })
  @MaxLength(2_048)
  @MinLength(1)
  @IsString()
  url!: string;

  @ApiPropertyOptional({ example: 'production order service' })
  @IsOptional()
  @NoControlCharacters('description')
  @MaxLength(200)
  @IsString()
  description?: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    example: ['submission.status'],
    description: 'submission.status (default): every transition; submission.terminal: solved and failed only',
  })
  @IsOptional()
  @ArrayMinSize(1, { message: 'events must name at least one event type (leave it out for submission.status)' })
  @ArrayMaxSize(2)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: `events must be among ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  @IsArray()
  events?: WebhookEventType[];
}

export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'https://hooks.acme.example/swaps' })
  url!: string;

  @ApiPropertyOptional()
  description?: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  events!: WebhookEventType[];

  @ApiProperty({ example: '2026-11-25T10:00:00.000Z' })
  createdAt!: string;

  @ApiPropertyOptional({ description: 'After a rotation: the previous secret still signs, beside the new one, until then' })
  previousSecretValidUntil?: string;

  @ApiPropertyOptional({ description: 'Every delivery has failed since then' })
  failingSince?: string;

  @ApiPropertyOptional({ description: 'Disabled after failing for 3 days: nothing is sent to it' })
  disabledAt?: string;

  @ApiPropertyOptional({ description: 'Why it was disabled' })
  disabledReason?: string;
}

export class CreatedWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty({ example: 'whsec_…', description: 'The signing secret (whsec_ + base64 of 32 bytes), shown in this answer only' })
  secret!: string;
}

export class WebhookAttemptDto {
  @ApiProperty({ format: 'uuid', description: 'The delivery (its webhook-id), kept in the log' })
  deliveryId!: string;

  @ApiProperty({ description: 'A 2xx came within 10 s' })
  ok!: boolean;

  @ApiPropertyOptional()
  statusCode?: number;

  @ApiPropertyOptional({ description: 'Why it failed: the answer, no answer, a refused address…' })
  error?: string;

  @ApiProperty()
  latencyMs!: number;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'Its webhook-id, the same on every attempt' })
  id!: string;

  @ApiProperty({ example: 'submission.status' })
  type!: string;

  @ApiPropertyOptional()
  txHash?: string;

  @ApiPropertyOptional()
  srcChainKey?: string;

  @ApiPropertyOptional({ description: 'The transition: its place in the swap’s history' })
  seq?: number;

  @ApiProperty()
  createdAt!: string;

  @ApiProperty()
  attempts!: number;

  @ApiPropertyOptional()
  lastAttemptAt?: string;

  @ApiPropertyOptional()
  lastStatusCode?: number;

  @ApiPropertyOptional()
  lastError?: string;

  @ApiPropertyOptional()
  lastLatencyMs?: number;

  @ApiPropertyOptional({ description: 'When it is tried again' })
  nextAttemptAt?: string;

  @ApiProperty()
  delivered!: boolean;

  @ApiPropertyOptional()
  deliveredAt?: string;

  @ApiPropertyOptional({ description: 'Retried for 24 h without success: given up (it can be replayed)' })
  gaveUpAt?: string;
}

export class WebhookDeliveriesDto {
  @ApiProperty({ type: [WebhookDeliveryDto] })
  deliveries!: WebhookDeliveryDto[];

  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next (older) page' })
  nextCursor?: string;
}

export class DeliveriesQuery {
  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @MaxLength(200)
  @IsString()
  cursor?: string;
}
