import { Catch, Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { AppError, ErrorCode, toErrorBody, type RpcSubject } from '@swap/contracts';
import { activeTraceIds, inSpan, RequestContext, startTracing } from '@swap/observability';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { throwError } from 'rxjs';
import { testInfra, uniqueId } from '@swap/testing';
import type { Bus } from './bus';
import { BusContext, BusServer } from './bus-server';
import { InProcessBus } from './in-process-bus';
import { MessagingClient } from './messaging-client';
import { NatsBus } from './nats-bus';

// Subjects unique to this run, so parallel test files on the shared NATS server never meet.
const P = uniqueId('it');
const ECHO = `${P}.echo` as RpcSubject;
const FAIL = `${P}.fail` as RpcSubject;
const HANG = `${P}.hang` as RpcSubject;
const SLOW = `${P}.slow` as RpcSubject;
const EVENT = `${P}.changed`;

const events: { replica: string; payload: unknown; requestId?: string; traceId?: string }[] = [];
const echoed: unknown[] = [];
const slowStartedOn = new Set<string>();
let eventArrived: () => void = () => undefined;

function replicaModule(replica: string) {
  @Controller()
  class Handlers {
    @MessagePattern(ECHO)
    echo(@Payload() payload: unknown, @Ctx() ctx: BusContext) {
      echoed.push(payload);
      return {
        payload,
        replica,
        headerId: ctx.getHeaders()['x-request-id'],
        contextId: RequestContext.requestId(),
        traceId: activeTraceIds()?.traceId,
      };
    }

    @MessagePattern(FAIL)
    fail(): never {
      throw new AppError(404, ErrorCode.ChainNotFound, 'Unknown chain key: nowhere');
    }

    @MessagePattern(HANG)
    hang() {
      return new Promise(() => undefined);
    }

    @MessagePattern(SLOW)
    async slow() {
      slowStartedOn.add(replica);
      await new Promise((r) => setTimeout(r, 150));
      return { replica, finished: true };
    }

    @EventPattern(EVENT)
    changed(@Payload() payload: unknown) {
      events.push({ replica, payload, requestId: RequestContext.requestId(), traceId: activeTraceIds()?.traceId });
      eventArrived();
    }
  }
  @Module({ controllers: [Handlers] })
  class ReplicaModule {}
  return ReplicaModule;
}

/** What the service kit's filter does for bus handlers: errors leave as plain ErrorBody values. */
@Catch()
class RpcErrorFilter {
  catch(exception: unknown) {
    return throwError(() => toErrorBody(exception));
  }
}

async function startReplica(bus: Bus, replica: string): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(replicaModule(replica), {
    strategy: new BusServer(bus, { queue: 'test-service', drainTimeoutMs: 1_000 }),
    logger: false,
  });
  app.useGlobalFilters(new RpcErrorFilter());
  await app.listen();
  return app;
}

// Every test here runs traced (what it checks must hold either way); the last ones look at the spans.
const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
beforeAll(() => startTracing('messaging-int-spec', { spanProcessors: [processor] }));

