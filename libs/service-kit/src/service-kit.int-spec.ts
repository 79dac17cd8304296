import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { ServiceConfig, WithBus, WithCache } from '@swap/config';
import { eventually, jsonOf, LogCapture, testServiceEnv, unusedPort } from '@swap/testing';
import { IsInt, IsString, Max, Min } from 'class-validator';
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

@Controller('v1/test')
class TestController {
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
    expect(await jsonOf(await fetch(`${service.url}/healthz`))).toEqual({ status: 'ok', service: 'swap-gateway' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await jsonOf(ready)).checks).toMatchObject({ nats: { status: 'up' }, redis: { status: 'up' } });
  });

  it('answers validation failures with 400, naming each field and rule', async () => {
    const res = await fetch(`${service.url}/v1/test/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 7, percentage: 101 }) });
    expect(res.status).toBe(400);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', requestId: res.headers.get('x-request-id') });
    expect(body.details).toEqual([
      { field: 'name', rule: 'isString', message: 'name must be a string' },
      { field: 'percentage', rule: 'max', message: 'percentage must not be greater than 100' },
    ]);
  });

  it('refuses unknown fields and malformed JSON', async () => {
    const extra = await fetch(`${service.url}/v1/test/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a', percentage: 5, admin: true }) });
    expect(extra.status).toBe(400);
    expect((await jsonOf(extra)).message).toBe('property admin should not exist');
    const broken = await fetch(`${service.url}/v1/test/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expect(broken.status).toBe(400);
    expect(await jsonOf(broken)).toMatchObject({ code: 'BAD_REQUEST', message: 'Request body is not valid JSON' });
  });

  it('logs JSON lines that carry the request id given by the caller', async () => {
    await fetch(`${service.url}/v1/test/items`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'kit-req-1' }, body: '{"name":"a","percentage":5}' });
    const line = logs.where((l) => l.requestId === 'kit-req-1' && l.msg === 'request completed')[0];
    expect(line).toMatchObject({ service: 'swap-gateway', route: '/v1/test/items', statusCode: 201, method: 'POST' });
  });

  it('exposes request counts and latency histograms by route and status', async () => {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/v1\/test\/items",status_code="400",service="swap-gateway"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",.*route="\/v1\/test\/items",status_code="201"/);
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
      const res = await fetch(`${service.url}/readyz`);
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
    await expect(startServiceFromEnv(definition, testServiceEnv({ NATS_URL: `nats://127.0.0.1:${port}` }))).rejects.toThrow(`Cannot connect to NATS at nats://127.0.0.1:${port}`);
  });
});

describe('graceful shutdown', () => {
  it('finishes the request in flight, then stops accepting and closes', async () => {
    const service = await startServiceFromEnv(definition, testServiceEnv());
    const started = new Promise<void>((r) => (slowStarted = r));
    const inFlight = fetch(`${service.url}/v1/test/slow`);
    await started;
    const closed = service.close();
    const server = service.app.getHttpAdapter().getInstance().server;
    await eventually(() => !server.listening);
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    releaseSlow();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ finished: true });
    await closed;
  });
});
