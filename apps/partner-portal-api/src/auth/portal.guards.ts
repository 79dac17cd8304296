import { applyDecorators, createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiCookieAuth, ApiResponse } from '@nestjs/swagger';
import { AppError, ErrorBodyDto, ErrorCode, PORTAL_SESSION_SCHEME } from '@swap/contracts';
import { sameSecret } from '@swap/key-auth';
import type { FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from './portal-cookies';
import { SessionsService, type PortalUser } from './sessions.service';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NO_SESSION = 'Sign in first (no session, or it expired)';
/** The OpenAPI security scheme of the session cookie, as every service's document declares it (service-kit). */
export const SESSION_SCHEME = PORTAL_SESSION_SCHEME;

type PortalRequest = FastifyRequest & { portalUser?: PortalUser };

/** Double-submit: every mutation carries `x-csrf-token` equal to a cookie another site can neither read nor set. */
@Injectable()
export class CsrfGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (SAFE_METHODS.has(request.method)) return true;
    const cookie = request.cookies?.[CSRF_COOKIE];
    const header = request.headers[CSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameSecret(header, cookie)) {
      throw new AppError(
        403,
        ErrorCode.CsrfRejected,
        `Missing or wrong ${CSRF_HEADER} header: it must equal the ${CSRF_COOKIE} cookie (GET /portal/api/auth/csrf sets one)`,
      );
    }
    return true;
  }
}

/** The user is then available with `@CurrentUser()`. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PortalRequest>();
    const user = await this.sessions.userOf(request.cookies?.[SESSION_COOKIE]);
    if (!user) throw new AppError(401, ErrorCode.Unauthorized, NO_SESSION);
    request.portalUser = user;
    return true;
  }
}

/** Says in OpenAPI what SessionGuard checks: the session cookie, and its 401. */
export const ApiSession = () =>
  applyDecorators(ApiCookieAuth(SESSION_SCHEME), ApiResponse({ status: 401, type: ErrorBodyDto, description: NO_SESSION }));

export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): PortalUser => context.switchToHttp().getRequest<PortalRequest>().portalUser!,
);
