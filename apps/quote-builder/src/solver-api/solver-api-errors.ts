import { isErrorBody, solverErrorOf } from '@swap/contracts';
import type { FastifyInstance } from 'fastify';
import { SOLVER_SOCKET_PATH } from '../marketplace/marketplace.socket';

/** Every `/v1/intent/*` error, whatever raised it, as `{ detail: { code, message } }`; the WebSocket route keeps the platform's shape. */
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
