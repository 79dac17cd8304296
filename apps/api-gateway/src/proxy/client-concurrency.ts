import { ErrorCode, type ErrorBody } from '@swap/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Bounds the proxied requests one client has in flight at once: each holds an upstream
 * connection for as long as its body takes to arrive and its answer to leave, so without a
 * bound a few clients trickling bodies could hold every connection to a service. The client
 * is `request.ip`: the connection's peer, or the address a TRUSTED_PROXIES peer names in
 * X-Forwarded-For (never the header of anyone else). One over the bound is answered 429 at
 * once, before its body is read, and its connection closed.
 */
export function installClientConcurrencyLimit(fastify: FastifyInstance, limit: number, shape: (url: string, body: ErrorBody) => unknown): void {
  const inFlight = new Map<string, number>();
  fastify.addHook('onRequest', (request, reply, done) => {
    const client = request.ip;
    const count = inFlight.get(client) ?? 0;
    if (count >= limit) {
      const body: ErrorBody = {
        statusCode: 429,
        code: ErrorCode.TooManyRequests,
        message: `Too many requests in progress from this client (at most ${limit} at once); retry when one has finished`,
        requestId: String(request.id),
      };
      void reply.code(429).header('retry-after', '1').header('connection', 'close').send(shape(request.url, body));
      return;
    }
    inFlight.set(client, count + 1);
    // 'close' comes once whatever the end: answered, failed, or the client gone.
    reply.raw.once('close', () => {
      const left = (inFlight.get(client) ?? 1) - 1;
      if (left > 0) inFlight.set(client, left);
      else inFlight.delete(client);
    });
    done();
  });
}
