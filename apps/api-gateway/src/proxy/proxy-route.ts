import proxy from '@fastify/http-proxy';
import type { IncomingMessage } from 'node:http';
import { ErrorCode, type ErrorBody } from '@swap/contracts';
import { injectTraceContext, tracingEnabled, type Logger } from '@swap/observability';
import { describeError, loggedPath } from '@swap/service-kit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiGatewayConfig } from '../api-gateway.config';
import { PayloadTooLargeError } from './body-limit';
import { compileTrust, forwardedChain } from './forwarded';
import { errorBodyFor } from './routes';
import type { UpstreamPool } from './upstream-pool';

const PROXY_REFUSED_PATH_BY_REPLY_FROM = 'source/request contain invalid characters';

/** Errors of a proxied scope in the platform's shape (or the prefix's own). */
export function installProxyErrors(scope: FastifyInstance, logger: Logger): void {
  scope.setErrorHandler((error, request, reply) => {
    const body = describeError(error, logger);
    body.requestId = String(request.id);
    if ((error as Error).message === PROXY_REFUSED_PATH_BY_REPLY_FROM)
      body.message = 'The path must not hold .. segments (encoded or not) nor name another host';
    // The refused body may still be arriving: close the connection rather than read it all.
    if (body.statusCode === 413 || !request.raw.complete) void reply.header('connection', 'close');
    if (body.statusCode === 429) void reply.header('retry-after', '1');
    void reply.code(body.statusCode).send(errorBodyFor(request.url, body));
  });
}

export async function registerRoute(
  scope: FastifyInstance,
  route: { prefix: string; httpMethods?: string[] },
  config: ApiGatewayConfig,
  logger: Logger,
  pool: UpstreamPool,
): Promise<void> {
  const trust = compileTrust(config.TRUSTED_PROXIES);
  await scope.register(proxy, {
    // Paths and the Host header are built from the first; the pool sends each request to its replica.
    upstream: pool.origins[0],
    prefix: route.prefix,
    rewritePrefix: route.prefix,
    // Every method Fastify parses goes on: the service behind names the ones it answers (405 with its own Allow).
    httpMethods: route.httpMethods ?? scope.supportedMethods,
    proxyPayloads: false,
    disableRequestLogging: true,
    undici: pool,
    replyOptions: {
      // Never replay here: an upstream 503 is the caller's; the one retry (nothing sent) is the pool's.
      retryDelay: () => null,
      // Node answered `Expect: 100-continue` (curl, bodies over 1 KB); undici cannot announce it.
      rewriteRequestHeaders: (request, { expect: _expect, ...headers }) => ({
        // Traced, the caller's context is this request's parent: the service behind continues the gateway's.
        ...(tracingEnabled() ? withGatewayTraceContext(headers) : headers),
        'x-request-id': String(request.id),
        'x-forwarded-for': forwardedChain(request.raw as IncomingMessage, trust),
        'x-forwarded-proto': request.protocol,
      }),
      // Hop-by-hop: the gateway's connection to the service, not the client's.
      rewriteHeaders: ({ connection: _connection, 'keep-alive': _keepAlive, ...headers }) => headers,
      onError: (reply, { error }) => sendUpstreamError(reply as unknown as FastifyReply, error, logger),
    },
  });
}

/** On the gateway's own copy of the headers: its span's `traceparent` replaces the caller's, whose `tracestate` stops here. */
export function withGatewayTraceContext(headers: Record<string, unknown>): Record<string, unknown> {
  if (headers.traceparent !== undefined || headers.tracestate !== undefined) {
    const { traceparent: _parent, tracestate: _state, ...rest } = headers;
    headers = rest;
  }
  injectTraceContext(headers as Record<string, string>);
  return headers;
}

function sendUpstreamError(reply: FastifyReply, error: Error & { code?: string; cause?: unknown }, logger: Logger): void {
  const cause = error.cause as (Error & { code?: string }) | undefined;
  let body: Omit<ErrorBody, 'requestId'>;
  if (cause instanceof PayloadTooLargeError || error instanceof PayloadTooLargeError) {
    body = { statusCode: 413, code: ErrorCode.PayloadTooLarge, message: (cause ?? error).message };
  } else if (error.code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT') {
    // Taken but not answered in time (a connect timeout is a 502 below).
    body = { statusCode: 504, code: ErrorCode.UpstreamTimeout, message: 'The upstream service did not answer in time' };
  } else {
    body = { statusCode: 502, code: ErrorCode.UpstreamUnavailable, message: 'The upstream service is unavailable' };
  }
  logger.warn({ err: error, path: loggedPath(reply.request.url) }, 'upstream request failed');
  // A body still arriving is read by nobody: close, or its upload holds the connection (and the drain) open.
  if (body.statusCode === 413 || !reply.request.raw.complete) void reply.header('connection', 'close');
  void reply
    .code(body.statusCode)
    .header('content-type', 'application/json; charset=utf-8')
    .send(errorBodyFor(reply.request.url, { ...body, requestId: String(reply.request.id) }));
}
