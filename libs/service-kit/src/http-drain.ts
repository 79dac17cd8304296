import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** In-process services' grace; a process waits longer (processDrainGraceMs). See docs/architecture/runtime.md#stopping. */
export const DRAIN_GRACE_MS = 300;

const idleOf = new WeakMap<Server, Set<Socket>>();

/** Installed before the server listens: a stop waits only for idle connections. */
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

/** The first step of a graceful stop, before the app's own close; see docs/architecture/runtime.md#stopping. */
export async function stopAccepting(server: Server, graceMs: number = DRAIN_GRACE_MS): Promise<void> {
  if (!server.listening) return;
  // Not http.Server's close: it drops idle keep-alive connections at once, resetting a request on its way.
  NetServer.prototype.close.call(server);
  const deadline = Date.now() + graceMs;
  const idle = idleOf.get(server);
  while (Date.now() < deadline && idle && idle.size > 0)
    await new Promise((r) => setTimeout(r, Math.min(25, Math.max(1, deadline - Date.now()))));
  // One poll phase first: bytes already arrived on an idle connection are read and served, not dropped.
  await new Promise((r) => setImmediate(r));
  server.closeIdleConnections();
}
