import {
  headers as natsHeaders,
  JSONCodec,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { PauseReasons, type IntakeMember } from './intake';
import { bindJetStream, type JetStreamQueueNames } from './jetstream-resources';
import { backoffMs } from './work-queue';

export interface JetStreamEventStreamOptions extends JetStreamQueueNames {
  prefix?: string;
  /** Kept this long whoever read them. */
  maxAgeMs: number;
  duplicateWindowMs: number;
  ackWaitMs: number;
  onError?: (error: unknown) => void;
}

/** Each event handled by one replica; see docs/architecture/runtime.md#work-queues-and-event-streams. */
export class JetStreamEventStream<T> implements IntakeMember {
  private readonly codec = JSONCodec<T>();
  private readonly pauseReasons = new PauseReasons();
  private readonly inHand = new Set<Promise<void>>();
  private messages?: ConsumerMessages;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  private constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly names: JetStreamQueueNames,
    private readonly options: JetStreamEventStreamOptions,
  ) {}

  /** Uses the stream and consumer `npm run migrate` made (see bindJetStream). */
  static async open<T>(nc: NatsConnection, options: JetStreamEventStreamOptions): Promise<JetStreamEventStream<T>> {
    const jsm = await nc.jetstreamManager();
    const { stream, consumer, subject, ackWaitMs, maxAgeMs, duplicateWindowMs, prefix, onError } = options;
    const resource = { kind: 'event-stream' as const, stream, consumer, subject, ackWaitMs, maxAgeMs, duplicateWindowMs };
    const bound = await bindJetStream(jsm, resource, { prefix, onError });
    return new JetStreamEventStream<T>(nc.jetstream(), jsm, bound.names, { ...options, ackWaitMs: bound.ackWaitMs });
  }

  async publish(event: T, id: string): Promise<void> {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', id);
    await this.js.publish(this.names.subject, this.codec.encode(event), { headers: h });
  }

  start(handler: (event: T) => Promise<void>, options: { concurrency: number }): void {
    this.running = true;
    this.loop = this.run(handler, options.concurrency);
  }

  pause(reason = 'paused'): void {
    if (this.pauseReasons.add(reason)) void this.messages?.close();
  }

  resume(reason = 'paused'): void {
    if (this.pauseReasons.remove(reason)) this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.messages?.close();
    await this.loop;
    await Promise.all(this.inHand);
  }

  async backlog(): Promise<{ pending: number; redelivered: number; inHand: number }> {
    const info = await this.jsm.consumers.info(this.names.stream, this.names.consumer);
    return { pending: info.num_pending, redelivered: info.num_redelivered, inHand: info.num_ack_pending };
  }

  async destroy(): Promise<void> {
    await this.jsm.streams.delete(this.names.stream).catch(() => false);
  }

  private async run(handler: (event: T) => Promise<void>, concurrency: number): Promise<void> {
    const consumer = await this.js.consumers.get(this.names.stream, this.names.consumer);
    while (this.running) {
      if (this.pauseReasons.paused) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      try {
        const messages = await consumer.consume({ max_messages: concurrency, expires: 5_000 });
        this.messages = messages;
        for await (const msg of messages) {
          if (!this.running || this.pauseReasons.paused) {
            msg.nak(1_000);
            continue;
          }
          this.hand(msg, handler);
          while (this.running && this.inHand.size >= concurrency) await new Promise<void>((resolve) => (this.wake = resolve));
        }
      } catch (error) {
        this.options.onError?.(error);
        if (this.running) await new Promise((r) => setTimeout(r, 500));
      } finally {
        this.messages = undefined;
      }
    }
  }

  private hand(msg: JsMsg, handler: (event: T) => Promise<void>): void {
    const work = (async () => {
      const keepLease = setInterval(() => msg.working(), Math.max(100, this.options.ackWaitMs / 3));
      keepLease.unref();
      try {
        await handler(this.codec.decode(msg.data));
        msg.ack();
      } catch (error) {
        this.options.onError?.(error);
        msg.nak(backoffMs(msg.info.redeliveryCount));
      } finally {
        clearInterval(keepLease);
      }
    })();
    this.inHand.add(work);
    void work.finally(() => {
      this.inHand.delete(work);
      this.wake?.();
    });
  }
}
