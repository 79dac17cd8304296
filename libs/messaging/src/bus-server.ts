import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { ErrorCode, MessageHeaders as HeaderNames, SignedRequests, type RequestSigningPurpose } from '@swap/contracts';
import { inSpan, RequestContext, resolveRequestId, SpanKind, tracingEnabled, type Logger, type ServiceMetrics } from '@swap/observability';
import { lastValueFrom } from 'rxjs';
import type { Bus, BusDelivery, BusSubscription, MessageHeaders } from './bus';
import { encodeErrorReply, encodeReply } from './envelope';
import { PauseReasons, type IntakeMember } from './intake';
import type { RequestSignatureCheck } from './request-signatures';
import { SigningKeys } from './signing-key-config';

export class BusContext extends BaseRpcContext<[string, MessageHeaders]> {
  getSubject(): string {
    return this.args[0];
  }
  getHeaders(): MessageHeaders {
    return this.args[1];
  }
}

export interface BusServerOptions {
  queue: string;
  metrics?: ServiceMetrics;
  logger?: Logger;
  drainTimeoutMs?: number;
  /** Checks SignedRequests by purpose (`<prefix>_PUBLIC_KEY`); without its check, a handler of one refuses every request. */
  requestSignatures?: Partial<Record<RequestSigningPurpose, RequestSignatureCheck>>;
}

interface Listener {
  pattern: string;
  handler: MessageHandler;
  queue?: string;
  subscription?: BusSubscription;
}

/** The NestJS transport over a Bus; see docs/architecture/runtime.md#the-bus-server-and-the-client. */
export class BusServer extends Server implements CustomTransportStrategy, IntakeMember {
  private readonly listeners: Listener[] = [];
  private readonly leaving = new Set<Promise<void>>();
  private readonly pauseReasons = new PauseReasons();
  private closed = false;
  private inFlight = 0;
  private idle: (() => void) | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly options: BusServerOptions,
  ) {
    super();
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      const listener: Listener = { pattern, handler, queue: handler.isEventHandler ? undefined : this.options.queue };
      this.listeners.push(listener);
      if (!(listener.queue && this.paused)) this.subscribe(listener);
    }
    callback();
  }

  get paused(): boolean {
    return this.pauseReasons.paused;
  }

  /** Events keep arriving: they update caches every replica needs. */
  pause(reason = 'paused'): void {
    if (!this.pauseReasons.add(reason)) return;
    for (const listener of this.listeners) {
      if (!listener.queue || !listener.subscription) continue;
      const subscription = listener.subscription;
      listener.subscription = undefined;
      const left = this.leave(subscription).finally(() => this.leaving.delete(left));
      this.leaving.add(left);
    }
  }

  resume(reason = 'paused'): void {
    if (!this.pauseReasons.remove(reason) || this.closed) return;
    for (const listener of this.listeners) if (listener.queue && !listener.subscription) this.subscribe(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    const subscriptions = this.listeners.map((l) => l.subscription).filter((s): s is BusSubscription => s !== undefined);
    for (const listener of this.listeners) listener.subscription = undefined;
    await Promise.all([...subscriptions.map((sub) => this.leave(sub)), ...this.leaving]);
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.drainTimeoutMs ?? 10_000);
      this.idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private subscribe(listener: Listener): void {
    const { pattern, handler } = listener;
    listener.subscription = this.bus.subscribe(
      pattern,
      (message) =>
        void this.dispatch(pattern, handler, message).catch((error: unknown) =>
          this.options.logger?.error({ subject: pattern, err: error }, 'message dispatch failed'),
        ),
      { queue: listener.queue },
    );
  }

  private leave(subscription: BusSubscription): Promise<void> {
    return subscription.drain().catch(() => subscription.unsubscribe());
  }

  on(): void {
    // Bus status is reported through readiness probes.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  private reply(message: BusDelivery, data: string): void {
    try {
      message.respond?.(data);
    } catch (error) {
      this.options.logger?.warn({ subject: message.subject, err: error }, 'reply could not be sent');
    }
  }

  private async dispatch(pattern: string, handler: MessageHandler, message: BusDelivery): Promise<void> {
    // Without an inbox: a reply some responder was tricked into publishing here, or a request
    // whose answer would go onto a subject of the sender's choosing. Neither is run.
    if (!handler.isEventHandler && !message.respond) {
      this.options.metrics?.refuseMessage(pattern);
      this.options.logger?.warn(
        { subject: message.subject, replyTo: message.refusedReply ?? null },
        'request without an inbox to answer to: not handled',
      );
      return;
    }
    if (!tracingEnabled()) return this.handle(pattern, handler, message);
    await inSpan(
      `${pattern} process`,
      {
        kind: handler.isEventHandler ? SpanKind.CONSUMER : SpanKind.SERVER,
        parentHeaders: message.headers,
        requireParent: true,
        attributes: { 'messaging.destination.name': message.subject },
      },
      () => this.handle(pattern, handler, message),
    );
  }

  private async handle(pattern: string, handler: MessageHandler, message: BusDelivery): Promise<void> {
    const requestId = resolveRequestId(message.headers[HeaderNames.requestId]);
    const orgId = orgIdOf(message.headers[HeaderNames.orgId]);
    const started = performance.now();
    this.inFlight++;
    let outcome: 'ok' | 'error' = 'ok';
    try {
      await RequestContext.run(orgId ? { requestId, orgId } : { requestId }, async () => {
        const purpose = SignedRequests.get(pattern);
        if (purpose) {
          try {
            const check = this.options.requestSignatures?.[purpose];
            if (!check) throw new Error(`this service was given no ${SigningKeys[purpose].prefix}_PUBLIC_KEY to check it with`);
            await check.verify(pattern, message.headers, message.data);
          } catch (error) {
            outcome = 'error';
            this.options.logger?.warn({ subject: message.subject, reason: (error as Error).message }, 'signed request refused');
            this.reply(message, encodeErrorReply(error));
            return;
          }
        }
        let payload: unknown;
        try {
          payload = message.data.length > 0 ? JSON.parse(message.data) : undefined;
        } catch {
          outcome = 'error';
          this.reply(message, encodeErrorReply({ statusCode: 400, code: ErrorCode.BadRequest, message: 'Message body is not valid JSON' }));
          return;
        }
        const context = new BusContext([message.subject, message.headers]);
        try {
          const result = this.transformToObservable(await handler(payload, context));
          const value = await lastValueFrom(result, { defaultValue: undefined });
          const answered = performance.now();
          this.reply(message, encodeReply(value));
          this.options.metrics?.observeReply(pattern, (performance.now() - answered) / 1000);
        } catch (error) {
          outcome = 'error';
          if (message.respond) this.reply(message, encodeErrorReply(error));
          else this.options.logger?.error({ subject: pattern, err: error }, 'event handler failed');
        }
        this.options.logger?.debug(
          { subject: message.subject, outcome, ms: Math.round((performance.now() - started) * 10) / 10 },
          'message handled',
        );
      });
    } finally {
      this.options.metrics?.observeMessage(pattern, outcome, (performance.now() - started) / 1000);
      this.inFlight--;
      if (this.inFlight === 0) this.idle?.();
    }
  }
}

function orgIdOf(header: string | undefined): string | undefined {
  return header !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(header) ? header : undefined;
}
