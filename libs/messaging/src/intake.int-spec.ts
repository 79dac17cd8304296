import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcSubject } from '@swap/contracts';
import { testInfra, uniqueId } from '@swap/testing';
import type { Bus } from './bus';
import { BusServer } from './bus-server';
import { InProcessBus } from './in-process-bus';
import { BusIntake } from './intake';
import { MessagingClient } from './messaging-client';
import { NatsBus } from './nats-bus';

const P = uniqueId('intake');
const ECHO = `${P}.echo` as RpcSubject;
const SLOW = `${P}.slow` as RpcSubject;
const EVENT = `${P}.changed`;

const events: string[] = [];
let releaseSlow: () => void = () => undefined;
let slowStarted: (replica: string) => void = () => undefined;

function replicaModule(replica: string) {
  @Controller()
  class Handlers {
    @MessagePattern(ECHO)
    echo() {
      return { replica };
    }

    @MessagePattern(SLOW)
    async slow() {
      slowStarted(replica);
      await new Promise<void>((r) => (releaseSlow = r));
      return { replica, finished: true };
    }

    @EventPattern(EVENT)
    changed(@Payload() payload: { n: number }) {
      events.push(`${replica}:${payload.n}`);
    }
  }
  @Module({ controllers: [Handlers] })
  class ReplicaModule {}
  return ReplicaModule;
}

interface Replica {
  app: INestMicroservice;
  server: BusServer;
  intake: BusIntake;
}

async function startReplica(bus: Bus, replica: string): Promise<Replica> {
  const server = new BusServer(bus, { queue: `${P}-service`, drainTimeoutMs: 2_000 });
  const intake = new BusIntake();
  intake.add(server);
  const app = await NestFactory.createMicroservice(replicaModule(replica), { strategy: server, logger: false });
  await app.listen();
  return { app, server, intake };
}

describe.each([
  ['NATS', () => NatsBus.connect({ servers: testInfra.natsUrl, name: 'intake-int-spec' })],
  ['in-process', async () => new InProcessBus()],
])('pausing a replica’s bus intake over the %s bus', (_kind, connect) => {
  let bus: Bus;
  let r1: Replica;
  let r2: Replica;
  let client: MessagingClient;
  const echoes = async (n: number) => {
    const seen: string[] = [];
    for (let i = 0; i < n; i++) seen.push(((await client.request(ECHO, {} as never)) as unknown as { replica: string }).replica);
    return seen;
  };

  beforeAll(async () => {
    bus = await connect();
    r1 = await startReplica(bus, 'r1');
    r2 = await startReplica(bus, 'r2');
    client = new MessagingClient(bus, { timeoutMs: 2_000 });
  });

  afterAll(async () => {
    await r1.app.close();
    await r2.app.close();
    await bus.close();
  });

  it('sends every request to the peers while paused, finishes the one already taken, and takes work again once resumed', async () => {
    // Only r1 takes requests, so the slow one lands there.
    // Replicas and caller share one connection here: NATS applies an UNSUB or SUB before the
    // requests sent after it, so no wait is needed between a pause and the requests.
    r2.intake.pause();
    const started = new Promise<string>((resolve) => (slowStarted = resolve));
    const inFlight = client.request(SLOW, {} as never, { timeoutMs: 5_000 });
    expect(await started).toBe('r1');

    r1.intake.pause();
    r2.intake.resume();
    expect(new Set(await echoes(20))).toEqual(new Set(['r2']));
    // The request r1 took before it paused is answered by r1.
    releaseSlow();
    expect(await inFlight).toEqual({ replica: 'r1', finished: true });

    r1.intake.resume();
    // NATS picks a queue member at random: 30 requests all on one is a 2^-29 chance.
    expect(new Set(await echoes(30))).toEqual(new Set(['r1', 'r2']));
  });

  it('keeps delivering events to a paused replica (they update what every replica holds)', async () => {
    events.length = 0;
    r1.intake.pause();
    bus.publish(EVENT, JSON.stringify({ n: 1 }));
    const deadline = Date.now() + 2_000;
    while (events.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(events.sort()).toEqual(['r1:1', 'r2:1']);
    r1.intake.resume();
  });

  it('answers 503 at once when every replica is paused, and serves again when one resumes', async () => {
    r1.intake.pause();
    r2.intake.pause();
    const error = (await client.request(ECHO, {} as never).catch((e: unknown) => e)) as { getStatus(): number; code: string };
    expect(error.getStatus()).toBe(503);
    expect(error.code).toBe('DEPENDENCY_UNAVAILABLE');
    r2.intake.resume();
    expect(await echoes(3)).toEqual(['r2', 'r2', 'r2']);
    r1.intake.resume();
  });

  it('stays paused until every reason to pause is lifted', async () => {
    r1.server.pause('database');
    r1.server.pause('operator');
    r1.server.resume('database');
    expect(r1.server.paused).toBe(true);
    r1.server.resume('operator');
    expect(r1.server.paused).toBe(false);
  });
});
