import { isErrorBody, solverErrorOf } from '@swap/contracts';
import type { FastifyInstance } from 'fastify';
import { SOLVER_SOCKET_PATH } from '../marketplace/marketplace.socket';

/**
 * Every error under `/v1/intent/*` leaves in the solver API's own wire format,
 * `{ detail: { code, message } }` with the protocol's negative codes, whatever raised it
 * (a route's rule, body validation, an unreadable body, an unknown path), with the HTTP
 * status the platform would give; the request id stays in `x-request-id`. The solvers'
 * WebSocket route keeps the platform's shape (it is not the public API).
 */
export function installSolverApiErrorShape(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (
      reply.statusCode < 400 ||
      typeof payload !== 'string' ||
      !request.url.startsWith('/v1/intent/') ||
      request.url.startsWith(SOLVER_SOCKET_PATH)
    ) {
      return done(null, payload);
    }
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return done(null, payload);
    }
    done(null, isErrorBody(body) ? JSON.stringify(solverErrorOf(body)) : payload);
  });
}
