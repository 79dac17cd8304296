import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  type CreatedWebhookEndpoint,
  type WebhookAttemptView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventType,
} from '@swap/contracts';
import type { Logger } from '@swap/observability';
import { DATABASE_POOL, LOGGER } from '@swap/service-kit';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { storedStreamEvent } from '../submissions/status-answer';
import { AddressGuard } from './webhook-address-guard';
import { newWebhookSecret, SecretBox } from './webhook-secrets';
import { WebhookSender, type AttemptOutcome } from './webhook-sender';
import { WebhookStore, type DeliveryRow, type EndpointRow } from './webhook-store';

export const MAX_ENDPOINTS = 5;
export const ROTATION_OVERLAP_MS = 86_400_000;
/** Older finished deliveries are deleted by WebhookDispatcher. */
export const LOG_DAYS = 7;
const LOG_PAGE = 50;

/** For tests: the resolver the address guard asks, and every connection a delivery opens. */
export const WEBHOOK_NETWORK = Symbol('WEBHOOK_NETWORK');
export interface WebhookNetwork {
  resolver?: (host: string) => Promise<string[]>;
  onConnect?: (host: string, address: string) => void;
}

/** An organisation's endpoints and each delivery's attempt; see docs/architecture/webhooks.md#from-a-transition-to-a-delivery. */
@Injectable()
export class WebhooksService implements OnModuleDestroy {
  readonly store: WebhookStore;
  private readonly box?: SecretBox;
  private readonly sender: WebhookSender;
  private readonly delays: number[];

  constructor(
    @Inject(DATABASE_POOL) pool: pg.Pool,
    private readonly config: RelayTrackerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(WEBHOOK_NETWORK) network: WebhookNetwork,
  ) {
    this.store = new WebhookStore(pool);
    if (config.WEBHOOK_ENCRYPTION_KEY) this.box = new SecretBox(config.WEBHOOK_ENCRYPTION_KEY);
    this.sender = new WebhookSender(new AddressGuard(config.WEBHOOK_ALLOWED_CIDRS, network.resolver), {
      allowHttp: config.WEBHOOK_ALLOW_HTTP === 'true',
      onConnect: network.onConnect,
    });
    this.delays = config.WEBHOOK_RETRY_DELAYS_MS.split(',').map(Number);
  }

  get enabled(): boolean {
    return Boolean(this.box);
  }

  async onModuleDestroy(): Promise<void> {
    await this.sender.close();
  }

