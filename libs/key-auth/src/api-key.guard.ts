import { Injectable, Optional, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, ErrorCode, KeyCheckMessages, type KeySetEntry, type UsageOutcome } from '@swap/contracts';
import { ServiceMetrics } from '@swap/observability';
import type { FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { KEYED_ROUTE, type KeyedRouteOptions } from './keyed-route.decorator';
import { KeySetCache, type KeyCheckOutcome } from './key-set-cache';
import { UsageRecorder } from './usage-recorder';

/** `x-api-key` in the route's mode (its own, else its family's); see docs/architecture/key-sets.md#the-key-set-cache-and-the-modes. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly checks: Counter<'route' | 'family' | 'mode' | 'outcome' | 'org'>;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeySetCache,
    metrics: ServiceMetrics,
    @Optional() private readonly usage?: UsageRecorder,
  ) {
    this.checks = new Counter({
      name: 'api_key_checks_total',
      help: 'API key checks on keyed routes, by route, family, mode, outcome and organisation (when known)',
      labelNames: ['route', 'family', 'mode', 'outcome', 'org'],
      registers: [metrics.registry],
    });
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const route = this.reflector.get<KeyedRouteOptions | undefined>(KEYED_ROUTE, context.getHandler());
    if (!route) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const routeLabel = request.routeOptions.url ?? request.url;
    const routeId = `${request.method} ${routeLabel}`;
    const mode = this.keys.modeOf(route.family, routeId);
    if (mode === 'off') {
      // A key presented still names its organisation: webhooks follow the swaps it submits.
      const { outcome, entry } = this.keys.check(request.headers['x-api-key'], route.scope);
      if (entry && outcome !== 'suspended' && request.context) request.context.orgId = entry.orgId;
      this.countUsage(request, routeId, outcome, entry);
      return true;
    }
    if (mode === undefined) {
      // Not even the mode is known yet: refuse rather than serve unchecked.
      this.checks.inc({ route: routeLabel, family: route.family, mode: 'unknown', outcome: 'unavailable', org: '' });
      this.countUsage(request, routeId, 'unavailable');
      throw rejection('unavailable', route.scope);
    }
    const { outcome, entry } = this.keys.check(request.headers['x-api-key'], route.scope);
    if (entry && request.context) request.context.orgId = entry.orgId;
    this.countUsage(request, routeId, outcome, entry);
    this.checks.inc({ route: routeLabel, family: route.family, mode, outcome, org: entry?.orgId ?? '' });
    if (mode === 'monitor' || outcome === 'ok') return true;
    throw rejection(outcome, route.scope);
  }

  /** In every mode, once the answer's status is known: docs/architecture/usage.md. */
  private countUsage(request: FastifyRequest, route: string, outcome: KeyCheckOutcome, entry?: KeySetEntry): void {
    const usage = this.usage;
    if (!usage) return;
    const counted: UsageOutcome = outcome === 'ok' ? 'valid' : outcome;
    const orgId = entry?.orgId ?? '';
    const keyId = entry?.keyId ?? '';
    request.responded = (statusCode) => usage.count(orgId, keyId, route, counted, statusCode);
  }
}

function rejection(outcome: Exclude<KeyCheckOutcome, 'ok'>, scope: string | undefined): AppError {
  switch (outcome) {
    case 'missing':
      return new AppError(401, ErrorCode.MissingApiKey, KeyCheckMessages.missing);
    case 'invalid':
      return new AppError(401, ErrorCode.InvalidApiKey, KeyCheckMessages.invalid);
    case 'suspended':
      return new AppError(403, ErrorCode.OrganisationSuspended, KeyCheckMessages.suspended);
    case 'scope':
      return new AppError(403, ErrorCode.ScopeMissing, KeyCheckMessages.scope(scope ?? ''));
    case 'unavailable':
      return new AppError(503, ErrorCode.KeyVerificationUnavailable, KeyCheckMessages.unavailable);
  }
}
