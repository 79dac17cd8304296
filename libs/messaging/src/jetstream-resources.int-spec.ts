import { testInfra, uniqueId } from '@swap/testing';
import { nanos } from 'nats';
import { bindJetStream, provisionJetStream, type EventStreamResource, type WorkQueueResource } from './jetstream-resources';
import { removePrefixedStreams } from './jetstream-work-queue';
import { NatsBus } from './nats-bus';

jest.setTimeout(30_000);

describe('JetStream streams and consumers: made by the operator, used by the services', () => {
  const prefix = uniqueId('jsr').replace(/_/g, '-');
  const queue: WorkQueueResource = {
    kind: 'work-queue',
    stream: 'JSR_QUEUE',
    consumer: 'jsr-queue',
    subject: 'jsr.queue.work',
    ackWaitMs: 30_000,
  };
  const events: EventStreamResource = {
    kind: 'event-stream',
    stream: 'JSR_EVENTS',
    consumer: 'jsr-events',
    subject: 'jsr.events.v1',
    ackWaitMs: 30_000,
    maxAgeMs: 60_000,
    duplicateWindowMs: 10_000,
  };
  let bus: NatsBus;

  beforeAll(async () => {
    bus = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'jetstream-resources-spec' });
  });

  afterAll(async () => {
    await bus.close();
    await removePrefixedStreams(testInfra.natsUrl, prefix);
  });

  it.each([
    ['a work queue', queue],
    ['an event stream', events],
  ])('%s: created once, then up to date, then its ack wait brought to the configured one', async (_name, resource) => {
    const jsm = await bus.connection.jetstreamManager();
    const first = await provisionJetStream(jsm, resource, prefix);
    expect(first).toMatchObject({ outcome: 'created', changed: [] });
    expect(first.stream).toBe(`${resource.stream}_${prefix}`);
    expect(await provisionJetStream(jsm, resource, prefix)).toMatchObject({ outcome: 'up to date', changed: [] });

    const longer = { ...resource, ackWaitMs: 90_000 };
    expect(await provisionJetStream(jsm, longer, prefix)).toMatchObject({ outcome: 'updated', changed: ['consumer ack_wait'] });
    expect((await jsm.consumers.info(first.stream, first.consumer)).config.ack_wait).toBe(nanos(90_000));
  });

  it('lets a service use what exists without a write, and report settings it may not change', async () => {
    const jsm = await bus.connection.jetstreamManager();
    const mine = { ...queue, stream: 'JSR_BOUND', consumer: 'jsr-bound', subject: 'jsr.bound.work' };
    await provisionJetStream(jsm, mine, prefix);
    const writes: string[] = [];
    // A manager whose writes are refused as the shipped permissions refuse relay-tracker's.
    const refused = Object.assign(new Error('Permissions Violation for Publish'), { code: 'PERMISSIONS_VIOLATION' });
    const readOnly = {
      streams: { info: (n: string) => jsm.streams.info(n), add: deny('streams.add'), update: deny('streams.update') },
      consumers: { info: (s: string, c: string) => jsm.consumers.info(s, c), add: deny('consumers.add'), update: deny('consumers.update') },
    } as unknown as typeof jsm;
    function deny(what: string) {
      return async () => {
        writes.push(what);
        throw refused;
      };
    }
    const reported: unknown[] = [];
    expect(await bindJetStream(readOnly, mine, { prefix, onError: (e) => reported.push(e) })).toEqual({
      names: { stream: `JSR_BOUND_${prefix}`, consumer: `jsr-bound_${prefix}`, subject: `${prefix}.jsr.bound.work` },
      ackWaitMs: 30_000,
    });
    expect({ writes, reported }).toEqual({ writes: [], reported: [] });

    // A lease longer than the consumer's ack wait is renewed within the consumer's: never handed out twice.
    expect((await bindJetStream(readOnly, { ...mine, ackWaitMs: 120_000 }, { prefix, onError: (e) => reported.push(e) })).ackWaitMs).toBe(
      30_000,
    );
    expect(writes).toEqual(['consumers.update']);
    expect(String(reported[0])).toMatch(/JSR_BOUND_.* differs from this release's settings \(ack_wait\).*npm run migrate/);

    await expect(bindJetStream(readOnly, { ...mine, stream: 'JSR_NEVER_MADE' }, { prefix })).rejects.toThrow(
      /JetStream stream JSR_NEVER_MADE_.* does not exist, and this NATS user may not create it: run `npm run migrate`/,
    );
  });

  it('creates what is missing where the NATS user may (a server without authorization)', async () => {
    const jsm = await bus.connection.jetstreamManager();
    const mine = { ...queue, stream: 'JSR_SELF', consumer: 'jsr-self', subject: 'jsr.self.work' };
    await bindJetStream(jsm, mine, { prefix });
    expect((await jsm.consumers.info(`JSR_SELF_${prefix}`, `jsr-self_${prefix}`)).config.ack_wait).toBe(nanos(30_000));
  });
});
