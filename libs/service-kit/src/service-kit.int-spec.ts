import { Body, Controller, Delete, Get, Module, Param, Post, Query } from '@nestjs/common';
import { AppError, NestedObject } from '@swap/contracts';
import { connect } from 'node:net';
import { ConfigError, ServiceConfig, WithBus, WithCache } from '@swap/config';
import { eventually, jsonOf, LogCapture, testServiceEnv, unusedPort } from '@swap/testing';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import type { ServiceDefinition } from './service-definition';
import { startServiceFromEnv } from './start-service-from-env';
import type { RunningService } from './start-service';

let releaseSlow: () => void = () => undefined;
let slowStarted: () => void = () => undefined;

class CreateItem {
  @IsString()
  name!: string;

  @Min(1)
  @Max(100)
  @IsInt()
  percentage!: number;
}

class Fee {
  @IsString()
  address!: string;
}

class CreateOrder {
  @IsString()
  name!: string;

  @IsOptional()
  @NestedObject(() => Fee)
  fee?: Fee;
}

class ReadQuery {
  @Matches(/^\d+$/, { message: 'limit must be digits' })
  limit: string = '10';

  @IsString()
  symbol!: string;
}

@Controller('v1/test')
class TestController {
  @Get('read')
  read(@Query() query: ReadQuery) {
    return { ...query };
  }

  @Get('things/:key')
  thing(@Param('key') key: string) {
    throw AppError.notFound(`Unknown thing: ${key}`);
  }

  @Get('checked/:key')
  checked(@Param('key') key: string) {
    throw AppError.validation([{ field: 'key', rule: 'known', message: `key ${key} is not known` }]);
  }

  @Post('orders')
  order(@Body() body: CreateOrder) {
    return { name: body.name };
  }

  @Delete('things/:key')
  remove(@Param('key') key: string) {
    return { removed: key };
  }

  @Get('slow')
  async slow() {
    slowStarted();
    await new Promise<void>((r) => (releaseSlow = r));
    return { finished: true };
  }

  @Post('items')
  create(@Body() body: CreateItem) {
    return { created: body.name };
  }
}

@Module({ controllers: [TestController] })
class TestModule {}

class TestConfig extends WithCache(WithBus(ServiceConfig)) {}

const definition: ServiceDefinition<TestConfig> = {
  name: 'swap-gateway',
  title: 'test service',
  description: 'a service built with the kit, for its own tests',
  configClass: TestConfig,
  module: TestModule,
  uses: { bus: true, cache: true },
};

