/** The explorer part's floor: the plain query answered over HTTP (node:http, pg as the reference uses it, relay-tracker's bytes). FLOOR_PORT=… FLOOR_POOL=… DATABASE_URL=… READS='["SELECT …"]'; GET /?read=&params=&bytes=, GET /ready */
import { createServer } from 'node:http';
import pg from 'pg';

const reads = JSON.parse(process.env.READS!) as string[];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.FLOOR_POOL ?? 10) });
pool.on('error', (error) => console.error(`explorer floor: ${error.message}`));
const bodies = new Map<number, Buffer>();

function requestOf(url: URL): { sql: string; params: unknown[]; body: Buffer } {
  const sql = reads[Number(url.searchParams.get('read'))];
  const params = JSON.parse(url.searchParams.get('params') ?? 'null') as unknown;
  if (sql === undefined || !Array.isArray(params)) throw new Error('read and params (a JSON array) are required');
  const bytes = Number(url.searchParams.get('bytes'));
  let body = bodies.get(bytes);
  if (!body) bodies.set(bytes, (body = Buffer.alloc(bytes, 0x20)));
  return { sql, params, body };
}

createServer((req, res) => {
  const url = new URL(req.url!, 'http://floor');
  if (url.pathname === '/ready') return void res.writeHead(200).end();
  let request: ReturnType<typeof requestOf>;
  try {
    request = requestOf(url);
  } catch (error) {
    return void res.writeHead(400).end((error as Error).message);
  }
  pool.query(request.sql, request.params).then(
    () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': request.body.length });
      res.end(request.body);
    },
    (error: Error) => {
      console.error(`explorer floor: ${error.message}`);
      res.writeHead(500).end(error.message);
    },
  );
}).listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
