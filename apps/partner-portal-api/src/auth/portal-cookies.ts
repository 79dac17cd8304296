import type { CookieSerializeOptions } from '@fastify/cookie';
import { PORTAL_SESSION_COOKIE } from '@swap/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie: HttpOnly, so page scripts never see it. */
export const SESSION_COOKIE = PORTAL_SESSION_COOKIE;
/** The double-submit CSRF cookie: readable by the portal's scripts, echoed in `x-csrf-token`. */
export const CSRF_COOKIE = 'portal_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Cookies are scoped to the portal; `Secure` whenever the request came over HTTPS (directly or through a trusted proxy). */
function options(request: FastifyRequest, extra: CookieSerializeOptions): CookieSerializeOptions {
  return { path: '/portal', sameSite: 'lax', secure: request.protocol === 'https', ...extra };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlMs: number): void {
  reply.setCookie(SESSION_COOKIE, token, options(request, { httpOnly: true, maxAge: Math.floor(ttlMs / 1000) }));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, options(request, { httpOnly: true }));
}

export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(CSRF_COOKIE, token, options(request, { httpOnly: false }));
}
