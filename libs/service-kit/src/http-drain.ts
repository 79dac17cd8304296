import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * How long a stopping service keeps serving connections already open before it closes the
 * idle ones, by default (a service run as its own process waits longer:
 * `processDrainGraceMs`). A request already on its way over a kept-alive connection
 * arrives within it and is answered (not reset), and a gateway sending a stream of
 * requests has usually met a refused connection by then and moved to a peer. Closing the
 * idle ones can still race a request a busy client sends just then: the gateway resends
 * a safe bodiless one (GET) to a peer; anything else is the caller's 502.
 */
export const DRAIN_GRACE_MS = 300;

/** The connections of a server waiting for their next request (kept alive between requests), as trackIdleConnections sees them. */
const idleOf = new WeakMap<Server, Set<Socket>>();

/**
 * Follows which of the server's connections are idle: open, between requests. A connection
 * carrying a request (a long-lived stream too) is busy, and an upgraded one (a WebSocket)
 * is no longer HTTP's: a stop waits only for the idle ones to be closed by their clients.
 * Installed before the server listens.
 */
export function trackIdleConnections(server: Server): void {
  const idle = new Set<Socket>();
  idleOf.set(server, idle);
  server.on('connection', (socket: Socket) => {
    idle.add(socket);
    socket.once('close', () => idle.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    idle.delete(socket);
    res.once('close', () => {
      if (!socket.destroyed) idle.add(socket);
    });
  });
  server.on('upgrade', (req: IncomingMessage) => idle.delete(req.socket));
}

/**
 * The first step of a graceful stop, before the app's own close: new connections are
 * refused at once (a gateway retries a refused connection on a peer; nothing reached this
 * replica); connections already open keep being served (each answer closes its connection:
 * the `onSend` hook) until no idle one is left or `graceMs` has passed, then the idle ones
 * left are closed. Requests still running, streams among them, finish in the app's close
 * (fastify waits for them, streams end at its start). The server's idle connections are
 * known from trackIdleConnections; without it there is no wait.
 */
export async function stopAccepting(server: Server, graceMs: number = DRAIN_GRACE_MS): Promise<void> {
  if (!server.listening) return;
  // net.Server's close, not http.Server's: the latter also drops idle keep-alive connections
  // at once, resetting a request that is on its way over one of them.
  NetServer.prototype.close.call(server);
  const deadline = Date.now() + graceMs;
  const idle = idleOf.get(server);
  while (Date.now() < deadline && idle && idle.size > 0)
    await new Promise((r) => setTimeout(r, Math.min(25, Math.max(1, deadline - Date.now()))));
  // One turn of the event loop's poll phase first: bytes that already arrived on an idle
  // connection are read (the connection is then busy, and served) rather than dropped.
  await new Promise((r) => setImmediate(r));
  server.closeIdleConnections();
}
