import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { eventually, testServiceEnv } from '@swap/testing';
import { apiGateway } from '../api-gateway.definition';

/** What a raw client was told before its connection closed, and when it closed (ms after it opened). */
interface Answer {
  status: number;
  body: { code?: string; message?: string } | undefined;
  closedAfterMs: number;
}

const STILL_OPEN: Answer = { status: 0, body: undefined, closedAfterMs: Number.POSITIVE_INFINITY };

/**
 * A client on its own socket: sends `head`, then `drip` every `everyMs` (a header line, or one
 * byte of a body) until the server answers or closes. `answer` settles when the connection
 * closes, or with STILL_OPEN after `giveUpMs` (the connection is then dropped).
 */
function rawClient(
  port: number,
  head: string,
  options: { drip?: string; everyMs?: number; localAddress?: string; giveUpMs?: number } = {},
) {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
  const opened = Date.now();
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('error', () => undefined); // a drip written after the server closed: expected
  const connected = new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.once('connect', () => {
    socket.write(head);
    if (options.drip) timer = setInterval(() => socket.writable && socket.write(options.drip!), options.everyMs ?? 50);
  });
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const answer = new Promise<Answer>((resolve) => {
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(STILL_OPEN);
    }, options.giveUpMs ?? 4_000);
    socket.once('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ status: Number(received.split(' ')[1] ?? 0), body: jsonBody(received), closedAfterMs: Date.now() - opened });
    });
  });
  return { socket, connected, answer, received: () => received };
}

/** The JSON body of a raw answer with a content-length (the error answers), else undefined. */
function jsonBody(raw: string): Answer['body'] {
  const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  try {
    return JSON.parse(text) as Answer['body'];
  } catch {
    return undefined;
  }
}

/** A plain request through the gateway, from `localAddress`, naming `forwardedFor` as the client. */
function get(
  port: number,
  path: string,
  options: { localAddress?: string; forwardedFor?: string } = {},
): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const headers = options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {};
    const req = request({ host: '127.0.0.1', port, path, localAddress: options.localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: Date.now() - started }));
    });
    req.setTimeout(3_000, () => req.destroy(new Error(`no answer to ${path} within 3000 ms`)));
    req.on('error', reject);
    req.end();
  });
}

const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 2_000;
const KEEP_ALIVE_TIMEOUT_MS = 300;
const PER_CLIENT = 4;
const BUFFER_LIMIT = 4_096;