describe('a service started by the kit, against NATS and Redis', () => {
  let service: RunningService;
  const logs = new LogCapture();

  beforeAll(async () => {
    service = await startServiceFromEnv(definition, testServiceEnv({ LOG_LEVEL: 'info' }), { logDestination: logs });
  });

  afterAll(() => service.close());

  it('is alive and ready, naming the dependencies it checked', async () => {
    expect(await jsonOf(await fetch(`${service.adminUrl}/healthz`))).toEqual({ status: 'ok', service: 'swap-gateway' });
    const ready = await fetch(`${service.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect((await jsonOf(ready)).checks).toMatchObject({ nats: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers validation failures with 400, naming each field and rule', async () => {
    const res = await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 7, percentage: 101 }),
    });
    expect(res.status).toBe(400);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', requestId: res.headers.get('x-request-id') });
    expect(body.details).toEqual([
      { field: 'name', rule: 'isString', message: 'name must be a string' },
      { field: 'percentage', rule: 'max', message: 'percentage must not be greater than 100' },
    ]);
  });

  it('refuses unknown fields and malformed JSON', async () => {
    const extra = await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a', percentage: 5, admin: true }),
    });
    expect(extra.status).toBe(400);
    expect((await jsonOf(extra)).message).toBe('property admin should not exist');
    const broken = await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(broken.status).toBe(400);
    expect(await jsonOf(broken)).toMatchObject({ code: 'BAD_REQUEST', message: 'Request body is not valid JSON' });
  });

  it('logs JSON lines that carry the request id given by the caller', async () => {
    await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'kit-req-1' },
      body: '{"name":"a","percentage":5}',
    });
    const line = logs.where((l) => l.requestId === 'kit-req-1' && l.msg === 'request completed')[0];
    expect(line).toMatchObject({ service: 'swap-gateway', route: '/v1/test/items', statusCode: 201, method: 'POST' });
    // A secret a client puts in the query string never reaches the log, whatever its name: the log has the path only.
    await fetch(`${service.url}/v1/test/read?symbol=a&x-api-key=svc_LeakedLeakedLeaked&auth=hunter2-in-the-query`, {
      headers: { 'x-request-id': 'kit-req-2' },
    });
    const leaked = logs.where((l) => l.requestId === 'kit-req-2' && l.msg === 'request completed')[0];
    expect(leaked).toMatchObject({ path: '/v1/test/read', statusCode: 200 });
    expect(logs.lines.map((l) => JSON.stringify(l)).filter((l) => /Leaked|hunter2|symbol=/.test(l))).toEqual([]);
  });

  it('exposes request counts and latency histograms by route and status', async () => {
    const text = await (await fetch(`${service.adminUrl}/metrics`)).text();
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/v1\/test\/items",status_code="400",service="swap-gateway"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",.*route="\/v1\/test\/items",status_code="201"/);
  });

  it('keeps health, readiness and metrics off the public port', async () => {
    expect(service.adminUrl).not.toBe(service.url);
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${service.url}${path}`)).status).toBe(404);
    expect((await fetch(`${service.adminUrl}/v1/test/read?symbol=a`)).status).toBe(404);
  });

  it('refuses an ADMIN_PORT equal to PORT', async () => {
    const port = String(await unusedPort());
    await expect(startServiceFromEnv(definition, testServiceEnv({ PORT: port, ADMIN_PORT: port }))).rejects.toThrow(
      'ADMIN_PORT must differ from PORT',
    );
  });

  it('describes its routes in OpenAPI', async () => {
    const doc = await jsonOf(await fetch(`${service.url}/openapi.json`));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/test/slow', '/v1/test/items']));
    expect(doc.paths['/healthz']).toBeUndefined();
  });
});

describe('readiness when a dependency is down', () => {
  it('stays ready without Redis, a cache it serves without, and reports it down', async () => {
    const service = await startServiceFromEnv(definition, testServiceEnv({ REDIS_URL: `redis://127.0.0.1:${await unusedPort()}` }));
    try {
      const res = await fetch(`${service.adminUrl}/readyz`);
      expect(res.status).toBe(200);
      const body = await jsonOf(res);
      expect(body.status).toBe('degraded');
      expect(body.checks.nats.status).toBe('up');
      expect(body.checks.redis).toMatchObject({ status: 'down', optional: true });
    } finally {
      await service.close();
    }
  });

  it('refuses to start when NATS is unreachable, saying where it looked', async () => {
    const port = await unusedPort();
    await expect(startServiceFromEnv(definition, testServiceEnv({ NATS_URL: `nats://127.0.0.1:${port}` }))).rejects.toThrow(
      `Cannot connect to NATS at nats://127.0.0.1:${port}`,
    );
  });
});

describe('graceful shutdown', () => {
  it('finishes the request in flight, then stops accepting and closes', async () => {
    const service = await startServiceFromEnv(definition, testServiceEnv());
    const started = new Promise<void>((r) => (slowStarted = r));
    const inFlight = fetch(`${service.url}/v1/test/slow`);
    await started;
    expect(service.closingStage()).toBeUndefined();
    const closed = service.close();
    const server = service.app.getHttpAdapter().getInstance().server;
    await eventually(() => !server.listening);
    await expect(fetch(`${service.url}/v1/test/read?symbol=a`)).rejects.toThrow();
    // The admin port stays up through the drain, telling probes the service is on its way out.
    const draining = await fetch(`${service.adminUrl}/readyz`);
    expect(draining.status).toBe(503);
    expect((await jsonOf(draining)).code).toBe('SHUTTING_DOWN');
    expect(service.closingStage()).toBe('closing the application (requests and bus handlers in flight)');
    releaseSlow();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ finished: true });
    await closed;
    expect(service.closingStage()).toBe('stopped');
  });
});

