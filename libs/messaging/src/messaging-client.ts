import {
  AppError,
  ErrorCode,
  MessageHeaders as HeaderNames,
  type EventContract,
  type EventSubject,
  type RpcReply,
  type RpcRequest,
  type RpcSubject,
} from '@swap/contracts';
import { RequestContext, type Logger } from '@swap/observability';
import { randomUUID } from 'node:crypto';
import { BusNoRespondersError, BusTimeoutError, type Bus, type MessageHeaders } from './bus';
import { decodeReply, okReplyData } from './envelope';

export interface MessagingClientOptions {
  timeoutMs: number;
  logger?: Logger;
}

/**
 * Typed request/reply and events over the bus. Subjects and payload types come from
 * libs/contracts; the current request id rides along in the headers. A request never
 * hangs: no responder becomes a 503, no reply in time a 504, and an error raised by the
 * handler arrives as the same AppError (status, code, message) it was on the other side.
 */
export class MessagingClient {
  constructor(
    readonly bus: Bus,
    private readonly options: MessagingClientOptions,
  ) {}

  async request<S extends RpcSubject>(subject: S, payload: RpcRequest<S>, options?: { timeoutMs?: number }): Promise<RpcReply<S>> {
    const reply = decodeReply<RpcReply<S>>(await this.send(subject, payload, options));
    if (!reply.ok) throw AppError.fromBody(reply.error);
    return reply.data;
  }

  /**
   * The reply's result as JSON text, not parsed: for an HTTP route that returns it as it
   * is, the parse here and the serialisation there would only cost time.
   */
  async requestJson<S extends RpcSubject>(subject: S, payload: RpcRequest<S>, options?: { timeoutMs?: number }): Promise<string> {
    const data = await this.send(subject, payload, options);
    const ok = okReplyData(data);
    if (ok !== undefined) return ok;
    const reply = decodeReply<RpcReply<S>>(data);
    if (!reply.ok) throw AppError.fromBody(reply.error);
    return JSON.stringify(reply.data);
  }

  emit<S extends EventSubject>(subject: S, payload: EventContract[S]): void {
    this.bus.publish(subject, JSON.stringify(payload), this.headers());
  }

  /** The raw reply text of a request; bus failures become AppErrors. */
  private async send(subject: RpcSubject, payload: unknown, options?: { timeoutMs?: number }): Promise<string> {
    try {
      const reply = await this.bus.request(subject, JSON.stringify(payload), {
        timeoutMs: options?.timeoutMs ?? this.options.timeoutMs,
        headers: this.headers(),
      });
      return reply.data;
    } catch (error) {
      throw this.translate(subject, error);
    }
  }

  private headers(): MessageHeaders {
    const context = RequestContext.current();
    const headers: MessageHeaders = { [HeaderNames.requestId]: context?.requestId ?? randomUUID() };
    if (context?.orgId) headers[HeaderNames.orgId] = context.orgId;
    return headers;
  }

  /** Internal subjects and timings go to the log; the caller gets a stable code and a plain message. */
  private translate(subject: string, error: unknown): AppError {
    this.options.logger?.warn({ subject, err: error }, 'bus request failed');
    if (error instanceof BusTimeoutError) {
      return new AppError(504, ErrorCode.DependencyTimeout, 'An internal service did not answer in time; retry later');
    }
    if (error instanceof BusNoRespondersError) {
      return new AppError(503, ErrorCode.DependencyUnavailable, 'An internal service is unavailable; retry later');
    }
    return new AppError(503, ErrorCode.DependencyUnavailable, 'The internal message bus is unavailable; retry later');
  }
}
