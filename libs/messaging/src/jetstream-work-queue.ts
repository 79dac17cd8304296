import { JSONCodec, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg, type NatsConnection } from 'nats';
import { connectNats } from './nats-connect';
import { bindJetStream, nameSuffix, type JetStreamQueueNames } from './jetstream-resources';
import { toNatsHeaders } from './nats-bus';
import { HandlerSlots, runWorkHandler, type WorkItem, type WorkQueue } from './work-queue';

export interface JetStreamWorkQueueOptions extends JetStreamQueueNames {
  /** Prepended to the subject and appended to the stream and consumer names. */
  prefix?: string;
  ackWaitMs: number;
  pullWaitMs?: number;
  onError?: (error: unknown) => void;
}

const PAUSED_NAK_MS = 1_000;

/** JetStream's answer to a second message on an item's subject. */
const PER_SUBJECT_LIMIT = 10077;

export class JetStreamWorkQueue extends HandlerSlots implements WorkQueue {
  readonly kind = 'jetstream' as const;
  private readonly codec = JSONCodec();
  private messages?: ConsumerMessages;

  private constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: JetStreamQueueNames,
    private readonly options: JetStreamWorkQueueOptions,
  ) {
    super();
  }

  /** Uses the stream and consumer `npm run migrate` made (see bindJetStream). */
  static async open(nc: NatsConnection, options: JetStreamWorkQueueOptions): Promise<JetStreamWorkQueue> {
    const jsm = await nc.jetstreamManager();
    const { stream, consumer, subject, ackWaitMs, prefix, onError } = options;
    const bound = await bindJetStream(jsm, { kind: 'work-queue', stream, consumer, subject, ackWaitMs }, { prefix, onError });
    return new JetStreamWorkQueue(nc.jetstream(), jsm, bound.names, { ...options, ackWaitMs: bound.ackWaitMs });
  }

  async add(id: string, traceparent?: string): Promise<boolean> {
    try {
      const headers = traceparent ? toNatsHeaders({ traceparent }) : undefined;
      await this.js.publish(`${this.names.subject}.${id}`, this.codec.encode({ id }), { headers });
      return true;
    } catch (error) {
      // Already there, waiting or in hand: which, the stream does not say.
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code !== PER_SUBJECT_LIMIT) throw error;
      return false;
    }
  }

  override pause(reason?: string): boolean {
    const started = super.pause(reason);
    if (started) void this.messages?.close();
    return started;
  }

  protected override async interrupt(): Promise<void> {
    await this.messages?.close();
  }

  async depth(): Promise<number> {
    const info = await this.jsm.consumers.info(this.names.stream, this.names.consumer);
    return info.num_pending + info.num_ack_pending;
  }

  async redelivered(): Promise<number> {
    return (await this.jsm.consumers.info(this.names.stream, this.names.consumer)).num_redelivered;
  }

  async destroy(): Promise<void> {
    await this.jsm.streams.delete(this.names.stream).catch(() => false);
  }

  /** One long-lived `consume`, not a `fetch` per batch: a late message is still received. */
  protected async run(): Promise<void> {
    const consumer = await this.js.consumers.get(this.names.stream, this.names.consumer);
    while (this.running) {
      if (this.paused) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      try {
        const messages = await consumer.consume({
          max_messages: this.concurrency,
          expires: Math.max(1_000, this.options.pullWaitMs ?? 5_000),
        });
        this.messages = messages;
        for await (const msg of messages) {
          if (!this.running) {
            msg.nak();
            continue;
          }
          if (this.paused) {
            msg.nak(PAUSED_NAK_MS);
            continue;
          }
          this.hand(msg);
          while (this.running && this.inHand.size >= this.concurrency) await this.slotFreed();
        }
      } catch (error) {
        this.options.onError?.(error);
        if (this.running) await new Promise((r) => setTimeout(r, 500));
      } finally {
        this.messages = undefined;
      }
    }
  }

  private slotFreed(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private hand(msg: JsMsg): void {
    const item: WorkItem = { id: msg.subject.slice(this.names.subject.length + 1), attempt: msg.info.redeliveryCount };
    const traceparent = msg.headers?.get('traceparent');
    if (traceparent) item.traceparent = traceparent;
    const work = (async () => {
      const result = await runWorkHandler(
        this.handler!,
        item,
        () => msg.working(),
        Math.max(100, this.options.ackWaitMs / 3),
        this.options.onError,
      );
      if ('done' in result) msg.ack();
      else msg.nak(result.retryInMs);
    })();
    this.track(work);
  }
}

export async function removePrefixedStreams(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connectNats({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    const suffix = `_${nameSuffix(prefix)}`;
    for await (const stream of jsm.streams.list()) if (stream.config.name.endsWith(suffix)) await jsm.streams.delete(stream.config.name);
  } finally {
    await nc.close();
  }
}
