import proxy from '@fastify/http-proxy';
import type { IncomingMessage } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode, type ErrorBody, type ServiceName } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { describeError, loggedPath } from '@swap/service-kit';
import type { ApiGatewayConfig } from '../api-gateway.config';
import { compileTrust, forwardedChain } from './forwarded';
import { installStreamingBodyLimit, PayloadTooLargeError, refuseOversizedExpectations } from './body-limit';
import { installClientConcurrencyLimit } from './client-concurrency';
import { errorBodyFor, ROUTES, upstreamsOf } from './routes';
import { createStreamPool, registerStreamProxies } from './streams';
import { UpstreamPool } from './upstream-pool';

/** `streams`: swap-gateway's replicas again, for status streams only. */
export type Upstreams = Map<ServiceName | 'streams', UpstreamPool>;

export function createUpstreams(config: ApiGatewayConfig): Upstreams {
  const upstreams: Upstreams = new Map();
  for (const { service } of ROUTES) {
    if (upstreams.has(service)) continue;
    upstreams.set(
      service,
      new UpstreamPool(upstreamsOf(service, config), {
        connections: 256,
        pipelining: 1,
        keepAliveTimeout: 60_000,
        headersTimeout: config.UPSTREAM_TIMEOUT_MS,
        bodyTimeout: config.UPSTREAM_TIMEOUT_MS,
        connectTimeout: Math.min(config.UPSTREAM_TIMEOUT_MS, 5_000),
      }),
    );
  }
  upstreams.set('streams', createStreamPool(config));
  return upstreams;
}

/** One proxy per prefix; see docs/operators/gateway.md#how-the-gateway-is-built. */
export async function registerProxies(
  app: NestFastifyApplication,
  config: ApiGatewayConfig,
  logger: Logger,
  upstreams: Upstreams,
): Promise<void> {
  // reply-from leaves a given undici instance open (the streams' was destroyed in preClose already).
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onClose', async () => {
      await Promise.all([...upstreams.values()].map((pool) => pool.close().catch(() => undefined)));
    });
  refuseOversizedExpectations(app.getHttpAdapter().getInstance().server, config.BODY_LIMIT_BYTES, (url, requestId) =>
    errorBodyFor(url, {
      statusCode: 413,
      code: ErrorCode.PayloadTooLarge,
      message: new PayloadTooLargeError(config.BODY_LIMIT_BYTES).message,
      requestId,
    }),
  );
  await app.register(async (scope: FastifyInstance) => {
    installClientConcurrencyLimit(scope, config.UPSTREAM_CONCURRENCY_PER_CLIENT, errorBodyFor);
    installStreamingBodyLimit(scope, config.BODY_LIMIT_BYTES, config.BODY_BUFFER_LIMIT_BYTES);
    installProxyErrors(scope, logger);
    for (const route of ROUTES) await registerRoute(scope, route, config, logger, upstreams.get(route.service)!);
  });
  await registerStreamProxies(app, config, logger, upstreams.get('streams')!);
}

export function installProxyErrors(scope: FastifyInstance, logger: Logger): void {
  scope.setErrorHandler((error, request, reply) => {
    const body = describeError(error, logger);
    body.requestId = String(request.id);
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
    ...(route.httpMethods ? { httpMethods: route.httpMethods } : {}),
    proxyPayloads: false,
    disableRequestLogging: true,
    undici: pool,
    replyOptions: {
      // Never replay here: an upstream 503 is the caller's; the one retry (nothing sent) is the pool's.
      retryDelay: () => null,
      rewriteRequestHeaders: (request, { expect: _expect, ...headers }) => ({
        // Node answered `Expect: 100-continue` (curl, bodies over 1 KB); undici cannot announce it.
        ...headers,
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