describe('api-gateway and slow clients', () => {
  let gateway: RunningService;
  let upstream: Server;
  /** Requests that reached the upstream, and those of them it saw abandoned before their body ended. */
  const arrived: IncomingMessage[] = [];
  const abandoned: IncomingMessage[] = [];
  let port: number;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      arrived.push(req);
      req.on('close', () => !req.complete && abandoned.push(req));
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}'));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    gateway = await startServiceFromEnv(
      apiGateway,
      testServiceEnv({
        UPSTREAM_SWAP_GATEWAY_URL: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`,
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
        UPSTREAM_CONCURRENCY_PER_CLIENT: String(PER_CLIENT),
        BODY_BUFFER_LIMIT_BYTES: String(BUFFER_LIMIT),
        // 127.0.0.2 plays a load balancer: its X-Forwarded-For names the client. 127.0.0.1 and
        // 127.0.0.3 are clients themselves, whatever their header says.
        TRUSTED_PROXIES: '127.0.0.2',
      }),
    );
    port = gateway.port;
  });

  afterAll(async () => {
    await gateway.close();
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  });

  beforeEach(() => {
    arrived.length = 0;
    abandoned.length = 0;
  });

  it('answers 408 and closes the connection of a client that trickles its headers', async () => {
    const client = rawClient(port, 'GET /v1/swaps/tokens HTTP/1.1\r\nHost: gateway\r\n', { drip: 'X-Slow: y\r\n', everyMs: 50 });
    const answer = await client.answer;
    expect(answer).toMatchObject({ status: 408, body: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' } });
    // Cut by the headers' limit, well before the whole request's.
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(arrived).toHaveLength(0);
  });

  it('answers 408 and closes the connection of a client that trickles its body, which never reaches the upstream', async () => {
    const head = 'POST /v1/swaps/submit-tx HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const client = rawClient(port, head, { drip: '{', everyMs: 50 });
    const answer = await client.answer;
    expect(answer).toMatchObject({ status: 408, body: { code: 'REQUEST_TIMEOUT' } });
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 200);
    // The body is read whole before the upstream is asked: no upstream connection was taken.
    expect(arrived).toHaveLength(0);
    expect(abandoned).toHaveLength(0);
  });

  it('takes no upstream connection for a slow body: with more slow uploaders than the pool has connections, others are served at once', async () => {
    // 300 clients behind the trusted balancer (one upload each, under their own bound): more
    // than the 256 connections of the service's pool, which bodies streamed upstream held.
    const head = (i: number) =>
      `POST /v1/swaps/submit-tx HTTP/1.1\r\nHost: gateway\r\nX-Forwarded-For: 198.18.${i >> 8}.${i & 255}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
    const slow = Array.from({ length: 300 }, (_, i) => rawClient(port, head(i), { localAddress: '127.0.0.2', giveUpMs: 3_000 }));
    try {
      await Promise.all(slow.map((c) => c.connected));
      expect(await get(port, '/v1/swaps/tokens', { localAddress: '127.0.0.4' })).toMatchObject({ status: 201 });
      const post = await fetch(`http://127.0.0.1:${port}/v1/swaps/submit-tx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"whole":true}',
        signal: AbortSignal.timeout(3_000),
      });
      expect(post.status).toBe(201);
      expect(slow.filter((c) => c.received() !== '').map((c) => c.received().split(' ')[1])).toEqual([]);
      expect(arrived.map((r) => r.method)).toEqual(['GET', 'POST']);
    } finally {
      for (const c of slow) c.socket.destroy();
    }
  });

  it('bounds the bytes of all bodies still arriving: past BODY_BUFFER_LIMIT_BYTES a body is refused with 429, not held', async () => {
    // Three clients behind the balancer, each 1 500 bytes into a 2 000-byte body: the third passes 4 096.
    const head = (i: number) =>
      `POST /v1/swaps/submit-tx HTTP/1.1\r\nHost: gateway\r\nX-Forwarded-For: 198.19.0.${i}\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n${'x'.repeat(1_500)}`;
    const first = [
      rawClient(port, head(1), { localAddress: '127.0.0.2', giveUpMs: 3_000 }),
      rawClient(port, head(2), { localAddress: '127.0.0.2', giveUpMs: 3_000 }),
    ];
    try {
      await Promise.all(first.map((c) => c.connected));
      await eventually(async () => (await get(port, '/v1/swaps/tokens')).status === 201, 2_000);
      const third = rawClient(port, head(3), { localAddress: '127.0.0.2', giveUpMs: 3_000 });
      first.push(third);
      const answer = await third.answer;
      expect(answer).toMatchObject({
        status: 429,
        body: { code: 'TOO_MANY_REQUESTS', message: 'The gateway is receiving too many request bodies at once; retry shortly' },
      });
      expect(third.received()).toMatch(/retry-after: 1/i);
      // The two held uploads are untouched, and nothing reached the upstream.
      expect(first.slice(0, 2).map((c) => c.received())).toEqual(['', '']);
      expect(arrived.map((r) => r.method)).toEqual(['GET']);
    } finally {
      for (const c of first) c.socket.destroy();
    }
  });

  it('closes a kept-alive connection left idle', async () => {
    const client = rawClient(port, 'GET /v1/swaps/tokens HTTP/1.1\r\nHost: gateway\r\n\r\n');
    const answer = await client.answer;
    expect(answer.status).toBe(201);
    // Node adds a second to the keep-alive limit before it closes the socket.
    expect(answer.closedAfterMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + 2_000);
  });

  it('bounds what one client holds upstream: while 200 of its slow uploads are open, another client is served at once', async () => {
    const head = (i: number) =>
      `POST /v1/swaps/submit-tx HTTP/1.1\r\nHost: gateway\r\nX-Forwarded-For: 203.0.113.7\r\nX-Request-Id: slow-${i}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
    const slow = Array.from({ length: 200 }, (_, i) => rawClient(port, head(i), { localAddress: '127.0.0.2', giveUpMs: 3_000 }));
    try {
      await Promise.all(slow.map((c) => c.connected));
      // PER_CLIENT of them are taken (their bodies read as they come); the rest are refused at once.
      const refused = await eventually(() => {
        const answered = slow.filter((c) => c.received().includes('\r\n\r\n{'));
        return answered.length === slow.length - PER_CLIENT && answered;
      }, 2_000);
      expect(refused.map((c) => c.received().split(' ')[1])).toEqual(Array(refused.length).fill('429'));
      expect(jsonBody(refused[0].received())).toEqual({
        statusCode: 429,
        code: 'TOO_MANY_REQUESTS',
        message: `Too many requests in progress from this client (at most ${PER_CLIENT} at once); retry when one has finished`,
        requestId: expect.any(String),
      });
      expect(arrived).toHaveLength(0);

      // Meanwhile others are served: a client behind the same balancer, and one of its own.
      expect(await get(port, '/v1/swaps/tokens', { localAddress: '127.0.0.2', forwardedFor: '198.51.100.20' })).toMatchObject({
        status: 201,
      });
      expect(await get(port, '/v1/swaps/tokens')).toMatchObject({ status: 201 });
      const held = slow.filter((c) => !c.received());
      expect(held).toHaveLength(PER_CLIENT);
      expect(held.filter((c) => c.socket.destroyed)).toEqual([]);
    } finally {
      for (const c of slow) c.socket.destroy();
    }
  });

  it('counts a client by its own address when it is no trusted proxy, whatever X-Forwarded-For it sends', async () => {
    const head = (i: number) =>
      `POST /v1/swaps/submit-tx HTTP/1.1\r\nHost: gateway\r\nX-Forwarded-For: 192.0.2.${i}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
    const slow = Array.from({ length: PER_CLIENT + 1 }, (_, i) => rawClient(port, head(i), { localAddress: '127.0.0.3', giveUpMs: 3_000 }));
    try {
      await Promise.all(slow.map((c) => c.connected));
      const refused = await eventually(() => slow.find((c) => c.received().includes('\r\n\r\n{')), 2_000);
      expect(refused.received().split(' ')[1]).toBe('429');
      // The other PER_CLIENT are held (their bodies still coming), none refused.
      expect(slow.filter((c) => c !== refused && c.received() !== '')).toEqual([]);
    } finally {
      for (const c of slow) c.socket.destroy();
    }
  });
});
