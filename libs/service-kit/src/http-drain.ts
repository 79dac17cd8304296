import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

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

/**
 * The first step of a graceful stop, before the app's own close: new connections are
 * refused at once (a gateway retries a refused connection on a peer; nothing reached this
 * replica), connections already open keep being served for up to `graceMs` (each answer
 * closes its connection: the `onSend` hook), then the idle ones are closed. Requests still
 * running finish in the app's close (fastify waits for them).
 */
export async function stopAccepting(server: Server, graceMs: number = DRAIN_GRACE_MS): Promise<void> {
  if (!server.listening) return;
  // net.Server's close, not http.Server's: the latter also drops idle keep-alive connections
  // at once, resetting a request that is on its way over one of them.
  NetServer.prototype.close.call(server);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && (await openConnections(server)) > 0)
    await new Promise((r) => setTimeout(r, Math.min(25, Math.max(1, deadline - Date.now()))));
  // One turn of the event loop's poll phase first: bytes that already arrived on an idle
  // connection are read (the connection is then busy, and served) rather than dropped.
  await new Promise((r) => setImmediate(r));
  server.closeIdleConnections();
}

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}
