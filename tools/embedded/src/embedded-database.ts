import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  /** The unix socket PGlite answers on (mode 0600, in a directory of mode 0700). */
  socketPath: string;
  close(): Promise<void>;
}

/**
 * PostgreSQL for the embedded default without installing anything: PGlite (PostgreSQL
 * compiled to WebAssembly) persisted under the data directory, reached through its socket
 * server, so services connect with the same `pg` driver and Prisma adapter they use
 * against a real server. The socket server multiplexes connections onto the one PGlite
 * and keeps each transaction on its own connection; batchUntilSync keeps each query whole.
 *
 * PGlite asks no password: whoever reaches its socket is the superuser. So it listens on a
 * unix socket only this user can open (a fresh directory of mode 0700, the socket 0600), not
 * on a loopback port every local user and process could reach. The directory is made under
 * the system's temporary directory, because a socket's path must stay within 107 bytes.
 */
export async function startEmbeddedDatabase(dataRoot: string): Promise<EmbeddedDatabase> {
  const dataDir = join(dataRoot, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const socketDir = mkdtempSync(join(tmpdir(), 'swap-pglite-')); // made with mode 0700
  // libpq's name for a server's socket in a directory: `pg` finds it from `host=<directory>`.
  const socketPath = join(socketDir, '.s.PGSQL.5432');
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 200 });
  batchUntilSync(server);
  try {
    await server.start();
    chmodSync(socketPath, 0o600);
  } catch (error) {
    rmSync(socketDir, { recursive: true, force: true });
    await db.close();
    throw error;
  }
  const url = `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
  return {
    url,
    dataDir,
    socketPath,
    async close() {
      await server.stop();
      await db.close();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** The socket server's queue, as far as it is used here (a private member of the server). */
interface ProtocolQueue {
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
  getQueueLength(): number;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

/** Extended-protocol messages that wait for their Sync: Parse, Bind, Describe, Execute, Close. */
const UNTIL_SYNC = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);

/**
 * pglite-socket queues each protocol message of each connection on its own, so under
 * concurrency one connection's Parse can land between another's Parse and Bind (seen as
 * "bind message supplies 3 parameters, but prepared statement \"\" requires 11", and as
 * parameters of one query read by another). This hands PGlite a connection's messages up
 * to and including their Sync (or any other message) as one unit, which PGlite runs in
 * one go, so queries of different connections can no longer interleave.
 */
export function batchUntilSync(server: PGLiteSocketServer): void {
  const holder = server as unknown as { queryQueue: ProtocolQueue };
  const inner = holder.queryQueue;
  const pending = new Map<number, Uint8Array[]>();
  holder.queryQueue = {
    enqueue(handlerId, message, onData) {
      const held = pending.get(handlerId) ?? [];
      if (UNTIL_SYNC.has(message[0])) {
        held.push(message);
        pending.set(handlerId, held);
        return Promise.resolve(0);
      }
      pending.delete(handlerId);
      return inner.enqueue(handlerId, held.length ? Buffer.concat([...held, message]) : message, onData);
    },
    getQueueLength: () => inner.getQueueLength(),
    clearQueueForHandler(handlerId) {
      pending.delete(handlerId);
      inner.clearQueueForHandler(handlerId);
    },
    clearTransactionIfNeeded: (handlerId) => inner.clearTransactionIfNeeded(handlerId),
  };
}
