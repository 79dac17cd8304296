import { Controller, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { ServiceConfig, WithBus } from '@swap/config';
import type { RpcSubject } from '@swap/contracts';
import { MessagingClient, NatsBus } from '@swap/messaging';
import { eventually, jsonOf, LogCapture, TestNatsServer, testServiceEnv, uniqueId } from '@swap/testing';
import type { ServiceDefinition } from './service-definition';
import { startServiceFromEnv } from './start-service-from-env';
import type { RunningService } from './start-service';

jest.setTimeout(30_000);

const PING = `${uniqueId('gate')}.ping` as RpcSubject;

@Controller()
class PingHandlers {
  @MessagePattern(PING)
  ping() {
    return { pong: true };
  }
}

@Module({ controllers: [PingHandlers] })
class PingModule {}

class PingConfig extends WithBus(ServiceConfig) {}

const definition: ServiceDefinition<PingConfig> = {
  name: 'quote-builder',
  title: 'bus intake test service',
  description: 'a bus-serving service built with the kit',
  configClass: PingConfig,
  module: PingModule,
  uses: { bus: true },
};

const metric = async (service: RunningService, name: string) => {
  const text = await (await fetch(`${service.adminUrl}/metrics`)).text();
  return Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
      ?.split(' ')
      .pop(),
  );
};

describe('a replica whose NATS goes away', () => {
  let nats: TestNatsServer;
  let service: RunningService;
  let caller: NatsBus;
  const logs = new LogCapture();

  beforeAll(async () => {
    nats = await TestNatsServer.start();
    service = await startServiceFromEnv(definition, testServiceEnv({ NATS_URL: nats.url, LOG_LEVEL: 'info' }), { logDestination: logs });
    caller = await NatsBus.connect({ servers: nats.url, name: 'gate-caller', subjectPrefix: testServiceEnv().NATS_SUBJECT_PREFIX });
  });

  afterAll(async () => {
    await service?.close();
    await caller?.close();
    await nats.remove();
  });

  it('pauses its intake while NATS is down (readiness 503), and joins its queue group again cleanly when NATS is back', async () => {
    const client = new MessagingClient(caller, { timeoutMs: 2_000 });
    expect(await client.request(PING, {} as never)).toEqual({ pong: true });
    expect(await metric(service, 'bus_intake_paused')).toBe(0);
    // service_ready says at each scrape what /readyz would, with nobody probing it.
    expect(await metric(service, 'service_ready')).toBe(1);
    expect(await jsonOf(await fetch(`${service.adminUrl}/readyz`))).toMatchObject({ status: 'ready', intake: 'taking' });

    await nats.stop('SIGKILL');
    await eventually(async () => (await metric(service, 'bus_intake_paused')) === 1, 15_000, 100);
    expect(await metric(service, 'service_ready')).toBe(0);
    const notReady = await fetch(`${service.adminUrl}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await jsonOf(notReady)).toMatchObject({ code: 'NOT_READY', intake: 'paused', checks: { nats: { status: 'down' } } });
    expect(
      logs.where((l) => l.level === 'warn' && l.msg === 'not ready: nats failing; taking no bus work until it answers again'),
    ).toHaveLength(1);

    await nats.resume();
    await eventually(async () => (await metric(service, 'bus_intake_paused')) === 0, 15_000, 100);
    expect((await fetch(`${service.adminUrl}/readyz`)).status).toBe(200);
    expect(logs.where((l) => l.level === 'info' && l.msg === 'ready again: nats answered 3 checks in a row; taking bus work')).toHaveLength(
      1,
    );
    // The caller reconnects on its own; then every request is answered (a queue subscription
    // lost on the way would leave the subject without responders: 503).
    await eventually(() => caller.ping().then(() => true), 10_000, 100);
    for (let i = 0; i < 20; i++) expect(await client.request(PING, {} as never)).toEqual({ pong: true });
  });
});
