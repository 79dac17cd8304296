import websocket from '@fastify/websocket';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppError, ErrorCode } from '@swap/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SolverConnections } from './solver-connections';
import { SolverAccountsService, type AuthenticatedSolver } from './solver-accounts.service';

export const SOLVER_SOCKET_PATH = '/v1/intent/solvers/connect';

/** Largest frame a solver may send; every frame of the protocol is far smaller. */
const MAX_FRAME_BYTES = 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    solver?: AuthenticatedSolver;
  }
}

/** The credential is checked before the upgrade, so a refused solver gets a plain 401 and no socket. */
export async function registerMarketplaceSocket(app: NestFastifyApplication): Promise<void> {
  const connections = app.get(SolverConnections);
  const accounts = app.get(SolverAccountsService);
  const fastify = app.getHttpAdapter().getInstance();
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  fastify.route({
    method: 'GET',
    url: SOLVER_SOCKET_PATH,
    preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
      const credential = bearerOf(request.headers.authorization);
      if (!credential)
        return refuse(
          request,
          reply,
          new AppError(401, ErrorCode.Unauthorized, 'Missing solver credential: send Authorization: Bearer slv_…'),
        );
      const solver = await accounts.authenticate(credential).catch(() => null);
      if (solver === null)
        return refuse(
          request,
          reply,
          new AppError(503, ErrorCode.DependencyUnavailable, 'Solver verification is temporarily unavailable; reconnect later'),
        );
      if (!solver)
        return refuse(
          request,
          reply,
          new AppError(401, ErrorCode.Unauthorized, 'Invalid solver credential (unknown, suspended or removed)'),
        );
      request.solver = solver;
    },
    handler: (request: FastifyRequest, reply: FastifyReply) =>
      refuse(
        request,
        reply,
        new AppError(426, ErrorCode.BadRequest, `${SOLVER_SOCKET_PATH} is a WebSocket: connect with an Upgrade request`),
      ),
    wsHandler: (socket, request) => connections.attach(socket, request.solver!),
  });
}

function refuse(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  return reply
    .code(error.getStatus())
    .header('content-type', 'application/json; charset=utf-8')
    .send(error.toBody(String(request.id)));
}

function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer (\S{1,256})$/.exec(header ?? '');
  return match?.[1];
}
