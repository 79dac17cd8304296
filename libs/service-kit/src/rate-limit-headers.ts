import type { FastifyReply } from 'fastify';

/** Where a request stands in one limit: `count` of `limit` in the window, which resets in `resetMs`. */
export interface RateStanding {
  policy: string;
  limit: number;
  count: number;
  resetMs: number;
}

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy` names
 * every policy of the route, `RateLimit` adds where this request stands in one (several
 * standings on one answer are listed together).
 */
export function reportRateLimit(
  reply: FastifyReply,
  policies: readonly { name: string; limit: number }[],
  windowSeconds: number,
  standing?: RateStanding,
): void {
  void reply.header('ratelimit-policy', policies.map((p) => `"${p.name}";q=${p.limit};w=${windowSeconds}`).join(', '));
  if (!standing) return;
  const item = `"${standing.policy}";r=${Math.max(0, standing.limit - standing.count)};t=${Math.ceil(standing.resetMs / 1000)}`;
  const previous = reply.getHeader('ratelimit');
  void reply.header('ratelimit', previous ? `${String(previous)}, ${item}` : item);
}

/** Sets `Retry-After` for a refused request and answers its seconds (at least 1). */
export function retryAfter(reply: FastifyReply, standing: RateStanding): number {
  const seconds = Math.max(1, Math.ceil(standing.resetMs / 1000));
  void reply.header('retry-after', String(seconds));
  return seconds;
}
