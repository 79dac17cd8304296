import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface HermesQuote {
  id: string;
  price: string;
  expo: number;
  publishTime: number;
}

/** A local stand-in for Pyth's Hermes: its two price routes only, with `ids[]` and `parsed=true`. */
export class HermesDouble {
  private server?: Server;
  private readonly streams = new Set<ServerResponse>();
  readonly latest = new Map<string, HermesQuote>();
  readonly requests: string[] = [];
  failStreamsWith?: number;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  get openStreams(): number {
    return this.streams.size;
  }

  push(quotes: HermesQuote[]): void {
    for (const q of quotes) this.latest.set(q.id, q);
    const event = `data:${JSON.stringify(this.message(quotes))}\n\n`;
    for (const res of this.streams) res.write(event);
  }

  dropStreams(): void {
    for (const res of this.streams) res.destroy();
    this.streams.clear();
  }

  async stop(): Promise<void> {
    this.dropStreams();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    const ids = url.searchParams.getAll('ids[]').map((id) => id.replace(/^0x/, ''));
    if (url.pathname === '/v2/updates/price/latest') {
      const quotes = ids.map((id) => this.latest.get(id)).filter((q): q is HermesQuote => q !== undefined);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.message(quotes)));
      return;
    }
    if (url.pathname === '/v2/updates/price/stream') {
      if (this.failStreamsWith) {
        res.writeHead(this.failStreamsWith).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.flushHeaders();
      this.streams.add(res);
      res.on('close', () => this.streams.delete(res));
      return;
    }
    res.writeHead(404).end();
  }

  private message(quotes: HermesQuote[]) {
    return {
      binary: { encoding: 'hex', data: quotes.map(() => 'deadbeef') },
      parsed: quotes.map((q) => ({
        id: q.id,
        price: { price: q.price, conf: '1000', expo: q.expo, publish_time: q.publishTime },
        ema_price: { price: q.price, conf: '1000', expo: q.expo, publish_time: q.publishTime },
        metadata: { slot: 1, proof_available_time: q.publishTime, prev_publish_time: q.publishTime - 1 },
      })),
    };
  }
}
