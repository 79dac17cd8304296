import { EventStreams, WorkQueues } from '@swap/contracts';
import type { EventStreamResource, WorkQueueResource } from '@swap/messaging';
import type { RelayTrackerConfig } from './relay-tracker.config';

/** A webhook delivery in hand longer than this (its 10 s send and the bookkeeping) goes back to the queue. */
const WEBHOOK_LEASE_MS = 30_000;

/**
 * relay-tracker's JetStream streams and consumers, as `npm run migrate` makes them and the
 * service uses them: docs/operators/securing-the-bus.md#jetstream-streams-and-consumers.
 */
export function relayTrackerJetStream(config: Pick<RelayTrackerConfig, 'WORK_LEASE_MS'>): {
  settlement: WorkQueueResource;
  webhooks: WorkQueueResource;
  chainEvents: EventStreamResource;
} {
  return {
    settlement: { kind: 'work-queue', ...WorkQueues.settlement, ackWaitMs: config.WORK_LEASE_MS },
    webhooks: { kind: 'work-queue', ...WorkQueues.webhooks, ackWaitMs: WEBHOOK_LEASE_MS },
    // Kept a day whoever read it; a repeat within two minutes (a follower taking over) is dropped.
    chainEvents: { kind: 'event-stream', ...EventStreams.chainEvents, ackWaitMs: 30_000, maxAgeMs: 86_400_000, duplicateWindowMs: 120_000 },
  };
}
