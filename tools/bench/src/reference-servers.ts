/**
 * The bench's reference pair, run as its own process: a bare Node `http` server answering
 * a fixed JSON body (the same body as the measured route), and a minimal undici proxy in
 * front of it. They show what one proxy hop costs on this machine by itself.
 *
 *   BARE_PORT=… PROXY_PORT=… BODY_FILE=… node reference-servers.js
 */
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
