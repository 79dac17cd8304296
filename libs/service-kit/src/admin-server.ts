import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { ErrorCode, type ErrorBody } from '@swap/contracts';
import { probeDependencies, type DependencyCheck, type ServiceMetrics } from '@swap/observability';
import { answerClientError } from './http-edges';
import type { ReadinessGate } from './readiness-gate';
import type { SlowClientTimeouts } from './http-timeouts';

export class ServiceState {
  /** SIGTERM came: readiness says 503, and each response closes its connection. */
  shuttingDown = false;
  /** The app itself is being torn down: a late request is refused with 503. */
  refusingRequests = false;
  gate?: ReadinessGate;
  openApiDocument: object = {};
  constructor(readonly checks: DependencyCheck[]) {}
}

export interface AdminServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The admin port; see docs/architecture/runtime.md#readiness-and-bus-intake. */
export async function startAdminServer(options: {
  service: string;
  host: string;
  port: number;
  state: ServiceState;
  metrics: ServiceMetrics;
  timeouts: SlowClientTimeouts;
}): Promise<AdminServer> {
  const { service, state, metrics } = options;
  // service_ready: the same answer as /readyz, at each scrape.
  metrics.readiness = async () => !state.shuttingDown && (await probeDependencies(state.checks)).ready && !state.gate?.paused;
  const send = (res: ServerResponse, status: number, body: unknown, contentType = 'application/json; charset=utf-8') => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res
      .writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' })
      .end(text);
  };
  const error = (status: number, code: string, message: string, extra: object = {}): ErrorBody => ({
    statusCode: status,
    code,
    message,
    requestId: randomUUID(),
    ...extra,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, error(405, ErrorCode.BadRequest, 'The admin port answers GET only'));
    if (path === '/healthz') return send(res, 200, { status: 'ok', service });
    if (path === '/readyz') {
      if (state.shuttingDown) return send(res, 503, error(503, ErrorCode.ShuttingDown, `${service} is shutting down`));
      const report = await probeDependencies(state.checks);
      const degraded = Object.values(report.checks).some((c) => c.status === 'down');
      const gate = state.gate;
      const intake = gate ? { intake: gate.paused ? 'paused' : 'taking' } : {};
      if (report.ready && !gate?.paused)
        return send(res, 200, { status: degraded ? 'degraded' : 'ready', service, checks: report.checks, ...intake });
      const failing = Object.entries(report.checks)
        .filter(([, c]) => c.status === 'down' && !c.optional)
        .map(([name]) => name);
      // Recovering but not yet enough good rounds: still out, so the Service and the bus take it back together.
      const message = failing.length
        ? `Not ready: ${failing.join(', ')} unreachable`
        : `Not ready: recovering (${gate!.failing.join(', ')} failed); taking work after ${gate!.resumeAfter} good checks in a row, ${gate!.goodRoundsSincePause} so far`;
      return send(res, 503, error(503, ErrorCode.NotReady, message, { checks: report.checks, ...intake }));
    }
    if (path === '/metrics') return send(res, 200, await metrics.render(), metrics.contentType());
    return send(res, 404, error(404, ErrorCode.RouteNotFound, 'The admin port serves /healthz, /readyz and /metrics'));
  };

  const server: Server = createServer(options.timeouts, (req, res) => {
    handle(req, res).catch(() => send(res, 500, error(500, ErrorCode.Internal, 'Internal server error')));
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
