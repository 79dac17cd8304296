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
 * against a real server. The socket server multiplexes connections and keeps each
 * transaction on its own connection.
 */
export async function startEmbeddedDatabase(dataRoot: string): Promise<EmbeddedDatabase> {
  const dataDir = join(dataRoot, 'pglite');
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
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
