import { createLogger } from '@swap/observability';
import { createServer, type Server } from 'node:http';
import { PriceBook } from './price-book';

describe('PriceBook', () => {
  let server: Server;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    // The oracle's candle route, answering slowly (as over a network) with one fresh candle.
    server = createServer((_req, res) => {
      requests++;
      const body = JSON.stringify({ candles: [{ timestamp: Math.floor(Date.now() / 60_000) * 60, close: '1.0005' }] });
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 50);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(() => new Promise((r) => server.close(r)));

  it('gives concurrent first askers of one symbol the same, fetched price (a USDC → USDC quote asks twice at once)', async () => {
    const book = new PriceBook(url, 180, createLogger({ service: 'test', level: 'silent' }));
    const [a, b] = await Promise.all([book.price('USDC'), book.price('USDC')]);
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(requests).toBe(1);
  });

  it('answers a prefetched price at once, and refreshes only what was asked for', async () => {
    const book = new PriceBook(url, 180, createLogger({ service: 'test', level: 'silent' }));
    const before = requests;
    await book.prefetch(['ETH', 'USDC', 'ETH']);
    expect(requests - before).toBe(2);
    let answered = false;
    const asked = book.price('ETH').then((p) => ((answered = true), p));
    await Promise.resolve();
    await Promise.resolve();
    expect(answered).toBe(true);
    expect(await asked).toBeDefined();
    await book.refresh();
    // ETH was asked for (fetched again and refreshed); USDC only prefetched.
    expect(requests - before).toBe(4);
  });
});
