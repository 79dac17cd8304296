/**
 * A webhook receiver, as an integrator writes one: an HTTP server that verifies each
 * delivery's Standard Webhooks signature with the endpoint's secret (verifyWebhook of the
 * typed client, the `standardwebhooks` package underneath), drops repeats by `webhook-id`,
 * answers 204 at once and prints the event.
 *
 *   WEBHOOK_SECRET  the endpoint's secret (whsec_…), shown once by the portal when it was added
 *   PORT            where to listen (default 4100, on 127.0.0.1: add http://127.0.0.1:4100/hooks
 *                   as the endpoint; `npm start` allows loopback http receivers)
 *
 *   npm run example:webhook
 */
import { verifyWebhook } from '@swap/client';
import { createServer } from 'node:http';

const secret = process.env.WEBHOOK_SECRET;
if (!secret?.startsWith('whsec_')) {
  process.stderr.write('Set WEBHOOK_SECRET to the endpoint secret the portal showed (whsec_…)\n');
  process.exit(64);
}
const port = Number(process.env.PORT ?? 4100);
/** Deliveries are at least once: a message seen already (the same webhook-id) is acknowledged and not handled again. */
const seen = new Set<string>();

createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let message;
    try {
      message = verifyWebhook(secret, body, req.headers);
    } catch (error) {
      process.stdout.write(`refused: ${(error as Error).message}\n`);
      return void res.writeHead(400).end();
    }
    res.writeHead(204).end();
    const id = String(req.headers['webhook-id']);
    if (seen.has(id)) return;
    seen.add(id);
    const { type, timestamp, data } = message;
    const where = data.txHash ? ` ${data.srcChainKey} ${data.txHash}` : '';
    process.stdout.write(`${timestamp} ${type}${where}: ${data.status ?? data.message ?? ''}${data.terminal ? ' (terminal)' : ''}\n`);
  });
}).listen(port, '127.0.0.1', () =>
  process.stdout.write(`webhook receiver on http://127.0.0.1:${port}/hooks (verifying with the endpoint secret)\n`),
);
