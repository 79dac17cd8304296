import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, ErrorCode, KeyCheckMessages } from '@swap/contracts';
import { ServiceMetrics } from '@swap/observability';
import type { FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { KEYED_ROUTE, type KeyedRouteOptions } from './keyed-route.decorator';
import { KeySetCache, type KeyCheckOutcome } from './key-set-cache';

/** `x-api-key` in the mode of the route's family; see docs/architecture/key-sets.md#the-key-set-cache-and-the-modes. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly checks: Counter<'route' | 'family' | 'mode' | 'outcome' | 'org'>;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeySetCache,
    metrics: ServiceMetrics,
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
    const mode = this.keys.modeOf(route.family);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (mode === 'off') {
      // A key presented still names its organisation: webhooks follow the swaps it submits.
      const presented = request.headers['x-api-key'];
      if (presented && request.context) {
        const { outcome, entry } = this.keys.check(presented, route.scope);
        if (entry && outcome !== 'suspended') request.context.orgId = entry.orgId;
      }
      return true;
    }
    const routeLabel = request.routeOptions.url ?? request.url;
    if (mode === undefined) {
      // Not even the mode is known yet: refuse rather than serve unchecked.
      this.checks.inc({ route: routeLabel, family: route.family, mode: 'unknown', outcome: 'unavailable', org: '' });
      throw rejection('unavailable', route.scope);
    }
    const { outcome, entry } = this.keys.check(request.headers['x-api-key'], route.scope);
    if (entry && request.context) request.context.orgId = entry.orgId;
    this.checks.inc({ route: routeLabel, family: route.family, mode, outcome, org: entry?.orgId ?? '' });
    if (mode === 'monitor' || outcome === 'ok') return true;
    throw rejection(outcome, route.scope);
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
