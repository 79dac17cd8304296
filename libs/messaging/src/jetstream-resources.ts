import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  ErrorCode,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type ConsumerInfo,
  type JetStreamManager,
  type NatsError,
  type StreamConfig,
  type StreamInfo,
} from 'nats';

/** Fixed (libs/contracts), so an autoscaler can name them. */
export interface JetStreamQueueNames {
  stream: string;
  consumer: string;
  subject: string;
}

/** A work queue: one message per item id, taken by one replica, redelivered after the ack wait. */
export interface WorkQueueResource extends JetStreamQueueNames {
  kind: 'work-queue';
  ackWaitMs: number;
}

/** An event stream: each event handled by one replica, kept for a while whoever read it. */
export interface EventStreamResource extends JetStreamQueueNames {
  kind: 'event-stream';
  ackWaitMs: number;
  maxAgeMs: number;
  duplicateWindowMs: number;
}

export type JetStreamResource = WorkQueueResource | EventStreamResource;

/** Then given up: the settlement fallback covers what it concerned. */
const EVENT_MAX_DELIVER = 50;

/** JetStream's answers for a stream or a consumer that does not exist. */
const NOT_FOUND = new Set([10059, 10014]);

/** JetStream's answer to creating a stream another migrate created meanwhile with other settings. */
const STREAM_NAME_IN_USE = 10058;

const MIGRATE_HINT =
  "run `npm run migrate` with NATS_URL and the operator's NATS credentials (docs/operators/securing-the-bus.md#jetstream-streams-and-consumers)";

export function scopedNames(options: JetStreamQueueNames & { prefix?: string }): JetStreamQueueNames {
  if (!options.prefix) return { stream: options.stream, consumer: options.consumer, subject: options.subject };
  const suffix = nameSuffix(options.prefix);
  return {
    stream: `${options.stream}_${suffix}`,
    consumer: `${options.consumer}_${suffix}`,
    subject: `${options.prefix}.${options.subject}`,
  };
}

export function nameSuffix(prefix: string): string {
  return prefix.replace(/[^A-Za-z0-9_-]/g, '_');
}

interface Wanted {
  names: JetStreamQueueNames;
  stream: Partial<StreamConfig> & { name: string; subjects: string[] };
  consumer: Partial<ConsumerConfig> & { durable_name: string };
}

/** The settings a resource's stream and durable consumer must have, under the prefix's names. */
export function wantedSettings(resource: JetStreamResource, prefix?: string): Wanted {
  const names = scopedNames({ ...resource, prefix });
  if (resource.kind === 'work-queue') {
    return {
      names,
      stream: {
        name: names.stream,
        subjects: [`${names.subject}.*`],
        retention: RetentionPolicy.Workqueue,
        storage: StorageType.File,
        max_msgs_per_subject: 1,
        discard: DiscardPolicy.New,
        discard_new_per_subject: true,
      },
      consumer: {
        durable_name: names.consumer,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(resource.ackWaitMs),
        max_deliver: -1,
        max_ack_pending: 100_000,
      },
    };
  }
  return {
    names,
    stream: {
      name: names.stream,
      subjects: [names.subject],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(resource.maxAgeMs),
      duplicate_window: nanos(resource.duplicateWindowMs),
    },
    consumer: {
      durable_name: names.consumer,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(resource.ackWaitMs),
      max_deliver: EVENT_MAX_DELIVER,
      max_ack_pending: 10_000,
    },
  };
}

/** The server adds defaults of its own: only what is wanted is compared. */
function differences<T extends object>(current: T | undefined, wanted: Partial<T>): string[] {
  if (!current) return [];
  return Object.entries(wanted)
    .filter(([key, value]) => JSON.stringify((current as Record<string, unknown>)[key]) !== JSON.stringify(value))
    .map(([key]) => key);
}

function notFound(error: unknown): undefined {
  if (NOT_FOUND.has((error as NatsError).api_error?.err_code ?? 0)) return undefined;
  throw error;
}

export function isPermissionViolation(error: unknown): boolean {
  return (error as NatsError)?.code === ErrorCode.PermissionsViolation;
}

export interface Provisioned {
  stream: string;
  consumer: string;
  /** What was done: created, updated (with the settings that differed), or nothing. */
  outcome: 'created' | 'updated' | 'up to date';
  changed: string[];
}

