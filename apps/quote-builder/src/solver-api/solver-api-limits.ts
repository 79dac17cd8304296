import { Inject, Injectable } from '@nestjs/common';
import { FallbackCounter, type Cache } from '@swap/cache';
import { AppError, ErrorCode, SolverErrorCode } from '@swap/contracts';
import { ServiceMetrics, type Logger } from '@swap/observability';
import { CACHE, LOGGER, reportRateLimit, retryAfter } from '@swap/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { QuoteBuilderConfig } from '../quote-builder.config';

export type SolverApiRoute = 'quote' | 'execute';

const WINDOW_MS = 60_000;

/**
 * The keyless solver API's limits per client address (docs/integrators/quotes.md#limits-on-the-solver-api),
 * counted in the shared cache across replicas, or in this replica's memory while it is unreachable.
 */
@Injectable()
export class SolverApiLimits {
  private readonly counter: FallbackCounter;
  private readonly limited: Counter<'route'>;

  constructor(
    @Inject(CACHE) cache: Cache,
    @Inject(LOGGER) logger: Logger,
    private readonly config: QuoteBuilderConfig,
    metrics: ServiceMetrics,
  ) {
    this.limited = new Counter({
      name: 'solver_api_rate_limited_total',
      help: 'Solver API requests refused with 429, by route',
      labelNames: ['route'],
      registers: [metrics.registry],
    });
    this.counter = new FallbackCounter(cache, (error) =>
      logger.warn({ err: error }, 'solver API limits counted in this replica’s memory: the shared cache failed'),
    );
  }

  /** Counts the request against its client's limit for the route; past it, a 429 with Retry-After. */
  async admit(route: SolverApiRoute, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const limit = route === 'quote' ? this.config.SOLVER_API_QUOTES_PER_MINUTE : this.config.SOLVER_API_EXECUTES_PER_MINUTE;
    const { count, resetMs } = await this.counter.count(`solver-api:${route}:${request.ip}`, 1, WINDOW_MS);
    const standing = { policy: route, limit, count, resetMs };
    reportRateLimit(reply, [{ name: route, limit }], WINDOW_MS / 1000, standing);
    if (count <= limit) return;
    this.limited.inc({ route });
    const seconds = retryAfter(reply, standing);
    throw new AppError(
      429,
      ErrorCode.TooManyRequests,
      `Too many ${route} requests from this client: at most ${limit} a minute; retry after ${seconds} s`,
      { protocolCode: SolverErrorCode.RateLimited },
    );
  }
}
