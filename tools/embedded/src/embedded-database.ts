import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  /** Mode 0600, in a directory of mode 0700. */
  socketPath: string;
  close(): Promise<void>;
}

/** PGlite on a unix socket only this user can open (it asks no password); see docs/architecture/choices.md. */
export async function startEmbeddedDatabase(dataRoot: string): Promise<EmbeddedDatabase> {
  const dataDir = join(dataRoot, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const socketDir = mkdtempSync(join(tmpdir(), 'swap-pglite-')); // made with mode 0700
  // Under the temporary directory: a socket's path must stay within 107 bytes. libpq's name, found from `host=<directory>`.
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

/** A private member of the server. */
interface ProtocolQueue {
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>;
  getQueueLength(): number;
  clearQueueForHandler(handlerId: number): void;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

/** Parse, Bind, Describe, Execute, Close. */
const UNTIL_SYNC = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);

/** One unit per connection up to its Sync, so one connection's Parse cannot land between another's Parse and Bind. */
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
