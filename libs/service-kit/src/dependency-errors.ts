/**
 * Whether an error says a dependency could not be reached or dropped its connection (rather
 * than refused what was asked): such a request is answered 503, safe to retry, and the
 * dependency named. Looks through `cause` and Prisma's driver-adapter error.
 */
export function unavailableDependency(error: unknown): 'the database' | 'the cache' | 'a dependency' | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, name, meta } = e as {
      code?: unknown;
      message?: unknown;
      name?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof code === 'string' && (PRISMA_UNREACHABLE.has(code) || PG_CONNECTION_STATES.has(code))) return 'the database';
    if (meta?.driverAdapterError && unavailableDependency(meta.driverAdapterError)) return 'the database';
    if (typeof (e as { kind?: unknown }).kind === 'string' && ADAPTER_UNREACHABLE.has((e as { kind: string }).kind)) return 'the database';
    if (typeof message === 'string' && PG_DROPPED.test(message)) return 'the database';
    if (name === 'MaxRetriesPerRequestError' || (typeof message === 'string' && REDIS_DROPPED.test(message))) return 'the cache';
    // A connection that could not be made, under a client that does not say to what (node-postgres' pool).
    if (typeof code === 'string' && SOCKET_CODES.has(code) && (e as { syscall?: unknown }).syscall === 'connect') return 'a dependency';
  }
  return undefined;
}

/** Can't reach the server, its timeout, the server closed the connection, no pool connection in time. */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const ADAPTER_UNREACHABLE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
/** node-postgres' own words for a connection that ended or never came. */
const PG_DROPPED = /^Connection terminated|timeout exceeded when trying to connect|^Client has encountered a connection error/;
/** ioredis' words when the connection is down and the offline queue is off. */
const REDIS_DROPPED = /^Connection is closed\.|Stream isn't writeable/;
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** SQLSTATE: the connection failed or was lost, the server shutting down or starting; not 08P01 (a protocol error is ours) nor 08007 (a commit's fate unknown). */
const PG_CONNECTION_STATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03']);
