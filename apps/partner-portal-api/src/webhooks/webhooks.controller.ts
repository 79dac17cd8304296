import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiTag, Subjects, type RpcRequest, type RpcSubject, type RpcReply } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import { uuidParam as uuid } from '@swap/service-kit';
import { ApiSession, CsrfGuard, CurrentUser, SessionGuard } from '../auth/portal.guards';
import type { PortalUser } from '../auth/sessions.service';
import { actorOf, MANAGERS, OrgsService } from '../orgs/orgs.service';
import {
  CreatedWebhookEndpointDto,
  DeliveriesQuery,
  WebhookAttemptDto,
  WebhookBody,
  WebhookDeliveriesDto,
  WebhookDeliveryDto,
  WebhookEndpointDto,
} from './webhooks.dto';
import { callService } from '../service-calls';

/** The portal checks the member's role and asks relay-tracker, which keeps the endpoints: docs/architecture/webhooks.md. */
@ApiTags(ApiTag.portal)
@UseGuards(CsrfGuard, SessionGuard)
@ApiSession()
@Controller('portal/api/orgs/:orgId/webhooks')
export class WebhooksController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly messaging: MessagingClient,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Adds an endpoint (owner, admin; at most 5): its secret is in this answer only' })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointDto })
  async create(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Body() body: WebhookBody) {
    await this.orgs.member(user, orgId, MANAGERS, 'add webhook endpoints');
    return this.ask(Subjects.webhookCreate, {
      orgId,
      url: body.url.trim(),
      description: body.description,
      events: body.events,
      actor: actorOf(user),
    });
  }

  @Get()
  @ApiOperation({ summary: 'The organisation’s endpoints (any member), never their secrets' })
  @ApiOkResponse({ type: [WebhookEndpointDto] })
  async list(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string) {
    await this.orgs.member(user, orgId);
    return this.ask(Subjects.webhookList, { orgId });
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Deletes an endpoint and its delivery log (owner, admin); 404 when gone' })
  async remove(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Param('id', uuid) id: string): Promise<void> {
    await this.orgs.member(user, orgId, MANAGERS, 'delete webhook endpoints');
    await this.ask(Subjects.webhookDelete, { orgId, id, actor: actorOf(user) });
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new secret, in this answer only (owner, admin); the old one keeps signing beside it for 24 h' })
  @ApiOkResponse({ type: CreatedWebhookEndpointDto })
  async rotate(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Param('id', uuid) id: string) {
    await this.orgs.member(user, orgId, MANAGERS, 'rotate webhook secrets');
    return this.ask(Subjects.webhookRotate, { orgId, id, actor: actorOf(user) });
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sends a webhook.test event now and answers what came of it (owner, admin)' })
  @ApiOkResponse({ type: WebhookAttemptDto })
  async test(@CurrentUser() user: PortalUser, @Param('orgId', uuid) orgId: string, @Param('id', uuid) id: string) {
    await this.orgs.member(user, orgId, MANAGERS, 'test webhook endpoints');
    return this.ask(Subjects.webhookTest, { orgId, id, actor: actorOf(user) });
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'The last 7 days of deliveries, newest first, 50 a page (any member)' })
  @ApiOkResponse({ type: WebhookDeliveriesDto })
  async deliveries(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Param('id', uuid) id: string,
    @Query() query: DeliveriesQuery,
  ) {
    await this.orgs.member(user, orgId);
    return this.ask(Subjects.webhookDeliveries, { orgId, id, ...(query.cursor ? { cursor: query.cursor } : {}) });
  }

  @Post(':id/deliveries/:deliveryId/replay')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sends a delivery again, with the same webhook-id (owner, admin)' })
  @ApiOkResponse({ type: WebhookDeliveryDto })
  async replay(
    @CurrentUser() user: PortalUser,
    @Param('orgId', uuid) orgId: string,
    @Param('id', uuid) id: string,
    @Param('deliveryId', uuid) deliveryId: string,
  ) {
    await this.orgs.member(user, orgId, MANAGERS, 'replay webhook deliveries');
    return this.ask(Subjects.webhookReplay, { orgId, id, deliveryId, actor: actorOf(user) });
  }

  /** No answer is a 503 the portal may retry. */
  private ask<S extends RpcSubject>(subject: S, request: RpcRequest<S>): Promise<RpcReply<S>> {
    return callService('webhook service', () => this.messaging.request(subject, request));
  }
}
