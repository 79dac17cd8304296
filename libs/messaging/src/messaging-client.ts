import {
  AppError,
  ErrorCode,
  MessageHeaders as HeaderNames,
  SignedRequests,
  type RequestSigningPurpose,
  type EventContract,
  type EventSubject,
  type RpcReply,
  type RpcRequest,
  type RpcSubject,
} from '@swap/contracts';
import { injectTraceContext, inSpan, RequestContext, SpanKind, tracingEnabled, type Logger } from '@swap/observability';
import { randomUUID } from 'node:crypto';
import { BusNoRespondersError, BusTimeoutError, type Bus, type MessageHeaders } from './bus';
import { decodeReply, okReplyData } from './envelope';
import type { RequestSigner } from './request-signatures';
import { SigningKeys } from './signing-key-config';

export interface MessagingClientOptions {
  timeoutMs: number;
  logger?: Logger;
  /** Signs SignedRequests with the key of their purpose (`<prefix>_SIGNING_KEY`); without it they are refused here, before sending. */
  signers?: Partial<Record<RequestSigningPurpose, RequestSigner>>;
}

/** Typed requests and events; see docs/architecture/runtime.md#the-bus-server-and-the-client. */
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

  /** Unparsed, for a route that returns it as it is. */
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

  private send(subject: RpcSubject, payload: unknown, options?: { timeoutMs?: number }): Promise<string> {
    if (!tracingEnabled()) return this.sendNow(subject, payload, options);
    const attributes = { 'messaging.destination.name': subject };
    return inSpan(`${subject} request`, { kind: SpanKind.CLIENT, attributes, requireParent: true }, () =>
      this.sendNow(subject, payload, options),
    );
  }

  private async sendNow(subject: RpcSubject, payload: unknown, options?: { timeoutMs?: number }): Promise<string> {
    const body = JSON.stringify(payload);
    const headers = this.headers();
    const purpose = SignedRequests.get(subject);
    if (purpose) {
      const signer = this.options.signers?.[purpose];
      if (!signer) throw new Error(`${subject} must be signed, and this service holds no ${SigningKeys[purpose].prefix}_SIGNING_KEY`);
      Object.assign(headers, signer.headers(subject, body, headers));
    }
    try {
      const reply = await this.bus.request(subject, body, { timeoutMs: options?.timeoutMs ?? this.options.timeoutMs, headers });
      return reply.data;
    } catch (error) {
      throw this.translate(subject, error);
    }
  }

  private headers(): MessageHeaders {
    const context = RequestContext.current();
    const headers: MessageHeaders = { [HeaderNames.requestId]: context?.requestId ?? randomUUID() };
    if (context?.orgId) headers[HeaderNames.orgId] = context.orgId;
    injectTraceContext(headers);
    return headers;
  }

  /** Subjects and timings go to the log, not to the caller. */
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