/** What the server holds of a resource, and which wanted settings it lacks. */
interface Current {
  stream?: StreamInfo;
  consumer?: ConsumerInfo;
  changed: { stream: string[]; consumer: string[] };
}

async function readCurrent(jsm: JetStreamManager, wanted: Wanted): Promise<Current> {
  const { stream: name, consumer: durable } = wanted.names;
  const stream = await jsm.streams.info(name).catch(notFound);
  const consumer = stream ? await jsm.consumers.info(name, durable).catch(notFound) : undefined;
  return {
    stream,
    consumer,
    changed: { stream: differences(stream?.config, wanted.stream), consumer: differences(consumer?.config, wanted.consumer) },
  };
}

/** The writes that bring the server from what it holds to what is wanted. */
async function applyWanted(jsm: JetStreamManager, wanted: Wanted, current: Current): Promise<void> {
  const { stream: name, consumer: durable } = wanted.names;
  if (!current.stream) {
    await jsm.streams.add(wanted.stream).catch((error: NatsError) => {
      if (error.api_error?.err_code !== STREAM_NAME_IN_USE) throw error;
      return jsm.streams.update(name, wanted.stream);
    });
  } else if (current.changed.stream.length) await jsm.streams.update(name, wanted.stream);
  if (!current.consumer) await jsm.consumers.add(name, wanted.consumer);
  else if (current.changed.consumer.length) {
    const { durable_name: _durable, ack_policy: _ack, deliver_policy: _deliver, ...editable } = wanted.consumer;
    await jsm.consumers.update(name, durable, editable);
  }
}

/**
 * Creates the stream and its durable consumer, or brings their settings to this release's:
 * the operator's step (`npm run migrate`), needing JetStream's create and update rights.
 */
export async function provisionJetStream(jsm: JetStreamManager, resource: JetStreamResource, prefix?: string): Promise<Provisioned> {
  const wanted = wantedSettings(resource, prefix);
  const current = await readCurrent(jsm, wanted);
  await applyWanted(jsm, wanted, current);
  const changed = [...current.changed.stream.map((key) => `stream ${key}`), ...current.changed.consumer.map((key) => `consumer ${key}`)];
  const outcome = !current.stream || !current.consumer ? 'created' : changed.length ? 'updated' : 'up to date';
  return { stream: wanted.names.stream, consumer: wanted.names.consumer, outcome, changed };
}

/**
 * A service's side: reads its stream and consumer and uses them as they are. Where its NATS
 * user may (a server without authorization: a developer's machine, tests) it creates what is
 * missing or updates what differs; with the shipped permissions it may only use them, so a
 * missing one is an error naming the operator's step, and different settings are reported.
 */
export async function bindJetStream(
  jsm: JetStreamManager,
  resource: JetStreamResource,
  options: { prefix?: string; onError?: (error: unknown) => void },
): Promise<{ names: JetStreamQueueNames; ackWaitMs: number }> {
  const wanted = wantedSettings(resource, options.prefix);
  const { stream: name, consumer: durable } = wanted.names;
  const current = await readCurrent(jsm, wanted);
  const { stream, consumer } = current;
  const changed = [...current.changed.stream, ...current.changed.consumer];
  if (stream && consumer && changed.length === 0) return { names: wanted.names, ackWaitMs: resource.ackWaitMs };
  try {
    await applyWanted(jsm, wanted, current);
  } catch (error) {
    if (!isPermissionViolation(error)) throw error;
    if (!stream || !consumer) {
      const missing = !stream ? `stream ${name}` : `consumer ${durable} of stream ${name}`;
      throw new Error(`JetStream ${missing} does not exist, and this NATS user may not create it: ${MIGRATE_HINT}`, { cause: error });
    }
    options.onError?.(
      new Error(
        `JetStream ${name} differs from this release's settings (${changed.join(', ')}), and this NATS user may not change it: ${MIGRATE_HINT}`,
      ),
    );
    // Held work is renewed within the shorter of the two ack waits, so nothing is handed out twice meanwhile.
    const serverAckWaitMs = Number(consumer.config.ack_wait ?? 0) / 1e6;
    if (serverAckWaitMs > 0) return { names: wanted.names, ackWaitMs: Math.min(resource.ackWaitMs, serverAckWaitMs) };
  }
  return { names: wanted.names, ackWaitMs: resource.ackWaitMs };
}
