import { BusNoRespondersError, BusTimeoutError, subjectMatches } from './bus';
import { InProcessBus } from './in-process-bus';
import { AsyncLocalStorage } from 'node:async_hooks';

describe('subjectMatches (NATS wildcards)', () => {
  it.each([
    ['a.b.c', 'a.b.c', true],
    ['a.*.c', 'a.b.c', true],
    ['a.*', 'a.b.c', false],
    ['a.>', 'a.b.c', true],
    ['a.>', 'a', false],
    ['a.b', 'a.b.c', false],
  ])('%s matches %s: %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});

describe('InProcessBus', () => {
  let bus: InProcessBus;
  beforeEach(() => (bus = new InProcessBus()));
  afterEach(() => bus.close());

  it('answers a request through the subscriber and carries headers both ways', async () => {
    bus.subscribe('svc.echo', (m) => m.respond?.(`${m.data}!`, { 'x-request-id': m.headers['x-request-id'] }));
    const reply = await bus.request('svc.echo', 'hi', { timeoutMs: 500, headers: { 'x-request-id': 'r1' } });
    expect(reply.data).toBe('hi!');
    expect(reply.headers['x-request-id']).toBe('r1');
  });

  it('fails at once with no responders', async () => {
    await expect(bus.request('nobody.home', '{}', { timeoutMs: 5_000 })).rejects.toBeInstanceOf(BusNoRespondersError);
  });

  it('times out when the subscriber never replies', async () => {
    bus.subscribe('svc.silent', () => undefined);
    await expect(bus.request('svc.silent', '{}', { timeoutMs: 30 })).rejects.toBeInstanceOf(BusTimeoutError);
  });

  it('gives each request of a queue group to one member, in turn', async () => {
    const seen: string[] = [];
    bus.subscribe('svc.work', (m) => (seen.push('a'), m.respond?.('a')), { queue: 'svc' });
    bus.subscribe('svc.work', (m) => (seen.push('b'), m.respond?.('b')), { queue: 'svc' });
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push((await bus.request('svc.work', '', { timeoutMs: 200 })).data);
    expect(seen.sort()).toEqual(['a', 'a', 'b', 'b']);
    expect(new Set(replies)).toEqual(new Set(['a', 'b']));
  });

  it('delivers an event to every plain subscriber and to one member per queue group', async () => {
    const got: string[] = [];
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const record = (who: string) => () => {
      got.push(who);
      if (got.length === 3) resolve();
    };
    bus.subscribe('keys.changed', record('replica-1'));
    bus.subscribe('keys.changed', record('replica-2'));
    bus.subscribe('keys.changed', record('group-1'), { queue: 'g' });
    bus.subscribe('keys.changed', record('group-2'), { queue: 'g' });
    bus.publish('keys.changed', '{}');
    await done;
    expect(got).toContain('replica-1');
    expect(got).toContain('replica-2');
    expect(got.filter((g) => g.startsWith('group'))).toHaveLength(1);
  });

  it('delivers asynchronously, never inside publish()', () => {
    let delivered = false;
    bus.subscribe('x', () => (delivered = true));
    bus.publish('x', '');
    expect(delivered).toBe(false);
  });

  it("runs a handler in its subscriber's async context and a gathered reply in the gatherer's, never the sender's", async () => {
    const owner = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    owner.run('quote-builder', () => bus.subscribe('svc.who', (m) => (seen.push(owner.getStore()), m.respond?.('me'))));
    await owner.run('swap-gateway', () => bus.request('svc.who', '{}', { timeoutMs: 500 }));
    const replies: (string | undefined)[] = [];
    await new Promise<void>((done) => {
      owner.run('solver-desk', () => bus.gather('svc.who', '{}', () => (replies.push(owner.getStore()), done())));
    });
    expect({ seen, replies }).toEqual({ seen: ['quote-builder', 'quote-builder'], replies: ['solver-desk'] });
  });

  it('stops delivering to an unsubscribed handler', async () => {
    const sub = bus.subscribe('x', (m) => m.respond?.('late'));
    sub.unsubscribe();
    await expect(bus.request('x', '', { timeoutMs: 50 })).rejects.toBeInstanceOf(BusNoRespondersError);
  });
});

describe('InProcessBus drain', () => {
  it('hands over messages already routed to a draining subscriber, and routes no new ones to it', async () => {
    const bus = new InProcessBus();
    const handled: string[] = [];
    const draining = bus.subscribe('work', (m) => (handled.push(`a:${m.data}`), m.respond?.('a')), { queue: 'q' });
    bus.subscribe('work', (m) => (handled.push(`b:${m.data}`), m.respond?.('b')), { queue: 'q' });
    const first = bus.request('work', '1', { timeoutMs: 200 }); // routed to a (round-robin starts there)
    const drained = draining.drain();
    const second = bus.request('work', '2', { timeoutMs: 200 }); // a is draining: goes to b
    expect((await first).data).toBe('a');
    expect((await second).data).toBe('b');
    await drained;
    expect(handled).toEqual(['a:1', 'b:2']);
    await bus.close();
  });
});
