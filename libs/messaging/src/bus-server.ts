import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { ErrorCode, MessageHeaders as HeaderNames } from '@swap/contracts';
import { RequestContext, resolveRequestId, type Logger, type ServiceMetrics } from '@swap/observability';
import { lastValueFrom } from 'rxjs';
import type { Bus, BusDelivery, BusSubscription, MessageHeaders } from './bus';
import { encodeErrorReply, encodeReply } from './envelope';

/** The context a bus handler can take with `@Ctx()`: the subject and the message headers. */
export class BusContext extends BaseRpcContext<[string, MessageHeaders]> {
  getSubject(): string {
    return this.args[0];
  }
  getHeaders(): MessageHeaders {
    return this.args[1];
  }
}

export interface BusServerOptions {
  /** Queue group for request handlers: replicas of one service share requests. */
  queue: string;
  metrics?: ServiceMetrics;
  logger?: Logger;
  /** How long close() waits for handlers still running. */
  drainTimeoutMs?: number;
}

/**
 * A NestJS microservice transport over a Bus (NATS or in-process). `@MessagePattern`
 * handlers subscribe in the service's queue group, so each request reaches one replica;
 * `@EventPattern` handlers subscribe without one, so every replica sees every event.
 * The request id travels in the `x-request-id` header and is restored around the handler.
 */
export class BusServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: BusSubscription[] = [];
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
      const queue = handler.isEventHandler ? undefined : this.options.queue;
      this.subscriptions.push(
        this.bus.subscribe(
          pattern,
          (message) => void this.dispatch(pattern, handler, message).catch((error: unknown) => this.options.logger?.error({ subject: pattern, err: error }, 'message dispatch failed')),
          { queue },
        ),
      );
    }
    callback();
  }

  /** Stops taking messages, then waits (bounded) for the ones being handled. */
  async close(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((sub) => sub.drain().catch(() => sub.unsubscribe())));
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.drainTimeoutMs ?? 10_000);
      this.idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  on(): void {
    // Bus status is reported through readiness probes, not through server events.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  /** A reply can fail when the connection is draining or gone; the caller then times out. */
  private reply(message: BusDelivery, data: string): void {
    try {
      message.respond?.(data);
    } catch (error) {
      this.options.logger?.warn({ subject: message.subject, err: error }, 'reply could not be sent');
    }
  }

  private async dispatch(pattern: string, handler: MessageHandler, message: BusDelivery): Promise<void> {
    const requestId = resolveRequestId(message.headers[HeaderNames.requestId]);
    const started = performance.now();
    this.inFlight++;
    let outcome: 'ok' | 'error' = 'ok';
    try {
      await RequestContext.run({ requestId }, async () => {
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
          this.reply(message, encodeReply(value));
        } catch (error) {
          outcome = 'error';
          if (message.respond) this.reply(message, encodeErrorReply(error));
          else this.options.logger?.error({ subject: pattern, err: error }, 'event handler failed');
        }
        this.options.logger?.debug({ subject: message.subject, outcome, ms: Math.round((performance.now() - started) * 10) / 10 }, 'message handled');
      });
    } finally {
      this.options.metrics?.observeMessage(pattern, outcome, (performance.now() - started) / 1000);
      this.inFlight--;
      if (this.inFlight === 0) this.idle?.();
    }
  }
}
