import { Inject, Injectable, Optional, type CanActivate, type ExecutionContext, type Provider } from '@nestjs/common';
import { isLoopbackAddress, operatorCredentials, type OperatorCredential } from '@swap/config';
import { AppError, ErrorCode } from '@swap/contracts';
import type { FastifyRequest } from 'fastify';
import { sameSecret } from './key-format';

declare module 'fastify' {
  interface FastifyRequest {
    operator?: string;
  }
}

export const OPS_TOKEN = Symbol('swap:ops-token');

export const LOOPBACK_OPERATOR = 'loopback';

export function operatorTokenFrom(configClass: new () => { OPS_TOKEN?: string }): Provider {
  return {
    provide: OPS_TOKEN,
    inject: [configClass],
    useFactory: (config: { OPS_TOKEN?: string }) => (config.OPS_TOKEN ? operatorCredentials(config.OPS_TOKEN) : undefined),
  };
}

/** The credential the guard matched, never anything the caller says about itself. */
export function operatorOf(request: FastifyRequest): string {
  return `operator:${request.operator ?? 'unknown'}`;
}

/** RFC 6750: the scheme in any letter case, one space, the token. */
const BEARER = /^Bearer ([^\s]+)$/i;

/** /ops/*; see docs/architecture/runtime.md#key-checks-in-a-service. */
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

  /** Every credential compared, so the timing names none. */
  private match(given: string): string | undefined {
    let matched: string | undefined;
    for (const credential of this.credentials!) if (sameSecret(given, credential.token) && matched === undefined) matched = credential.name;
    return matched;
  }
}
