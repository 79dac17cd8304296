/** A bare server, an undici proxy and (SSE_PORT) a bare event stream: BARE_PORT=… PROXY_PORT=… BODY_FILE=… [SSE_PORT=…]. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Pool } from 'undici';

const body = readFileSync(process.env.BODY_FILE!);
const barePort = Number(process.env.BARE_PORT);
const proxyPort = Number(process.env.PROXY_PORT);

createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(barePort, '127.0.0.1');

if (process.env.SSE_PORT) {
  const streams = new Set<import('node:http').ServerResponse>();
  createServer((req, res) => {
    if (req.method === 'POST') {
      for (const stream of streams) stream.write(`event:fired\ndata:{"at":${Date.now()}}\n\n`);
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('retry:1000\n\n');
    streams.add(res);
    res.once('close', () => streams.delete(res));
  }).listen(Number(process.env.SSE_PORT), '127.0.0.1');
}

const pool = new Pool(`http://127.0.0.1:${barePort}`, { connections: 128 });
createServer((req, res) => {
  pool.request({ method: req.method as 'GET', path: req.url!, headers: req.headers }).then(
    (upstream) => {
      res.writeHead(upstream.statusCode, upstream.headers as Record<string, string>);
      upstream.body.pipe(res);
    },
    () => {
      res.writeHead(502).end();
    },
  );
}).listen(proxyPort, '127.0.0.1', () => process.stdout.write('ready\n'));