describe.each([
  ['NATS', () => NatsBus.connect({ servers: testInfra.natsUrl, name: 'messaging-int-spec' })],
  ['in-process', async () => new InProcessBus()],
])('messaging over the %s bus', (_kind, connect) => {
  let bus: Bus;
  let replicas: INestMicroservice[];
  let client: MessagingClient;

  beforeAll(async () => {
    bus = await connect();
    replicas = [await startReplica(bus, 'r1'), await startReplica(bus, 'r2')];
    client = new MessagingClient(bus, { timeoutMs: 2_000 });
  });

  afterAll(async () => {
    for (const r of replicas) await r.close();
    await bus.close();
  });

  beforeEach(() => (events.length = 0));

  it('answers a typed request and carries the caller request id into the handler', async () => {
    const reply = (await RequestContext.run({ requestId: 'req-abc' }, () =>
      client.request(ECHO, { chainKey: 'x' } as never),
    )) as unknown as Record<string, unknown>;
    expect(reply).toMatchObject({ payload: { chainKey: 'x' }, headerId: 'req-abc', contextId: 'req-abc' });
  });

  it('shares requests between replicas of one service (queue group)', async () => {
    const seen = new Set<string>();
    // NATS picks a queue member at random: 24 requests all landing on one is a 2^-23 chance.
    for (let i = 0; i < 24; i++) seen.add(((await client.request(ECHO, {} as never)) as unknown as { replica: string }).replica);
    expect(seen).toEqual(new Set(['r1', 'r2']));
  });

  it('turns a handler error into the same AppError on the caller side', async () => {
    const error = await client.request(FAIL, {} as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).getStatus()).toBe(404);
    expect((error as AppError).code).toBe('CHAIN_NOT_FOUND');
    expect((error as AppError).message).toBe('Unknown chain key: nowhere');
  });

  it('gives up on a handler that never answers with a 504, not a hang', async () => {
    const started = Date.now();
    const error = (await client.request(HANG, {} as never, { timeoutMs: 150 }).catch((e: unknown) => e)) as AppError;
    expect(error.getStatus()).toBe(504);
    expect(error.code).toBe('DEPENDENCY_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 503 at once when no service listens on a subject', async () => {
    const error = (await client
      .request(`${P}.nobody` as RpcSubject, {} as never, { timeoutMs: 5_000 })
      .catch((e: unknown) => e)) as AppError;
    expect(error.getStatus()).toBe(503);
    expect(error.code).toBe('DEPENDENCY_UNAVAILABLE');
  });

  it('runs a request handler only for a sender awaiting its answer in an inbox', async () => {
    echoed.length = 0;
    const elsewhere: string[] = [];
    // No reply address: an answer some responder was tricked into publishing onto this subject.
    bus.publish(ECHO, JSON.stringify({ tricked: true }));
    if (bus instanceof NatsBus) {
      // A reply address that is a subject, not an inbox: the answer would be published there.
      bus.connection.subscribe(`${P}.elsewhere`, { callback: (_err, msg) => elsewhere.push(msg.subject) });
      bus.connection.publish(ECHO, JSON.stringify({ redirected: true }), { reply: `${P}.elsewhere` });
    }
    // One connection, one order: the request below is dispatched after the messages above.
    await client.request(ECHO, { asked: true } as never);
    await bus.ping();
    expect(echoed).toEqual([{ asked: true }]);
    expect(elsewhere).toEqual([]);
  });

  it('fans an event out to every replica, with the request id', async () => {
    const both = new Promise<void>((resolve) => (eventArrived = () => events.length === 2 && resolve()));
    bus.publish(EVENT, JSON.stringify({ version: 7 }), { 'x-request-id': 'evt-1' });
    await both;
    expect(events.map((e) => e.replica).sort()).toEqual(['r1', 'r2']);
    expect(events.filter((e) => (e.payload as { version: number }).version !== 7 || e.requestId !== 'evt-1')).toEqual([]);
  });

  it('carries the trace in the message headers: the handler continues the caller’s trace, an event too', async () => {
    exporter.reset();
    const { reply, callerTraceId } = await inSpan('caller', {}, async (span) => ({
      reply: (await client.request(ECHO, {} as never)) as unknown as { traceId?: string },
      callerTraceId: span.spanContext().traceId,
    }));
    expect(reply.traceId).toBe(callerTraceId);
    await processor.forceFlush();
    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => s.name === `${ECHO} request`)!;
    const handled = spans.find((s) => s.name === `${ECHO} process`)!;
    expect(handled.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(request.parentSpanContext?.spanId).toBe(spans.find((s) => s.name === 'caller')!.spanContext().spanId);

    const both = new Promise<void>((resolve) => (eventArrived = () => events.length === 2 && resolve()));
    const emitter = await inSpan('emitter', {}, async (span) => {
      client.emit(EVENT as never, { version: 8 } as never);
      return span.spanContext().traceId;
    });
    await both;
    expect(events.map((e) => e.traceId)).toEqual([emitter, emitter]);
  });

  it('starts no trace for a message outside one', async () => {
    exporter.reset();
    const reply = (await client.request(ECHO, {} as never)) as unknown as { traceId?: string };
    expect(reply.traceId).toBeUndefined();
    await processor.forceFlush();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('gathers every reply of every subscriber, several each, until the gatherer closes', async () => {
    const subject = `${P}.gather`;
    const subs = ['a', 'b'].map((name) =>
      bus.subscribe(subject, (m) => {
        m.respond?.(`${name}1:${m.data}`);
        setTimeout(() => m.respond?.(`${name}2`), 20);
        setTimeout(() => m.respond?.(`${name}-late`), 60);
      }),
    );
    const replies: string[] = [];
    let fourth!: () => void;
    const four = new Promise<void>((resolve) => (fourth = resolve));
    const gathering = bus.gather(subject, 'q', (reply) => {
      replies.push(reply.data);
      if (replies.length === 4) fourth();
    });
    await four;
    gathering.close();
    // The late replies are sent 60 ms in; a closed gathering must not hand them over.
    await new Promise((r) => setTimeout(r, 120));
    expect(replies.sort()).toEqual(['a1:q', 'a2', 'b1:q', 'b2']);
    for (const s of subs) s.unsubscribe();
  });

  it('lets handlers in flight finish when a replica closes, and stops taking new ones', async () => {
    slowStartedOn.clear();
    const requests: Promise<unknown>[] = [];
    // Send until the replica about to close is inside a handler (members are picked at random).
    for (let i = 0; i < 40 && !slowStartedOn.has('r2'); i++) {
      requests.push(client.request(SLOW, {} as never));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect([...slowStartedOn]).toContain('r2');
    const closing = replicas[1].close();
    const replies = (await Promise.all(requests)) as unknown as { replica: string; finished: boolean }[];
    await closing;
    expect(replies.filter((r) => !r.finished)).toEqual([]);
    expect(replies.map((r) => r.replica)).toContain('r2');
    const after = new Set<string>();
    for (let i = 0; i < 6; i++) after.add(((await client.request(ECHO, {} as never)) as unknown as { replica: string }).replica);
    expect(after).toEqual(new Set(['r1']));
    replicas.pop();
  });
});
