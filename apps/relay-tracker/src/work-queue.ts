import { JetStreamWorkQueue, MessagingClient, NatsBus, PgWorkQueue, type WorkQueue, type WorkQueueResource } from '@swap/messaging';
import type pg from 'pg';
import type { WORK_QUEUES } from './relay-tracker.config';

export async function openWorkQueue(options: {
  kind: (typeof WORK_QUEUES)[number];
  messaging: MessagingClient;
  pool: pg.Pool;
  /** Its JetStream names and ack wait, which is also the embedded default's lease. */
  resource: WorkQueueResource;
  table: string;
  pollMs: number;
  onError: (error: unknown) => void;
}): Promise<WorkQueue> {
  const { resource, onError } = options;
  const leaseMs = resource.ackWaitMs;
  if (options.kind === 'jetstream') {
    const bus = options.messaging.bus;
    if (!(bus instanceof NatsBus)) throw new Error('WORK_QUEUE=jetstream needs NATS (the embedded default uses WORK_QUEUE=postgres)');
    const { stream, consumer, subject, ackWaitMs } = resource;
    return JetStreamWorkQueue.open(bus.connection, {
      stream,
      consumer,
      subject,
      ackWaitMs,
      prefix: bus.subjectPrefix || undefined,
      onError,
    });
  }
  return new PgWorkQueue(async <T>(text: string, ...params: unknown[]) => (await options.pool.query(text, params)).rows as T[], {
    table: options.table,
    leaseMs,
    pollMs: options.pollMs,
    onError,
  });
}