describe('the edges every service answers in the error shape', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startServiceFromEnv(definition, testServiceEnv());
  });
  afterAll(() => service.close());

  const shaped = (body: Record<string, unknown>, statusCode: number, code: string) => {
    expect(body).toEqual({ statusCode, code, message: expect.any(String), requestId: expect.any(String) });
  };
  /** What a client that writes its own bytes gets back: status line and body. */
  const raw = (request: string) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve({ status: Number(data.split(' ')[1]), body: JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4)) }));
    });

  it('answers a malformed percent-escape 400 and an over-long path segment 414, echoing neither', async () => {
    const bad = await fetch(`${service.url}/v1/test/things/%zz`);
    expect(bad.status).toBe(400);
    const badBody = await jsonOf(bad);
    shaped(badBody, 400, 'BAD_REQUEST');
    expect(badBody.requestId).toBe(bad.headers.get('x-request-id'));
    const long = await fetch(`${service.url}/v1/test/things/${'a'.repeat(101)}`);
    expect(long.status).toBe(414);
    const longBody = await jsonOf(long);
    shaped(longBody, 414, 'URI_TOO_LONG');
    expect(JSON.stringify(longBody)).not.toContain('aaaa');
    // Also where no route has a parameter there (a catch-all would take it): not a 404.
    const unrouted = await fetch(`${service.url}/nowhere/${'b'.repeat(101)}/x`);
    expect({ status: unrouted.status, code: (await jsonOf(unrouted)).code }).toEqual({ status: 414, code: 'URI_TOO_LONG' });
    expect((await fetch(`${service.url}/nowhere/${'%41'.repeat(40)}`)).status).toBe(404);
  });

  it('answers an HTTP/1.1 request without Host 400 in the error shape; HTTP/1.0 needs none', async () => {
    const res = await raw('GET /v1/test/read?symbol=a HTTP/1.1\r\n\r\n');
    expect(res.status).toBe(400);
    shaped(res.body, 400, 'BAD_REQUEST');
    expect(res.body.message).toBe('An HTTP/1.1 request needs a Host header');
    expect((await raw('GET /nowhere HTTP/1.0\r\n\r\n')).status).toBe(404);
  });

  it('answers headers over the limit 431 in the error shape', async () => {
    const res = await raw(`GET /v1/test/read?symbol=a HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    shaped(res.body, 431, 'HEADERS_TOO_LARGE');
  });

  it('takes JSON bodies only: a form post or text is 415, an empty JSON body is no body', async () => {
    const form = await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=a&percentage=5',
    });
    expect(form.status).toBe(415);
    shaped(await jsonOf(form), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const text = await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"name":"a","percentage":5}',
    });
    expect(text.status).toBe(415);
    for (const type of ['application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'Application/JSON']) {
      const withCharset = await fetch(`${service.url}/v1/test/items`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: '{"name":"a","percentage":5}',
      });
      expect({ type, status: withCharset.status }).toEqual({ type, status: 201 });
    }
    const lookalike = await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/jsonp' },
      body: '{"name":"a","percentage":5}',
    });
    expect(lookalike.status).toBe(415);
    const vendorJson = await fetch(`${service.url}/v1/test/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.api+json' },
      body: '{"name":"a","percentage":5}',
    });
    expect(vendorJson.status).toBe(201);
    const send = (headers: Record<string, string>, body: Buffer) =>
      fetch(`${service.url}/v1/test/items`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(
        async (res) => ({ status: res.status, ...(await jsonOf(res)) }),
      );
    const json = Buffer.from('{"name":"caf\u00e9","percentage":5}');
    expect(await send({}, json)).toMatchObject({ status: 201 });
    expect(await send({}, Buffer.from('{"name":"caf\xe9","percentage":5}', 'latin1'))).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'The request body must be JSON in UTF-8: it holds bytes that are not UTF-8',
    });
    expect(await send({ 'content-type': 'application/json; charset=latin1' }, json)).toMatchObject({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Content-Type charset must be utf-8, not "latin1"',
    });
    expect(await send({ 'content-encoding': 'gzip' }, json)).toMatchObject({
      status: 415,
      message: 'Content-Encoding "gzip" is not accepted: send the body uncompressed',
    });
    const emptyDelete = await fetch(`${service.url}/v1/test/things/k`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(emptyDelete.status).toBe(200);
    expect(await jsonOf(emptyDelete)).toEqual({ removed: 'k' });
  });

  it('says a missing field is required, a nested one by its path, and a non-object where an object belongs', async () => {
    const post = (body: unknown) =>
      fetch(`${service.url}/v1/test/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(jsonOf);
    expect((await post({})).details).toEqual([{ field: 'name', rule: 'isDefined', message: 'name is required' }]);
    expect((await post({ name: 'a', fee: {} })).details).toEqual([
      { field: 'fee.address', rule: 'isDefined', message: 'fee.address is required' },
    ]);
    expect((await post({ name: 'a', fee: { address: 5 } })).details).toEqual([
      { field: 'fee.address', rule: 'isString', message: 'fee.address must be a string' },
    ]);
    expect((await post({ name: 'a', fee: 'x' })).details).toEqual([{ field: 'fee', rule: 'isObject', message: 'fee must be an object' }]);
    // An array is not an object (class-validator's ValidateNested alone checks its elements instead).
    expect((await post({ name: 'a', fee: [] })).details).toEqual([{ field: 'fee', rule: 'isObject', message: 'fee must be an object' }]);
  });

  it('reads a JSON null as a field left out, and refuses a body that is not an object or names an inherited member', async () => {
    const post = (body: string) =>
      fetch(`${service.url}/v1/test/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const nulls = await post('{"name":"a","fee":null}');
    expect({ status: nulls.status, body: await jsonOf(nulls) }).toEqual({ status: 201, body: { name: 'a' } });
    expect((await jsonOf(await post('{"name":null}'))).details).toEqual([
      { field: 'name', rule: 'isDefined', message: 'name is required' },
    ]);
    for (const body of ['[]', '"x"', 'null', '7'])
      expect((await jsonOf(await post(body))).details).toEqual([
        { field: 'body', rule: 'isObject', message: 'the request body must be a JSON object' },
      ]);
    for (const key of ['toString', 'constructor', 'hasOwnProperty', '__defineGetter__']) {
      expect((await jsonOf(await post(`{"name":"a","${key}":1}`))).message).toBe(`property ${key} should not exist`);
    }
    expect((await jsonOf(await post('{"name":"a","fee":{"valueOf":1}}'))).message).toBe('property fee.valueOf should not exist');
    const proto = await post('{"name":"a","__proto__":{"admin":true}}');
    expect({ status: proto.status, message: (await jsonOf(proto)).message }).toEqual({
      status: 400,
      message: 'The request body must not contain __proto__ or constructor.prototype keys',
    });
  });

  it('ignores unknown query parameters, applies defaults, and refuses a repeated one by name', async () => {
    expect(await jsonOf(await fetch(`${service.url}/v1/test/read?symbol=ETH&_=1763816400&utm_source=x`))).toEqual({
      symbol: 'ETH',
      limit: '10',
    });
    const repeated = await fetch(`${service.url}/v1/test/read?symbol=ETH&symbol=BTC`);
    expect(repeated.status).toBe(400);
    expect(await jsonOf(repeated)).toMatchObject({
      message: 'the query parameter symbol must be given once',
      details: [{ field: 'symbol', rule: 'once', message: 'the query parameter symbol must be given once' }],
    });
    expect((await jsonOf(await fetch(`${service.url}/v1/test/read`))).message).toBe('symbol is required');
  });

  it('never echoes control characters or bidirectional overrides in a message or its details', async () => {
    const body = await jsonOf(await fetch(`${service.url}/v1/test/things/a%01%1b%0ab%c2%85%e2%80%ae`));
    expect(body.message).toBe('Unknown thing: a\\u0001\\u001b\\u000ab\\u0085\\u202e');
    const detailed = await jsonOf(await fetch(`${service.url}/v1/test/checked/x%01%e2%80%ae`));
    expect(detailed.details).toEqual([{ field: 'key', rule: 'known', message: 'key x\\u0001\\u202e is not known' }]);
  });
});

describe('a service on a NATS that admits clients without credentials', () => {
  it('refuses to start unless NATS_ALLOW_ANONYMOUS=true, naming the variable and why', async () => {
    const error = await startServiceFromEnv(definition, testServiceEnv({ NATS_ALLOW_ANONYMOUS: 'false' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(
        /lets clients in without credentials: anyone who reaches it could publish as any service .* or set NATS_ALLOW_ANONYMOUS=true where nothing else can reach that server/,
      ),
    ]);
    const allowed = await startServiceFromEnv(definition, testServiceEnv({ NATS_ALLOW_ANONYMOUS: 'true' }));
    await allowed.close();
  });
});
