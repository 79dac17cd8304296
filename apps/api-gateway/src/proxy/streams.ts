import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from '@swap/observability';
import type { FastifyInstance } from 'fastify';
import type { ApiGatewayConfig } from '../api-gateway.config';
import { installClientConcurrencyLimit } from './client-concurrency';
import { installProxyErrors, registerRoute } from './proxy';
import { errorBodyFor, upstreamsOf } from './routes';
import { UpstreamPool } from './upstream-pool';

/** Paths whose answers are server-sent event streams (swap-gateway's). */
export const STREAM_PREFIXES = ['/v1/swaps/submit-tx/events'] as const;

/**
 * swap-gateway's replicas again, for status streams only: a pool of their own (open streams
 * hold its connections, never those of ordinary requests), headers within
 * UPSTREAM_TIMEOUT_MS like any request, then a body that may last as long as the swap, cut
 * only when silent for STREAM_IDLE_TIMEOUT_MS (undici's bodyTimeout is the longest wait for
 * the next bytes; the stream's comment every 15 s keeps a live one going).
 */
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

/**
 * The stream routes, in a scope apart from the other proxied prefixes: exempt from
 * UPSTREAM_CONCURRENCY_PER_CLIENT and bounded instead by STREAMS_PER_CLIENT open at once per
 * client (429 past it). Bytes go on as they arrive (reply-from pipes the upstream body; no
 * compression, no buffering). When the gateway stops, open streams end first (their clients
 * reconnect with Last-Event-ID), or the server's close would wait for them.
 */
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
