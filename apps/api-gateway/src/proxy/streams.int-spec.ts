import { startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { eventually, jsonOf, readEventStream, testServiceEnv } from '@swap/testing';
import { createServer, type ServerResponse, type Server } from 'node:http';
import { apiGateway } from '../api-gateway.definition';

const STREAM = '/v1/swaps/submit-tx/events?txHash=0x1&srcChainKey=0x2105.base';

/**
 * A swap-gateway stand-in: event-stream requests are held open and written to by the test
 * (`streams`), `/v1/swaps/tokens` answers at once. Counts the connections it was given.
 */
async function upstream(): Promise<{ url: string; server: Server; streams: ServerResponse[]; connections: () => number }> {
  const streams: ServerResponse[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/v1/swaps/submit-tx/events')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('retry:1000\n\n');
      streams.push(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, streams, connections: () => connections };
}

describe('status streams through the gateway', () => {
  let gateway: RunningService;
  let up: Awaited<ReturnType<typeof upstream>>;

  beforeAll(async () => {
    up = await upstream();
    gateway = await startServiceFromEnv(
      apiGateway,
      testServiceEnv({
        UPSTREAM_SWAP_GATEWAY_URL: up.url,
        UPSTREAM_TIMEOUT_MS: '300',
        STREAM_IDLE_TIMEOUT_MS: '1500',
        STREAMS_PER_CLIENT: '3',
      }),
    );
  });

  afterAll(async () => {
    for (const res of up.streams) res.end();
    await gateway.close();
    up.server.closeAllConnections();
    up.server.close();
  });

  const openStreams = () => up.streams.filter((s) => !s.writableEnded && !s.destroyed);

  it('passes each event on as it is written, beyond UPSTREAM_TIMEOUT_MS while comments flow, and ends when the upstream ends', async () => {
    // What the client has read so far, seen after every chunk it reads.
    let seen = 0;
    const reading = readEventStream(`${gateway.url}${STREAM}`, { timeoutMs: 10_000, until: (r) => ((seen = r.events.length), false) });
    const res = await eventually(() => openStreams()[0], 5_000, 10);
    for (let seq = 1; seq <= 4; seq++) {
      // Spaced past UPSTREAM_TIMEOUT_MS (300 ms), with a comment between.
      await new Promise((r) => setTimeout(r, 400));
      res.write(': \n\n');
      res.write(`id:${seq}\nevent:relaying\ndata:{"seq":${seq}}\n\n`);
      // Unbuffered: the client has this event before the next is written (one small event would sit in any buffer).
      await eventually(() => (seen >= seq ? true : undefined), 5_000, 5);
    }
    res.end();
    const read = await reading;
    expect(read.status).toBe(200);
    expect(read.ended).toBe(true);
    expect(read.events.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
    expect(read.comments.length).toBeGreaterThanOrEqual(4);
  });

  it('closes a stream silent for STREAM_IDLE_TIMEOUT_MS', async () => {
    const started = Date.now();
    const read = await readEventStream(`${gateway.url}${STREAM}`, { timeoutMs: 10_000 });
    expect(read.status).toBe(200);
    // Cut off, as a client's reconnect logic expects of a dead stream.
    expect(read.ended || read.broken).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('allows STREAMS_PER_CLIENT open streams per client, 429 past it, while ordinary requests go on', async () => {
    for (const res of openStreams()) res.end();
    const aborts = [new AbortController(), new AbortController(), new AbortController()];
    const held = await Promise.all(aborts.map((a) => fetch(`${gateway.url}${STREAM}`, { signal: a.signal })));
    expect(held.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await fetch(`${gateway.url}${STREAM}`);
    expect(refused.status).toBe(429);
    expect(await jsonOf(refused)).toMatchObject({
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many open status streams from this client (at most 3); close one first',
    });
    // Not counted against the ordinary bound, and served over connections of their own.
    const tokens = await Promise.all(Array.from({ length: 5 }, () => fetch(`${gateway.url}/v1/swaps/tokens`)));
    expect(tokens.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    aborts[0].abort();
    await eventually(
      async () => {
        const again = await fetch(`${gateway.url}${STREAM}`, { signal: aborts[0].signal.aborted ? undefined : aborts[0].signal });
        if (again.status !== 200) return undefined;
        await again.body?.cancel();
        return true;
      },
      5_000,
      50,
    );
    for (const a of aborts.slice(1)) a.abort();
  });

  it('ends open streams when the gateway stops, rather than waiting for them', async () => {
    const second = await startServiceFromEnv(apiGateway, testServiceEnv({ UPSTREAM_SWAP_GATEWAY_URL: up.url }));
    const before = up.streams.length;
    const reading = readEventStream(`${second.url}${STREAM}`, { timeoutMs: 10_000 });
    await eventually(() => up.streams.length > before || undefined, 5_000, 10);
    const stopping = Date.now();
    await second.close();
    expect(Date.now() - stopping).toBeLessThan(3_000);
    const read = await reading;
    expect(read.status).toBe(200);
    expect(read.ended || read.broken).toBe(true);
  });
});
