import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode, type ServiceName } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import type { FastifyInstance } from 'fastify';
import type { ApiGatewayConfig } from '../api-gateway.config';
import { installStreamingBodyLimit, PayloadTooLargeError, refuseOversizedExpectations } from './body-limit';
import { installClientConcurrencyLimit } from './client-concurrency';
import { installProxyErrors, registerRoute } from './proxy-route';
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
