import type { Socket } from 'node:net';
import { connect, StringCodec, type NatsConnection } from 'nats';
import { testInfra, uniqueId } from '@swap/testing';
import { connectNats } from './nats-connect';

const codec = StringCodec();

const socketOf = (nc: NatsConnection) => (nc as unknown as { protocol: { transport: { socket: Socket } } }).protocol.transport.socket;

/** The connection's socket writes, counted (one `writev` or `write` each). */
function countWrites(nc: NatsConnection): () => number {
  const socket = socketOf(nc) as Socket & {
    _write: (...args: unknown[]) => void;
    _writev: (...args: unknown[]) => void;
  };
  let writes = 0;
  for (const name of ['_write', '_writev'] as const) {
    const original = socket[name].bind(socket);
    socket[name] = (...args: unknown[]) => {
      writes += 1;
      original(...args);
    };
  }
  return () => writes;
}

/** Subscribed (the server has the subscription) before it returns; `messages` settles once `count` arrived. */
async function subscribed(reader: NatsConnection, subject: string, count: number): Promise<{ messages: Promise<string[]> }> {
  const sub = reader.subscribe(subject, { max: count, timeout: 5_000 });
  await reader.flush();
  const messages = (async () => {
    const got: string[] = [];
    for await (const msg of sub) got.push(codec.decode(msg.data));
    return got;
  })();
  return { messages };
}

/** A connection (its writes coalesced) answering `<subject>.ask` with the question and `!`. */
async function echoReplier(subject: string): Promise<NatsConnection> {
  const replier = await connectNats({ servers: testInfra.natsUrl, name: 'nats-connect-spec-replier' });
  const sub = replier.subscribe(`${subject}.ask`);
  void (async () => {
    for await (const msg of sub) msg.respond(codec.encode(`${codec.decode(msg.data)}!`));
  })();
  await replier.flush();
  return replier;
}

describe('connectNats: writes coalesced per event-loop turn', () => {
  let reader: NatsConnection;

  beforeAll(async () => {
    reader = await connect({ servers: testInfra.natsUrl, name: 'nats-connect-spec-reader' });
  });

  afterAll(async () => {
    await reader.close();
  });

  it('sends the publishes of one turn, made across microtask checkpoints, in one write, in order', async () => {
    const subject = uniqueId('coalesce');
    const arriving = await subscribed(reader, subject, 3);
    const nc = await connectNats({ servers: testInfra.natsUrl, name: 'nats-connect-spec' });
    try {
      const writes = countWrites(nc);
      nc.publish(subject, codec.encode('a'));
      await Promise.resolve();
      nc.publish(subject, codec.encode('b'));
      await Promise.resolve();
      nc.publish(subject, codec.encode('c'));
      // Plain nats.js writes after each checkpoint: three writes.
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes()).toBe(1);
      expect(await arriving.messages).toEqual(['a', 'b', 'c']);
    } finally {
      await nc.close();
    }
  });

  it('answers requests, and delivers what close() finds written but still corked, as plain nats.js does', async () => {
    const subject = uniqueId('coalesce');
    const nc = await connectNats({ servers: testInfra.natsUrl, name: 'nats-connect-spec' });
    const replier = await echoReplier(subject);
    try {
      const answers = await Promise.all(['x', 'y'].map((q) => nc.request(`${subject}.ask`, codec.encode(q), { timeout: 5_000 })));
      expect(answers.map((m) => codec.decode(m.data))).toEqual(['x!', 'y!']);

      const arriving = await subscribed(reader, `${subject}.last`, 1);
      nc.publish(`${subject}.last`, codec.encode('last'));
      // nats.js writes it at this checkpoint; a close() before the checkpoint drops it (drain() does not).
      await Promise.resolve();
      await nc.close();
      expect(await arriving.messages).toEqual(['last']);
    } finally {
      if (!nc.isClosed()) await nc.close();
      await replier.close();
    }
  });

  it('after a reconnect (a new socket), still coalesces, and delivers and answers', async () => {
    const subject = uniqueId('coalesce');
    const nc = await connectNats({ servers: testInfra.natsUrl, name: 'nats-connect-spec', reconnectTimeWait: 50 });
    const replier = await echoReplier(subject);
    try {
      const before = socketOf(nc);
      const reconnected = (async () => {
        for await (const status of nc.status()) if (status.type === 'reconnect') return;
      })();
      await nc.reconnect();
      await reconnected;
      await nc.flush();
      expect(socketOf(nc)).not.toBe(before);

      const arriving = await subscribed(reader, `${subject}.after`, 2);
      const writes = countWrites(nc);
      nc.publish(`${subject}.after`, codec.encode('1'));
      await Promise.resolve();
      nc.publish(`${subject}.after`, codec.encode('2'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes()).toBe(1);
      expect(await arriving.messages).toEqual(['1', '2']);
      const answer = await nc.request(`${subject}.ask`, codec.encode('z'), { timeout: 5_000 });
      expect(codec.decode(answer.data)).toBe('z!');
    } finally {
      await nc.close();
      await replier.close();
    }
  });
});
