/** The explorer part's floor: node:http alone, running a read's SQL as the reference does and answering as many bytes as relay-tracker did. FLOOR_PORT=… DATABASE_URL=… READS='["SELECT …"]'; GET /?read=&params=&bytes= */
import { createServer } from 'node:http';
import pg from 'pg';

const reads = JSON.parse(process.env.READS!) as string[];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.FLOOR_POOL) });
const bodies = new Map<number, Buffer>();

createServer((req, res) => {
  const url = new URL(req.url!, 'http://floor');
  const bytes = Number(url.searchParams.get('bytes'));
  let body = bodies.get(bytes);
  if (!body) bodies.set(bytes, (body = Buffer.alloc(bytes, 0x20)));
  pool.query(reads[Number(url.searchParams.get('read'))]!, JSON.parse(url.searchParams.get('params')!) as unknown[]).then(
    () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    },
    (error: Error) => res.writeHead(500).end(error.message),
  );
}).listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
