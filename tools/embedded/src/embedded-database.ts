import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * PostgreSQL for the embedded default without installing anything: PGlite (PostgreSQL
 * compiled to WebAssembly) persisted under the data directory, reached through its socket
 * server, so services connect with the same `pg` driver and Prisma adapter they use
 * against a real server. The socket server multiplexes connections onto the one PGlite
 * and keeps each transaction on its own connection; batchUntilSync keeps each query whole.
 */
export async function startEmbeddedDatabase(dataRoot: string): Promise<EmbeddedDatabase> {
  const dataDir = join(dataRoot, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
  batchUntilSync(server);
  await server.start();
  const url = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    dataDir,
    async close() {
      await server.stop();
      await db.close();
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
