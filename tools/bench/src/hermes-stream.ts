/** A stand-in for Pyth's Hermes in its public wire format, streaming as fast as the reader takes; and the bare reader. */
import { createParser } from 'eventsource-parser';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HermesStream {
  url: string;
  /** Symbol → feed id (64 hex digits). */
  feeds: Record<string, string>;
  close(): Promise<void>;
}

const START_S = 1_767_225_600; // 2026-01-01T00:00:00Z

export function feedIdOf(symbol: string): string {
  return createHash('sha256').update(`bench-feed:${symbol}`).digest('hex');
}

function event(feedIds: string[], second: number): string {
  const parsed = feedIds.map((id, i) => ({
    id,
    price: {
      price: String(100_000_000_000 + i * 1_000_000 + (second % 997) * 1_000),
      conf: '1000',
      expo: -8,
      publish_time: START_S + second,
    },
  }));
  return `data: ${JSON.stringify({ parsed })}\n\n`;
}

export async function startHermesStream(symbols: string[]): Promise<HermesStream> {
  const feeds = Object.fromEntries(symbols.map((s) => [s, feedIdOf(s)]));
  const ids = Object.values(feeds);
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/v2/updates/price/latest')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(event(ids, 0).slice('data: '.length).trim());
      return;
    }
    if (!req.url?.startsWith('/v2/updates/price/stream')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let second = 1;
    let open = true;
    res.on('close', () => (open = false));
    const pump = () => {
      while (open) {
        let chunk = '';
        for (let i = 0; i < 50; i++) chunk += event(ids, second++);
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    feeds,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Updates per second. */
export async function bareStreamRate(stream: HermesStream, seconds: number): Promise<number> {
  const abort = new AbortController();
  let updates = 0;
  const parser = createParser({ onEvent: (e) => (updates += (JSON.parse(e.data) as { parsed: unknown[] }).parsed.length) });
  const query = Object.values(stream.feeds)
    .map((id) => `ids[]=${id}`)
    .join('&');
  const res = await fetch(`${stream.url}/v2/updates/price/stream?${query}&parsed=true`, { signal: abort.signal });
  const decoder = new TextDecoder();
  const started = performance.now();
  const timer = setTimeout(() => abort.abort(), seconds * 1000);
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return updates / ((performance.now() - started) / 1000);
}