  async create(
    orgId: string,
    input: { url: string; description?: string; events?: WebhookEventType[] },
    actor: string,
  ): Promise<CreatedWebhookEndpoint> {
    const box = this.sealer();
    const problem = this.sender.urlProblem(input.url);
    if (problem) throw AppError.validation([{ field: 'url', rule: 'webhookUrl', message: problem }]);
    const secret = newWebhookSecret();
    const events = [...new Set(input.events?.length ? input.events : ['submission.status' as const])];
    const row = await this.store.addEndpoint(
      { id: randomUUID(), orgId, url: input.url, description: input.description, events, secret: box.seal(secret), createdBy: actor },
      MAX_ENDPOINTS,
    );
    if (!row)
      throw new AppError(409, ErrorCode.Conflict, `An organisation has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
    this.logger.info({ orgId, endpointId: row.id, actor }, 'webhook endpoint added');
    return { ...endpointView(row), secret };
  }

  async list(orgId: string): Promise<WebhookEndpointView[]> {
    return (await this.store.endpoints(orgId)).map(endpointView);
  }

  async remove(orgId: string, id: string, actor: string): Promise<{ deleted: string }> {
    if (!(await this.store.deleteEndpoint(orgId, id))) throw AppError.notFound(`No webhook endpoint ${id} in this organisation`);
    this.logger.info({ orgId, endpointId: id, actor }, 'webhook endpoint deleted');
    return { deleted: id };
  }

  async rotate(orgId: string, id: string, actor: string): Promise<CreatedWebhookEndpoint> {
    const box = this.sealer();
    const secret = newWebhookSecret();
    if (!(await this.store.rotate(orgId, id, box.seal(secret), new Date(Date.now() + ROTATION_OVERLAP_MS))))
      throw AppError.notFound(`No webhook endpoint ${id} in this organisation`);
    this.logger.info({ orgId, endpointId: id, actor }, 'webhook secret rotated');
    return { ...endpointView((await this.store.endpoint(orgId, id))!), secret };
  }

  async test(orgId: string, id: string): Promise<WebhookAttemptView> {
    this.sealer();
    const endpoint = await this.store.endpoint(orgId, id);
    if (!endpoint) throw AppError.notFound(`No webhook endpoint ${id} in this organisation`);
    const deliveryId = randomUUID();
    await this.store.addTestDelivery(deliveryId, id);
    const outcome = await this.attempt(deliveryId);
    return {
      deliveryId,
      ok: outcome.ok,
      ...(outcome.statusCode ? { statusCode: outcome.statusCode } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      latencyMs: outcome.latencyMs,
    };
  }

  async deliveries(orgId: string, id: string, cursor?: string): Promise<{ deliveries: WebhookDeliveryView[]; nextCursor?: string }> {
    if (!(await this.store.endpoint(orgId, id))) throw AppError.notFound(`No webhook endpoint ${id} in this organisation`);
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await this.store.deliveries(id, LOG_DAYS, LOG_PAGE + 1, after);
    const page = rows.slice(0, LOG_PAGE);
    const last = page.at(-1);
    return {
      deliveries: page.map(deliveryView),
      ...(rows.length > LOG_PAGE && last
        ? { nextCursor: Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString('base64url') }
        : {}),
    };
  }

  async replay(orgId: string, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
    if (!(await this.store.endpoint(orgId, id)) || !(await this.store.replay(id, deliveryId)))
      throw AppError.notFound(`No delivery ${deliveryId} of webhook endpoint ${id} in this organisation`);
    const [replayed] = await this.store.deliveries(id, LOG_DAYS, 1, undefined, deliveryId);
    return deliveryView(replayed);
  }

  /** `waits`: an earlier event of the swap to the same endpoint is still owed; it comes back once that one is done. */
  async attempt(deliveryId: string): Promise<AttemptOutcome & { waits?: boolean }> {
    const found = await this.store.delivery(deliveryId);
    if (!found) return { ok: true, latencyMs: 0 };
    const { delivery, endpoint } = found;
    if (delivery.deliveredAt || delivery.gaveUpAt || endpoint.disabledAt) return { ok: true, latencyMs: 0 };
    if (delivery.waitsForEarlier) return { ok: false, waits: true, latencyMs: 0 };
    const secrets = this.secretsOf(endpoint);
    if (!secrets) {
      // A deployment problem (WEBHOOK_ENCRYPTION_KEY changed), not the endpoint's: retried.
      const unreadable = { ok: false, error: 'the endpoint secret cannot be opened with this WEBHOOK_ENCRYPTION_KEY', latencyMs: 0 };
      this.logger.error(
        { deliveryId, endpointId: endpoint.id },
        'webhook secret unreadable: is WEBHOOK_ENCRYPTION_KEY the one it was sealed with?',
      );
      await this.store.recordAttempt(delivery.id, unreadable, this.nextAttempt(delivery));
      return unreadable;
    }
    const outcome = await this.sender.send({ id: delivery.id, url: endpoint.url, secrets, body: messageBody(delivery) });
    const next = outcome.ok ? null : this.nextAttempt(delivery);
    await this.store.recordAttempt(delivery.id, outcome, next);
    await this.store.endpointAttempted(endpoint.id, outcome.ok, outcome.error, new Date(Date.now() - this.config.WEBHOOK_DISABLE_AFTER_MS));
    if (!outcome.ok) this.logger.info({ deliveryId, endpointId: endpoint.id, error: outcome.error, next }, 'webhook delivery failed');
    return outcome;
  }

  /** Null once WEBHOOK_RETRY_FOR_MS after its event has passed. */
  private nextAttempt(delivery: DeliveryRow): Date | null {
    if (delivery.type === 'webhook.test') return null;
    const wait = this.delays[Math.min(delivery.attempts, this.delays.length - 1)];
    const at = Date.now() + wait * (0.9 + Math.random() * 0.2);
    return at > delivery.createdAt.getTime() + this.config.WEBHOOK_RETRY_FOR_MS ? null : new Date(at);
  }

  /** Undefined when they cannot be opened. */
  private secretsOf(endpoint: EndpointRow): string[] | undefined {
    const box = this.sealer();
    try {
      const secrets = [box.open(endpoint.secret)];
      if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date())
        secrets.push(box.open(endpoint.previousSecret));
      return secrets;
    } catch {
      return undefined;
    }
  }

  private sealer(): SecretBox {
    if (!this.box)
      throw new AppError(503, ErrorCode.NotConfigured, 'Webhooks are not configured on this deployment (WEBHOOK_ENCRYPTION_KEY)');
    return this.box;
  }
}

/** The same on every attempt: `data` is the status answer as it was at the transition. */
export function messageBody(delivery: DeliveryRow): string {
  if (!delivery.event || delivery.seq === null) {
    return JSON.stringify({
      type: delivery.type,
      timestamp: delivery.createdAt.toISOString(),
      data: { message: 'A test event from the partner portal' },
    });
  }
  const { data } = storedStreamEvent(delivery.event, delivery.seq, delivery.event.state);
  const at = data.history[delivery.seq - 1]?.at ?? delivery.createdAt.toISOString();
  return JSON.stringify({ type: delivery.type, timestamp: at, data });
}

function endpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    ...(row.description ? { description: row.description } : {}),
    events: row.events as WebhookEventType[],
    createdAt: row.createdAt.toISOString(),
    ...(row.previousSecretUntil && row.previousSecretUntil > new Date()
      ? { previousSecretValidUntil: row.previousSecretUntil.toISOString() }
      : {}),
    ...(row.failingSince ? { failingSince: row.failingSince.toISOString() } : {}),
    ...(row.disabledAt ? { disabledAt: row.disabledAt.toISOString(), disabledReason: row.disabledReason ?? undefined } : {}),
  };
}

function deliveryView(row: DeliveryRow & { txHash?: string | null; srcChainKey?: string | null }): WebhookDeliveryView {
  const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
  const view: WebhookDeliveryView = {
    id: row.id,
    type: row.type,
    ...(row.txHash ? { txHash: row.txHash, srcChainKey: row.srcChainKey ?? undefined } : {}),
    ...(row.seq !== null ? { seq: row.seq } : {}),
    createdAt: row.createdAt.toISOString(),
    attempts: row.attempts,
    delivered: Boolean(row.deliveredAt),
  };
  for (const [k, v] of Object.entries({
    lastAttemptAt: iso(row.lastAttemptAt),
    lastStatusCode: row.lastStatusCode ?? undefined,
    lastError: row.lastError ?? undefined,
    lastLatencyMs: row.lastLatencyMs ?? undefined,
    nextAttemptAt: iso(row.nextAttemptAt),
    deliveredAt: iso(row.deliveredAt),
    gaveUpAt: iso(row.gaveUpAt),
  }))
    if (v !== undefined) (view as unknown as Record<string, unknown>)[k] = v;
  return view;
}

function decodeCursor(cursor: string): { at: Date; seq: number; id: string } {
  const [at, seq, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(at);
  if (!id || !/^\d{1,9}$/.test(seq ?? '') || Number.isNaN(date.getTime()))
    throw AppError.validation([{ field: 'cursor', rule: 'cursor', message: 'cursor must be a nextCursor this route answered' }]);
  return { at: date, seq: Number(seq), id };
}
