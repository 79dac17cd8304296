import {
  AckPolicy,
  connect,
  DiscardPolicy,
  ErrorCode,
  JSONCodec,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  type NatsError,
  type StreamConfig,
} from 'nats';
import { HandlerSlots, runWorkHandler, type WorkItem, type WorkQueue } from './work-queue';

/** Names of a JetStream work queue: fixed (libs/contracts), so an autoscaler can name them. */
export interface JetStreamQueueNames {
  stream: string;
  consumer: string;
  /** Items are published on `<subject>.<id>`. */
  subject: string;
}

export interface JetStreamWorkQueueOptions extends JetStreamQueueNames {
  /** Prepended to the subject and appended to the stream and consumer names (deployments sharing a NATS). */
  prefix?: string;
  /** How long an item stays with the replica that took it without a sign of work; renewed while its handler runs. */
  ackWaitMs: number;
  /** How long one pull request lives at the server before the next replaces it (at least a second). */
  pullWaitMs?: number;
  onError?: (error: unknown) => void;
}

/** How soon a paused replica's messages may be delivered again (to a replica that is not paused). */
const PAUSED_NAK_MS = 1_000;

/** JetStream's answer to a second message on an item's subject (one per subject, discard new). */
const PER_SUBJECT_LIMIT = 10077;

/**
 * A work queue on NATS JetStream, for cluster mode: a work-queue stream holding at most one
 * message per item (`<subject>.<id>`, a second add of a queued id is refused by the
 * stream), and a durable pull consumer shared by every replica. An item is acknowledged
 * only after its handler has committed what it did; a retry is a delayed NAK; an item
 * whose replica dies is delivered again once `ackWaitMs` passes without a sign of work.
 */
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

  /** Creates (or keeps) the stream and the durable consumer, then the queue. */
  static async open(nc: NatsConnection, options: JetStreamWorkQueueOptions): Promise<JetStreamWorkQueue> {
    const names = scopedNames(options);
    const jsm = await nc.jetstreamManager();
    const stream = {
      name: names.stream,
      subjects: [`${names.subject}.*`],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      max_msgs_per_subject: 1,
      discard: DiscardPolicy.New,
      discard_new_per_subject: true,
    };
    const existing = await jsm.streams.info(names.stream).catch(() => undefined);
    if (!existing) await jsm.streams.add(stream);
    else if (!sameSettings(existing.config, stream)) {
      try {
        await jsm.streams.update(names.stream, stream);
      } catch (error) {
        // The platform's NATS authorization lets relay-tracker create its stream but not
        // reconfigure it (a stream's settings could republish its messages onto any subject):
        // the queue goes on with the stream as it is, and says so.
        if ((error as NatsError).code !== ErrorCode.PermissionsViolation) throw error;
        options.onError?.(
          new Error(
            `JetStream stream ${names.stream} has older settings, and this NATS user may not update it: an operator updates it (docs/operators/securing-the-bus.md)`,
          ),
        );
      }
    }
    await jsm.consumers.add(names.stream, {
      durable_name: names.consumer,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(options.ackWaitMs),
      max_deliver: -1,
      max_ack_pending: 100_000,
    });
    return new JetStreamWorkQueue(nc.jetstream(), jsm, names, options);
  }

  async add(id: string): Promise<boolean> {
    try {
      await this.js.publish(`${this.names.subject}.${id}`, this.codec.encode({ id }));
      return true;
    } catch (error) {
      // Already there (one message per item), waiting or in a replica's hands: which, the stream does not say.
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code !== PER_SUBJECT_LIMIT) throw error;
      return false;
    }
  }

  /** Stops pulling: the subscription closes; what it still holds goes back (a delayed NAK). */
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

  /** Deletes the stream (and its consumer): for tests and teardown. */
  async destroy(): Promise<void> {
    await this.jsm.streams.delete(this.names.stream).catch(() => false);
  }

  /**
   * One long-lived pull subscription (`consume`): its inbox stays open, so a message the
   * server sends late (a pull re-issued after missed heartbeats on a busy event loop) is
   * still received, not lost until its lease runs out as with one `fetch` per batch. The
   * next pull is sent only as messages are taken from it, and a message is taken only when
   * a handler slot is free, so a replica holds at most about `concurrency` beyond those in
   * hand. Paused (not ready), it stops pulling and hands back what it still holds (a
   * short delayed NAK: another replica takes them).
   */
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
    const work = (async () => {
      // A sign of work keeps the item with this replica while its handler runs.
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

/** Whether a stream already has the settings a work queue gives it (the server adds defaults of its own). */
function sameSettings(current: Partial<StreamConfig>, wanted: Partial<StreamConfig>): boolean {
  const keys = ['retention', 'storage', 'max_msgs_per_subject', 'discard', 'discard_new_per_subject'] as const;
  return (
    JSON.stringify(current.subjects ?? []) === JSON.stringify(wanted.subjects ?? []) && keys.every((key) => current[key] === wanted[key])
  );
}

/** The names as a deployment with a subject prefix uses them (none: the fixed names). */
export function scopedNames(options: JetStreamQueueNames & { prefix?: string }): JetStreamQueueNames {
  if (!options.prefix) return { stream: options.stream, consumer: options.consumer, subject: options.subject };
  const suffix = nameSuffix(options.prefix);
  return {
    stream: `${options.stream}_${suffix}`,
    consumer: `${options.consumer}_${suffix}`,
    subject: `${options.prefix}.${options.subject}`,
  };
}

function nameSuffix(prefix: string): string {
  return prefix.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Deletes every work-queue stream of a subject prefix (a finished test run, a bench). */
export async function removePrefixedStreams(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    const suffix = `_${nameSuffix(prefix)}`;
    for await (const stream of jsm.streams.list()) if (stream.config.name.endsWith(suffix)) await jsm.streams.delete(stream.config.name);
  } finally {
    await nc.close();
  }
}
