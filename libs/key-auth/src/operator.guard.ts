import { Inject, Injectable, Optional, type CanActivate, type ExecutionContext, type Provider } from '@nestjs/common';
import { isLoopbackAddress, operatorCredentials, type OperatorCredential } from '@swap/config';
import { AppError, ErrorCode } from '@swap/contracts';
import type { FastifyRequest } from 'fastify';
import { sameSecret } from './key-format';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator an ops route's guard let in: the name of the matched credential. */
    operator?: string;
  }
}

/** Provide the operators' credentials from OPS_TOKEN (or undefined) under this token where ops routes live. */
export const OPS_TOKEN = Symbol('swap:ops-token');

/** The operator of a loopback caller when no OPS_TOKEN is set (the embedded default, a host's own shell). */
export const LOOPBACK_OPERATOR = 'loopback';

/** The OPS_TOKEN provider of a service whose configuration class carries it (WithOperatorRoutes). */
export function operatorTokenFrom(configClass: new () => { OPS_TOKEN?: string }): Provider {
  return {
    provide: OPS_TOKEN,
    inject: [configClass],
    useFactory: (config: { OPS_TOKEN?: string }) => (config.OPS_TOKEN ? operatorCredentials(config.OPS_TOKEN) : undefined),
  };
}

/**
 * The actor of a request to an ops route, `operator:<name>`: the name of the credential the
 * guard matched, never anything the caller says about itself.
 */
export function operatorOf(request: FastifyRequest): string {
  return `operator:${request.operator ?? 'unknown'}`;
}

/** RFC 6750's form: the scheme (any letter case), one space, the token. */
const BEARER = /^Bearer ([^\s]+)$/i;

/**
 * Guards the internal operator routes (/ops/*). With OPS_TOKEN set, a request needs
 * `Authorization: Bearer <token>` of one of its operators, and acts as that operator;
 * without one (a service on a loopback HOST only: the configuration refuses any other),
 * only loopback callers get in.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(@Optional() @Inject(OPS_TOKEN) private readonly credentials?: OperatorCredential[]) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (this.credentials?.length) {
      const given = BEARER.exec(String(request.headers.authorization ?? ''))?.[1];
      const operator = given === undefined ? undefined : this.match(given);
      if (operator) {
        request.operator = operator;
        return true;
      }
      throw new AppError(401, ErrorCode.Unauthorized, 'Operator routes need Authorization: Bearer <OPS_TOKEN>');
    }
    if (isLoopbackAddress(request.socket.remoteAddress ?? '')) {
      request.operator = LOOPBACK_OPERATOR;
      return true;
    }
    throw new AppError(403, ErrorCode.Forbidden, 'Operator routes answer loopback callers only unless OPS_TOKEN is set');
  }

  /** Every credential is compared, in constant time each, so the answer's timing names none. */
  private match(given: string): string | undefined {
    let matched: string | undefined;
    for (const credential of this.credentials!) if (sameSecret(given, credential.token) && matched === undefined) matched = credential.name;
    return matched;
  }
}
