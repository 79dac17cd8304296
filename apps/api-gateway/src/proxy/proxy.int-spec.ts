import { connect } from 'node:net';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { request } from 'node:http';
import { startServiceFromEnv, type RunningService } from '@swap/service-kit';
import { jsonOf, testServiceEnv, unusedPort } from '@swap/testing';
import { apiGateway } from '../api-gateway.definition';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** An upstream that records what reached it and answers with a fixed JSON body. */
function echoUpstream(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end('{"ok":true}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen })),
  );
}

/**
 * Sends a body with chunked transfer encoding (no content-length); with `expectContinue`,
 * as curl does for bodies over 1 KB: `Expect: 100-continue`, the body only after the 100.
 */
function chunkedPost(url: string, size: number, options: { expectContinue?: boolean } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    if (options.expectContinue) headers.expect = '100-continue';
    const req = request(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    const send = () => {
      const chunk = Buffer.alloc(Math.min(64 * 1024, size), 'a');
      for (let sent = 0; sent < size; sent += chunk.length) req.write(chunk);
      req.end();
    };
    if (options.expectContinue) req.on('continue', send);
    else send();
  });
}

describe('api-gateway proxying', () => {
  let upstream: Awaited<ReturnType<typeof echoUpstream>>;
  let hanging: Server;
  let gateway: RunningService;
  let downPort: number;

  beforeAll(async () => {
    upstream = await echoUpstream();
    hanging = createServer(() => undefined);
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    downPort = await unusedPort();
    gateway = await startServiceFromEnv(
      apiGateway,
      testServiceEnv({
        UPSTREAM_SWAP_GATEWAY_URL: upstream.url,
        UPSTREAM_ORACLE_CANDLES_URL: `http://127.0.0.1:${(hanging.address() as { port: number }).port}`,
        UPSTREAM_RELAY_TRACKER_URL: `http://127.0.0.1:${downPort}`,
        UPSTREAM_QUOTE_BUILDER_URL: `http://127.0.0.1:${downPort}`,
        UPSTREAM_TIMEOUT_MS: '300',
      }),
    );
  });

  afterAll(async () => {
    await gateway.close();
    upstream.server.close();
    hanging.closeAllConnections();
    hanging.close();
  });

  beforeEach(() => (upstream.seen.length = 0));

  it('passes method, path, query, headers (x-api-key included) and body bytes through unchanged', async () => {
    const body = '{"amount": 123456789012345678901234567890, "spaced" : true}';
    const res = await fetch(`${gateway.url}/v1/swaps/quote?includeTxData=true&x=%20y`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-api-key': 'svc_secret', 'x-custom': 'kept' },
      body,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(await jsonOf(res)).toEqual({ ok: true });
    const [seen] = upstream.seen;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/v1/swaps/quote?includeTxData=true&x=%20y');
    expect(seen.headers['x-api-key']).toBe('svc_secret');
    expect(seen.headers['x-custom']).toBe('kept');
    expect(seen.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(seen.body.toString()).toBe(body);
  });

  it('routes /v1/leverage-yield to the swaps service too, and every method', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const res = await fetch(`${gateway.url}/v1/leverage-yield/positions/1`, { method });
      expect(res.status).toBe(201);
    }
    expect(upstream.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /v1/leverage-yield/positions/1',
      'PUT /v1/leverage-yield/positions/1',
      'PATCH /v1/leverage-yield/positions/1',
      'DELETE /v1/leverage-yield/positions/1',
    ]);
  });

  it('assigns a request id, or keeps the caller one, and hands it to the upstream', async () => {
    const given = await fetch(`${gateway.url}/v1/swaps/tokens`, { headers: { 'x-request-id': 'trace-42' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    const fresh = await fetch(`${gateway.url}/v1/swaps/tokens`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(upstream.seen.map((s) => s.headers['x-request-id'])).toEqual(['trace-42', fresh.headers.get('x-request-id')]);
  });

  it('drops an X-Forwarded-For written by an untrusted client, and keeps the chain from a trusted proxy', async () => {
    await fetch(`${gateway.url}/v1/swaps/tokens`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(upstream.seen[0].headers['x-forwarded-for']).toBe('127.0.0.1');
    const behindProxy = await startServiceFromEnv(
      apiGateway,
      testServiceEnv({ UPSTREAM_SWAP_GATEWAY_URL: upstream.url, TRUSTED_PROXIES: 'loopback' }),
    );
    try {
      await fetch(`${behindProxy.url}/v1/swaps/tokens`, { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' } });
      // From the right: our loopback peer (trusted), 203.0.113.9 (the first untrusted hop: the client); 198.51.100.1 is its claim.
      expect(upstream.seen[1].headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    } finally {
      await behindProxy.close();
    }
  });

  it('answers an unknown path with a 404 in the error shape', async () => {
    const res = await fetch(`${gateway.url}/v1/swapsx/tokens`);
    expect(res.status).toBe(404);
    expect(await jsonOf(res)).toMatchObject({
      statusCode: 404,
      code: 'ROUTE_NOT_FOUND',
      message: 'No route for GET /v1/swapsx/tokens',
      requestId: expect.any(String),
    });
    expect(upstream.seen).toHaveLength(0);
  });

  it('refuses a path climbing out of its route, encoded or not, naming why; the upstream is not asked', async () => {
    for (const path of ['/v1/swaps/tokens/..%2F..%2Fetc%2Fpasswd', '/v1/swaps/a%2F%2e%2e%2Fb']) {
      const res = await fetch(`${gateway.url}${path}`);
      expect({ path, status: res.status, body: await jsonOf(res) }).toMatchObject({
        path,
        status: 400,
        body: { code: 'BAD_REQUEST', message: 'The path must not hold .. segments (encoded or not) nor name another host' },
      });
    }
    expect(upstream.seen).toHaveLength(0);
  });

  it('passes every method it parses on, so the service behind answers for the ones it does not take', async () => {
    const status = await new Promise<number>((resolve, reject) =>
      request(`${gateway.url}/v1/swaps/tokens`, { method: 'TRACE' }, (res) => (res.resume(), resolve(res.statusCode!)))
        .on('error', reject)
        .end(),
    );
    expect({ status, seen: upstream.seen.map((s) => s.method) }).toEqual({ status: 201, seen: ['TRACE'] });
  });

  it('refuses a body over 1 MiB with 413, declared or chunked, without reaching the upstream', async () => {
    const big = 'a'.repeat(1024 * 1024 + 1);
    const declared = await fetch(`${gateway.url}/v1/swaps/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(await jsonOf(declared)).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    const chunked = await chunkedPost(`${gateway.url}/v1/swaps/quote`, 2 * 1024 * 1024);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(upstream.seen.filter((s) => s.body.length > 1024 * 1024)).toHaveLength(0);
  });

  it('answers Expect: 100-continue itself and passes the body on (curl sends it for bodies over 1 KB)', async () => {
    const res = await chunkedPost(`${gateway.url}/v1/swaps/quote`, 2048, { expectContinue: true });
    expect(res.status).toBe(201);
    expect(upstream.seen[0].body.length).toBe(2048);
    expect(upstream.seen[0].headers.expect).toBeUndefined();
    const over = await chunkedPost(`${gateway.url}/v1/swaps/quote`, 2 * 1024 * 1024, { expectContinue: true });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers its own refusals on the solver API in that API’s wire format', async () => {
    const down = await fetch(`${gateway.url}/v1/intent/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(down.status).toBe(502);
    expect(await jsonOf(down)).toEqual({ detail: { code: -999, message: 'The upstream service is unavailable' } });
    const badUrl = await fetch(`${gateway.url}/v1/intent/%zz`);
    expect(badUrl.status).toBe(400);
    expect(await jsonOf(badUrl)).toEqual({ detail: { code: -999, message: expect.stringContaining('not a valid URL') } });
    const large = await fetch(`${gateway.url}/v1/intent/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(large.status).toBe(413);
    expect((await jsonOf(large)).detail).toMatchObject({ code: -999, message: expect.stringContaining('exceeds the limit') });
  });

  it('leaves the checks of a request’s content to the service behind (it answers in its own shape)', async () => {
    const res = await fetch(`${gateway.url}/v1/swaps/tokens?x=1&x=2&y=%00`);
    expect(res.status).toBe(201);
    expect(upstream.seen[0].url).toBe('/v1/swaps/tokens?x=1&x=2&y=%00');
  });

  it('refuses an expected body over the limit before it is sent, and a GET declaring one', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1', () =>
        socket.write(
          `POST /v1/swaps/quote HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
        ),
      );
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(data));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).not.toContain('100 Continue');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    const get = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${gateway.url}/v1/swaps/tokens`,
        { method: 'GET', headers: { 'content-length': String(2 * 1024 * 1024) } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(get).toBe(413);
    expect(upstream.seen).toEqual([]);
  });

  it('closes the client connection when the client asks (HTTP/1.0, Connection: close), whatever the upstream keeps', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1', () => socket.write('GET /v1/swaps/tokens HTTP/1.0\r\n\r\n'));
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(data));
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 201 /);
    expect(answer.toLowerCase()).not.toContain('keep-alive');
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const res = await fetch(`${gateway.url}/v1/swaps/quote`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'a'.repeat(1024 * 1024),
    });
    expect(res.status).toBe(201);
    expect(upstream.seen[0].body.length).toBe(1024 * 1024);
  });

  it('answers 502 naming no internals when the upstream is down', async () => {
    const res = await fetch(`${gateway.url}/v1/a/status`);
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({
      statusCode: 502,
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The upstream service is unavailable',
    });
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(String(downPort));
  });

  it('answers 504 when the upstream is slower than UPSTREAM_TIMEOUT_MS', async () => {
    const started = Date.now();
    const res = await fetch(`${gateway.url}/v1/be/oracle/markets`);
    expect(res.status).toBe(504);
    expect(await jsonOf(res)).toMatchObject({ statusCode: 504, code: 'UPSTREAM_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
