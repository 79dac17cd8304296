import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';

/** What `connect()` to a unix socket gives a process running as `uid`: `connected` or the error code. */
function connectAs(uid: number, socketPath: string): Promise<string> {
  const script =
    "const s = require('net').connect(process.argv[1]); s.on('connect', () => { console.log('connected'); s.destroy(); }); s.on('error', (e) => console.log(e.code));";
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, socketPath], {
      uid,
      gid: uid,
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 10_000,
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.trim()));
  });
}

describe('the embedded default’s PostgreSQL', () => {
  let dataRoot: string;
  let database: EmbeddedDatabase;

  beforeAll(async () => {
    dataRoot = await mkdtemp(join(tmpdir(), 'embedded-db-'));
    database = await startEmbeddedDatabase(dataRoot);
  }, 120_000); // PGlite's first start runs initdb in WebAssembly

  afterAll(async () => {
    await database.close();
    await rm(dataRoot, { recursive: true, force: true });
  }, 30_000);

  it('answers this user on a unix socket, not on a TCP port', async () => {
    expect(new URL(database.url).searchParams.get('host')).toBe(dirname(database.socketPath));
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('keeps the socket to this user: its directory 0700, the socket 0600', async () => {
    expect(((await stat(dirname(database.socketPath))).mode & 0o777).toString(8)).toBe('700');
    expect(((await stat(database.socketPath)).mode & 0o777).toString(8)).toBe('600');
  });

  // Only root can run a process as another user; elsewhere the modes above are the whole check.
  (process.getuid?.() === 0 ? it : it.skip)('refuses a connection from another user of the machine', async () => {
    expect(await connectAs(65534, database.socketPath)).toBe('EACCES');
    expect(await connectAs(0, database.socketPath)).toBe('connected');
  });
});
