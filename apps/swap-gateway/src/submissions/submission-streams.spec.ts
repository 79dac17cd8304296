import { MemoryReadModelStore } from '@swap/cache';
import { submissionStatusKey, type SubmissionStatus, type SubmissionStreamEvent } from '@swap/contracts';
import type { MessagingClient } from '@swap/messaging';
import { ServiceMetrics } from '@swap/observability';
import type { Session } from 'better-sse';
import { EventEmitter } from 'node:events';
import pino from 'pino';
import { SubmissionStreams } from './submission-streams';

const TARGET = { txHash: `0x${'ab'.repeat(32)}`, srcChainKey: '0xa4b1.arbitrum' };
const STATUSES: SubmissionStatus[] = ['pending', 'relaying', 'relayed', 'posting_execution', 'posted_execution', 'solved'];

/** The stream event `seq` of a swap moving through STATUSES. */
function event(seq: number): SubmissionStreamEvent {
  const status = STATUSES[seq - 1];
  return { seq, status, data: { status, terminal: status === 'solved', history: STATUSES.slice(0, seq) } as never };
}

/** A better-sse session as the stream uses it: what it pushed, connected until told otherwise. */
class FakeSession extends EventEmitter {
  isConnected = true;
  readonly pushed: { event: string; id: string }[] = [];
  push(_data: unknown, event: string, id: string): this {
    this.pushed.push({ event, id });
    return this;
  }
}

function setup() {
  const history = [1, 2, 3, 4, 5, 6].map(event);
  const asked: number[] = [];
  let failing = false;
  const truth = { known: 6 };
  const messaging = {
    request: async (_subject: string, message: { after: number }) => {
      asked.push(message.after);
      if (failing) throw new Error('relay-tracker unreachable');
      return {
        events: history.filter((e) => e.seq > message.after && e.seq <= truth.known),
        last: truth.known,
        terminal: truth.known === 6,
      };
    },
  } as unknown as MessagingClient;
  const readModels = new MemoryReadModelStore();
  const streams = new SubmissionStreams(
    messaging,
    readModels,
    pino({ level: 'silent' }),
    new ServiceMetrics('swap-gateway', { defaultMetrics: false }),
  );
  const open = (after: number, replay: SubmissionStreamEvent[]) => {
    const stream = streams.watch(TARGET, after);
    const session = new FakeSession();
    const response = { ended: false, end: () => (response.ended = true) };
    return { stream, session, response, start: () => stream.start(session as unknown as Session, response, replay) };
  };
  const key = submissionStatusKey(TARGET.srcChainKey, TARGET.txHash);
  const hearFromRelayTracker = async (seq: number) => {
    await readModels.put(key, seq, JSON.stringify({ data: event(seq).data }), 600_000);
    await announce(event(seq));
  };
  const announce = async (announced: SubmissionStreamEvent) => {
    streams.deliver({ ...TARGET, ...announced });
    await new Promise((r) => setImmediate(r));
  };
  return { streams, asked, open, hear: hearFromRelayTracker, announce, readModels, truth, fail: (f: boolean) => (failing = f) };
}

const ids = (session: FakeSession) => session.pushed.map((p) => Number(p.id));

describe('a status stream', () => {
  afterEach(() => jest.useRealTimers());

  it('sends what it heard before it started after the replay, each event once, in order', async () => {
    const { open, hear, streams } = setup();
    const s = open(0, [event(1), event(2)]);
    await hear(2);
    await hear(3);
    s.start();
    await hear(3);
    await hear(4);
    expect(ids(s.session)).toEqual([1, 2, 3, 4]);
    expect(streams.size).toBe(1);
  });

  it('fills a gap from relay-tracker before sending what came after it', async () => {
    const { open, hear, asked } = setup();
    const s = open(0, [event(1)]);
    s.start();
    await hear(3);
    await hear(4);
    expect(asked).toEqual([1]);
    expect(ids(s.session)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('holds events past a gap it could not fill, and sends them once the next attempt fills it', async () => {
    const { open, hear, fail } = setup();
    const s = open(0, [event(1)]);
    s.start();
    fail(true);
    await hear(3);
    expect(ids(s.session)).toEqual([1]);
    fail(false);
    await hear(4);
    expect(ids(s.session)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('ends after a terminal event, and no longer listens', async () => {
    const { open, hear, streams } = setup();
    const s = open(4, [event(5), event(6)]);
    s.start();
    expect(ids(s.session)).toEqual([5, 6]);
    expect(s.response.ended).toBe(true);
    await hear(6);
    expect(streams.size).toBe(0);
  });

  it('sends an announcement only as the read model has it: a forged one asks relay-tracker and sends nothing it does not know', async () => {
    const { open, hear, announce, asked, truth, readModels } = setup();
    truth.known = 1;
    await readModels.put(submissionStatusKey(TARGET.srcChainKey, TARGET.txHash), 1, JSON.stringify({ data: event(1).data }), 600_000);
    const s = open(0, [event(1)]);
    s.start();
    const forged = { seq: 2, status: 'solved' as const, data: { ...event(6).data, fillTxHash: `0x${'ff'.repeat(32)}` } };
    await announce(forged);
    expect(asked).toEqual([1]);
    expect(s.session.pushed.map((p) => p.event)).toEqual(['pending']);
    truth.known = 2;
    await hear(2);
    await announce(forged);
    expect(s.session.pushed.map((p) => p.event)).toEqual(['pending', 'relaying']);
    expect(s.response.ended).toBe(false);
  });

  it('an announcement heard before the stream started and not confirmed is asked of relay-tracker once it starts', async () => {
    const { open, announce, asked } = setup();
    const s = open(0, [event(1)]);
    await announce(event(2));
    s.start();
    await new Promise((r) => setImmediate(r));
    expect(asked).toEqual([1]);
    expect(ids(s.session)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a read model it cannot read (malformed) confirms nothing: relay-tracker is asked', async () => {
    const { open, announce, asked, readModels } = setup();
    await readModels.put(submissionStatusKey(TARGET.srcChainKey, TARGET.txHash), 2, 'not json', 600_000);
    const s = open(0, [event(1)]);
    s.start();
    await announce(event(2));
    expect(asked).toEqual([1]);
    expect(ids(s.session)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('stops listening when its client goes', () => {
    const { open, streams } = setup();
    const s = open(0, [event(1)]);
    s.start();
    s.session.isConnected = false;
    s.session.emit('disconnected');
    expect(streams.size).toBe(0);
  });

  it('asks for what the read model knows and it did not hear, after a quiet minute', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    const { open, readModels, asked } = setup();
    const s = open(0, [event(1), event(2)]);
    s.start();
    await readModels.put(submissionStatusKey(TARGET.srcChainKey, TARGET.txHash), 1, JSON.stringify({ data: event(6).data }), 600_000);
    await jest.advanceTimersByTimeAsync(75_000);
    expect(asked).toEqual([2]);
    expect(ids(s.session)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('ends every stream when the service stops, and takes no new one', () => {
    const { open, streams } = setup();
    const [a, b] = [open(0, [event(1)]), open(0, [event(1)])];
    a.start();
    b.start();
    streams.onModuleDestroy();
    expect([a.response.ended, b.response.ended, streams.size]).toEqual([true, true, 0]);
    expect(() => streams.watch(TARGET, 0)).toThrow('stopping');
  });
});
