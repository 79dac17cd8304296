import { AckPolicy, DiscardPolicy, JSONCodec, nanos, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type JsMsg, type NatsConnection } from 'nats';
import { backoffMs, type WorkHandler, type WorkItem, type WorkQueue, type WorkResult } from './work-queue';

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
  /** How long one pull waits for items (at least a second, as JetStream requires). */
  pullWaitMs?: number;
  onError?: (error: unknown) => void;
}

/** JetStream's answer to a second message on an item's subject (one per subject, discard new). */
const PER_SUBJECT_LIMIT = 10077;

/**
 * A work queue on NATS JetStream, for cluster mode: a work-queue stream holding at most one
 * message per item (`<subject>.<id>`, a second add of a queued id is refused by the
 * stream), and a durable pull consumer shared by every replica. An item is acknowledged
 * only after its handler has committed what it did; a retry is a delayed NAK; an item
 * whose replica dies is delivered again once `ackWaitMs` passes without a sign of work.
 */
export class JetStreamWorkQueue implements WorkQueue {
  readonly kind = 'jetstream' as const;
  private readonly codec = JSONCodec();
  private handler?: WorkHandler;
  private concurrency = 1;
  private readonly inHand = new Set<Promise<void>>();
  private running = false;
  private paused = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  private constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: JetStreamQueueNames,
    private readonly options: JetStreamWorkQueueOptions,
  ) {}

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
    try {
      await jsm.streams.info(names.stream);
      await jsm.streams.update(names.stream, stream);
    } catch {
      await jsm.streams.add(stream);
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

  async add(id: string): Promise<void> {
    try {
      await this.js.publish(`${this.names.subject}.${id}`, this.codec.encode({ id }));
    } catch (error) {
      // Already queued (one message per item): nothing to add.
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code !== PER_SUBJECT_LIMIT) throw error;
    }
  }

  start(handler: WorkHandler, options: { concurrency: number }): void {
    this.handler = handler;
    this.concurrency = options.concurrency;
    this.running = true;
    this.loop = this.run();
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.all(this.inHand);
  }

  async depth(): Promise<number> {
    const info = await this.jsm.consumers.info(this.names.stream, this.names.consumer);
    return info.num_pending + info.num_ack_pending;
  }

  /** Deletes the stream (and its consumer): for tests and teardown. */
  async destroy(): Promise<void> {
    await this.jsm.streams.delete(this.names.stream).catch(() => false);
  }

  private async run(): Promise<void> {
    const consumer = await this.js.consumers.get(this.names.stream, this.names.consumer);
    while (this.running) {
      const free = this.concurrency - this.inHand.size;
      if (this.paused || free <= 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 250);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        continue;
      }
      try {
        const batch = await consumer.fetch({ max_messages: free, expires: Math.max(1_000, this.options.pullWaitMs ?? 1_000) });
        for await (const msg of batch) this.hand(msg);
      } catch (error) {
        this.options.onError?.(error);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private hand(msg: JsMsg): void {
    const item: WorkItem = { id: msg.subject.slice(this.names.subject.length + 1), attempt: msg.info.redeliveryCount };
    // A sign of work keeps the item with this replica while its handler runs.
    const working = setInterval(() => msg.working(), Math.max(100, this.options.ackWaitMs / 3));
    working.unref();
    const work = (async () => {
      let result: WorkResult;
      try {
        result = await this.handler!(item);
      } catch (error) {
        this.options.onError?.(error);
        result = { retryInMs: backoffMs(item.attempt) };
      } finally {
        clearInterval(working);
      }
      if ('done' in result) msg.ack();
      else msg.nak(result.retryInMs);
    })();
    this.inHand.add(work);
    void work.finally(() => {
      this.inHand.delete(work);
      this.wake?.();
    });
  }
}

/** The names as a deployment with a subject prefix uses them (none: the fixed names). */
export function scopedNames(options: JetStreamQueueNames & { prefix?: string }): JetStreamQueueNames {
  if (!options.prefix) return { stream: options.stream, consumer: options.consumer, subject: options.subject };
  const suffix = options.prefix.replace(/[^A-Za-z0-9_-]/g, '_');
  return { stream: `${options.stream}_${suffix}`, consumer: `${options.consumer}_${suffix}`, subject: `${options.prefix}.${options.subject}` };
}
