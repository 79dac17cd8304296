import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from '@swap/observability';
import type { FastifyInstance } from 'fastify';
import type { ApiGatewayConfig } from '../api-gateway.config';
import { installClientConcurrencyLimit } from './client-concurrency';
import { installProxyErrors, registerRoute } from './proxy-route';
import { errorBodyFor, upstreamsOf } from './routes';
import { UpstreamPool } from './upstream-pool';

export const STREAM_PREFIXES = ['/v1/swaps/submit-tx/events'] as const;

/** Status streams' own pool; see docs/operators/gateway.md#status-streams (bodyTimeout is the longest silence). */
export function createStreamPool(config: ApiGatewayConfig): UpstreamPool {
  return new UpstreamPool(upstreamsOf('swap-gateway', config), {
    connections: config.STREAM_UPSTREAM_CONNECTIONS,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: config.UPSTREAM_TIMEOUT_MS,
    bodyTimeout: config.STREAM_IDLE_TIMEOUT_MS,
    connectTimeout: Math.min(config.UPSTREAM_TIMEOUT_MS, 5_000),
  });
}

/** Open streams end first on stop, or the server's close would wait for them. */
export async function registerStreamProxies(
  app: NestFastifyApplication,
  config: ApiGatewayConfig,
  logger: Logger,
  pool: UpstreamPool,
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('preClose', async () => {
    await pool.destroy();
  });
  await app.register(async (scope: FastifyInstance) => {
    installClientConcurrencyLimit(
      scope,
      config.STREAMS_PER_CLIENT,
      errorBodyFor,
      `Too many open status streams from this client (at most ${config.STREAMS_PER_CLIENT}); close one first`,
    );
    installProxyErrors(scope, logger);
    for (const prefix of STREAM_PREFIXES) await registerRoute(scope, { prefix, httpMethods: ['GET', 'HEAD'] }, config, logger, pool);
  });
}
