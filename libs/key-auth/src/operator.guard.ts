import { Inject, Injectable, Optional, type CanActivate, type ExecutionContext, type Provider } from '@nestjs/common';
import { AppError, ErrorCode } from '@swap/contracts';
import type { FastifyRequest } from 'fastify';
import { sameSecret } from './key-format';

/** Provide the configured OPS_TOKEN (or undefined) under this token where ops routes live. */
export const OPS_TOKEN = Symbol('swap:ops-token');

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The OPS_TOKEN provider of a service whose configuration class carries it (WithOperatorRoutes). */
export function operatorTokenFrom(configClass: new () => { OPS_TOKEN?: string }): Provider {
  return { provide: OPS_TOKEN, inject: [configClass], useFactory: (config: { OPS_TOKEN?: string }) => config.OPS_TOKEN };
}

/** The actor of a request to an ops route: `operator:<x-operator header>`. */
export function operatorOf(request: FastifyRequest): string {
  const name = request.headers['x-operator'];
  return `operator:${typeof name === 'string' && /^[\w.@-]{1,64}$/.test(name) ? name : 'unknown'}`;
}

/**
 * Guards the internal operator routes (/ops/*). With a token configured, a request needs
 * `Authorization: Bearer <token>`; without one, only loopback callers get in (the
 * embedded default, or an operator on the host).
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(@Optional() @Inject(OPS_TOKEN) private readonly token?: string) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (this.token) {
      if (sameSecret(String(request.headers.authorization ?? '').replace(/^Bearer /, ''), this.token)) return true;
      throw new AppError(401, ErrorCode.Unauthorized, 'Operator routes need Authorization: Bearer <OPS_TOKEN>');
    }
    if (LOOPBACK.has(request.socket.remoteAddress ?? '')) return true;
    throw new AppError(403, ErrorCode.Forbidden, 'Operator routes answer loopback callers only unless OPS_TOKEN is set');
  }
}
