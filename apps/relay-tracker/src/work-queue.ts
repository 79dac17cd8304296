import { JetStreamWorkQueue, MessagingClient, NatsBus, PgWorkQueue, type WorkQueue } from '@swap/messaging';
import type pg from 'pg';
import type { WORK_QUEUES } from './relay-tracker.config';

export async function openWorkQueue(options: {
  kind: (typeof WORK_QUEUES)[number];
  messaging: MessagingClient;
  pool: pg.Pool;
  names: { stream: string; consumer: string; subject: string };
  table: string;
  leaseMs: number;
  pollMs: number;
  onError: (error: unknown) => void;
}): Promise<WorkQueue> {
  const { leaseMs, onError } = options;
  if (options.kind === 'jetstream') {
    const bus = options.messaging.bus;
    if (!(bus instanceof NatsBus)) throw new Error('WORK_QUEUE=jetstream needs NATS (the embedded default uses WORK_QUEUE=postgres)');
    return JetStreamWorkQueue.open(bus.connection, {
      ...options.names,
      prefix: bus.subjectPrefix || undefined,
      ackWaitMs: leaseMs,
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
