import { ErrorCode, type ErrorBody, type ServiceName } from '@swap/contracts';
import { resolveRequestId, type Logger, type ServiceMetrics } from '@swap/observability';
import type { FastifyInstance } from 'fastify';
import { request as httpRequest, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ApiGatewayConfig } from '../api-gateway.config';
import { compileTrust, forwardedChain } from './forwarded';
import type { Upstreams } from './proxy';
import { isConnectError } from './upstream-pool';

export const UPGRADE_ROUTES: readonly { path: string; service: ServiceName }[] = [
  { path: '/v1/intent/solvers/connect', service: 'quote-builder' },
];

const MAX_REFUSAL_BYTES = 16 * 1024;
const HOP_BY_HOP = new Set(['host', 'x-request-id', 'x-forwarded-for', 'x-forwarded-proto']);

/** WebSocket upgrades, tunnelled byte for byte; see docs/operators/gateway.md#the-solvers-websocket. */
export function installUpgradeProxy(
  fastify: FastifyInstance,
  config: ApiGatewayConfig,
  logger: Logger,
  metrics: ServiceMetrics,
  upstreams: Upstreams,
): void {
  const tunnels = new Set<Duplex>();
  const trust = compileTrust(config.TRUSTED_PROXIES);
  fastify.addHook('onClose', (_instance, done) => {
    for (const socket of tunnels) socket.destroy();
    done();
  });

  fastify.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const started = performance.now();
    const requestId = resolveRequestId(req.headers['x-request-id']);
    const path = (req.url ?? '/').split('?')[0];
    const route = UPGRADE_ROUTES.find((r) => r.path === path);
    const done = (status: number) =>
      metrics.observeHttp('GET', route?.path ?? '<unmatched upgrade>', status, (performance.now() - started) / 1000);
    socket.on('error', () => socket.destroy());
    if (!route || req.method !== 'GET') {
      done(404);
      return writeError(socket, {
        statusCode: 404,
        code: ErrorCode.RouteNotFound,
        message: `No WebSocket route for ${req.method} ${path.slice(0, 200)}`,
        requestId,
      });
    }
    const pool = upstreams.get(route.service)!;
    const candidates = pool.candidates();
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    Object.assign(headers, {
      'x-request-id': requestId,
      'x-forwarded-for': forwardedChain(req, trust),
      'x-forwarded-proto': 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http',
    });
    if (head.length) socket.unshift(head);

    const open = (attempt: number): void => {
      const upstream = new URL(candidates[attempt]);
      let connected = false;
      const proxied = httpRequest({
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: 'GET',
        headers: { ...headers, host: upstream.host },
        timeout: config.UPSTREAM_TIMEOUT_MS,
      });
      proxied.on('socket', (s: Socket) => {
        if (!s.connecting) connected = true;
        else s.once('connect', () => (connected = true));
      });
      proxied.on('upgrade', (res: IncomingMessage, upstreamSocket: Duplex, upstreamHead: Buffer) => {
        done(101);
        for (const end of [socket, upstreamSocket] as (Duplex & Partial<Pick<Socket, 'setTimeout' | 'setNoDelay'>>)[]) {
          end.setTimeout?.(0);
          end.setNoDelay?.(true);
        }
        if (upstreamHead.length) upstreamSocket.unshift(upstreamHead);
        socket.write(`HTTP/1.1 101 Switching Protocols\r\n${headerLines(res.headers)}\r\n`);
        tunnels.add(socket);
        const close = () => {
          tunnels.delete(socket);
          socket.destroy();
          upstreamSocket.destroy();
        };
        upstreamSocket.on('error', close).on('close', close);
        socket.on('close', close);
        upstreamSocket.pipe(socket).pipe(upstreamSocket);
      });
      // Not upgraded (a refused credential, say): its answer goes back as it is.
      proxied.on('response', (res: IncomingMessage) => {
        done(res.statusCode ?? 502);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_REFUSAL_BYTES) chunks.push(chunk);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const type = res.headers['content-type'] ?? 'application/json; charset=utf-8';
          socket.end(
            `HTTP/1.1 ${res.statusCode} ${STATUS_CODES[res.statusCode ?? 502] ?? ''}\r\ncontent-type: ${type}\r\ncontent-length: ${body.length}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body.toString()}`,
          );
        });
      });
      proxied.on('timeout', () => {
        proxied.destroy();
        done(504);
        writeError(socket, {
          statusCode: 504,
          code: ErrorCode.UpstreamTimeout,
          message: 'The upstream service did not answer in time',
          requestId,
        });
      });
      proxied.on('error', (error) => {
        if (socket.destroyed || !socket.writable) return;
        if (!connected && isConnectError(error)) {
          pool.refused(upstream.origin);
          if (attempt + 1 < candidates.length) return open(attempt + 1);
        }
        logger.warn({ err: error, requestId, path }, 'upstream upgrade failed');
        done(502);
        writeError(socket, {
          statusCode: 502,
          code: ErrorCode.UpstreamUnavailable,
          message: 'The upstream service is unavailable',
          requestId,
        });
      });
      proxied.end();
    };
    open(0);
  });
}

function headerLines(headers: IncomingHttpHeaders): string {
  let out = '';
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out += `${name}: ${v}\r\n`;
  }
  return out;
}

function writeError(socket: Duplex, body: ErrorBody): void {
  if (socket.destroyed) return;
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${body.statusCode} ${STATUS_CODES[body.statusCode]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nx-request-id: ${body.requestId}\r\nconnection: close\r\n\r\n${text}`,
  );
}
