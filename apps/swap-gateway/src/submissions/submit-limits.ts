import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode, SWAPS_POST_ROUTES } from '@swap/contracts';
import { KeySetCache } from '@swap/key-auth';
import { LOGGER, reportRateLimit, retryAfter, type Cache, CACHE, type RateStanding } from '@swap/service-kit';
import { ServiceMetrics, type Logger } from '@swap/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { SwapGatewayConfig } from '../swap-gateway.config';

export type LimitPolicy = 'client' | 'wallet';

interface Standing extends RateStanding {
  policy: LimitPolicy;
}

/** Submit-tx limits (docs/integrators/whole-swap.md#limits-429); a failing cache lets requests through. */
@Injectable()
export class SubmitLimits {
  private readonly limited: Counter<'policy'>;
  private readonly unavailable: Counter;
  private readonly windowSeconds: number;

  constructor(
    @Inject(CACHE) private readonly cache: Cache,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly keys: KeySetCache,
    private readonly config: SwapGatewayConfig,
    metrics: ServiceMetrics,
  ) {
    this.windowSeconds = Math.ceil(config.SUBMIT_LIMIT_WINDOW_MS / 1000);
    this.limited = new Counter({
      name: 'submit_rate_limited_total',
      help: 'submit-tx requests refused with 429, by the limit reached',
      labelNames: ['policy'],
      registers: [metrics.registry],
    });
    this.unavailable = new Counter({
      name: 'submit_rate_limit_unavailable_total',
      help: 'submit-tx requests let through uncounted because the cache failed',
      registers: [metrics.registry],
    });
  }

  clientOf(request: FastifyRequest): string {
    const { outcome, entry } = this.keys.check(request.headers['x-api-key'], SWAPS_POST_ROUTES.submitTx.scope);
    return outcome === 'ok' && entry ? `key:${entry.keyId}` : `ip:${request.ip}`;
  }

  async admitClient(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const standing = await this.count('client', this.clientOf(request), 1, this.config.SUBMIT_LIMIT_PER_CLIENT);
    this.report(reply, standing);
    if (standing && standing.count > standing.limit) this.refuse(reply, standing);
  }

  /** Over the limit a tracked swap still goes through; the answer gives the count back (a duplicate, a failure). */
  async reserveWallet(wallet: string, reply: FastifyReply, isTracked: () => Promise<boolean>): Promise<() => Promise<void>> {
    const key = `wallet:${wallet}`;
    const standing = await this.count('wallet', key, 1, this.config.SUBMIT_LIMIT_PER_WALLET);
    if (!standing) return async () => undefined;
    const giveBack = async () =>
      void (await this.cache.increment(this.counterKey(key), -1, this.config.SUBMIT_LIMIT_WINDOW_MS).catch(() => undefined));
    if (standing.count <= standing.limit) {
      this.report(reply, standing);
      return giveBack;
    }
    await giveBack();
    this.report(reply, { ...standing, count: standing.limit });
    if (await isTracked()) return async () => undefined;
    this.refuse(reply, standing);
  }

  private async count(policy: LimitPolicy, key: string, by: number, limit: number): Promise<Standing | undefined> {
    try {
      const { count, resetMs } = await this.cache.increment(this.counterKey(key), by, this.config.SUBMIT_LIMIT_WINDOW_MS);
      return { policy, limit, count, resetMs };
    } catch (error) {
      this.unavailable.inc();
      this.logger.warn({ err: error, policy }, 'submit-tx rate limit not counted: the cache failed');
      return undefined;
    }
  }

  private counterKey(key: string): string {
    return `submit-limit:${key}`;
  }

  private report(reply: FastifyReply, standing: Standing | undefined): void {
    const policies = [
      { name: 'client', limit: this.config.SUBMIT_LIMIT_PER_CLIENT },
      { name: 'wallet', limit: this.config.SUBMIT_LIMIT_PER_WALLET },
    ];
    reportRateLimit(reply, policies, this.windowSeconds, standing);
  }

  private refuse(reply: FastifyReply, standing: Standing): never {
    this.limited.inc({ policy: standing.policy });
    const seconds = retryAfter(reply, standing);
    const who = standing.policy === 'client' ? 'this client' : 'this walletAddress';
    const what = standing.policy === 'client' ? 'submit-tx requests' : 'new submissions';
    throw new AppError(
      429,
      ErrorCode.TooManyRequests,
      `Too many ${what} from ${who}: at most ${standing.limit} every ${this.windowSeconds} s; retry after ${seconds} s`,
    );
  }
}
