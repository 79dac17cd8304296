import { Injectable } from '@nestjs/common';
import type { RpcObserver } from '@swap/chains';
import { ServiceMetrics } from '@swap/observability';
import { Counter, Gauge, Histogram } from 'prom-client';

/** From under a second (a hub source) to the not-found window and solvers' time. */
const STEP_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

/** What to alert on: docs/operators/scaling-relay-tracker.md. */
@Injectable()
export class RelayTrackerMetrics implements RpcObserver {
  readonly followerLagBlocks: Gauge<'chain'>;
  readonly followerLagSeconds: Gauge<'chain'>;
  readonly followerHeld: Gauge<'chain'>;
  readonly chainEvents: Counter<'chain' | 'kind'>;
  readonly chainReorgs: Counter<'chain'>;
  readonly rpcRequests: Counter<'chain'>;
  readonly rpcErrors: Counter<'chain'>;
  readonly swaps: Gauge<'status'>;
  readonly stepSeconds: Histogram<'step'>;
  readonly adopted: Counter;
  readonly eventsPending: Gauge;
  readonly eventsRedelivered: Gauge;
  readonly workPending: Gauge;
  readonly oldestSwap: Gauge<'status'>;
  readonly workRedelivered: Gauge;

  constructor(metrics: ServiceMetrics) {
    const registers = [metrics.registry];
    this.followerLagBlocks = new Gauge({
      name: 'chain_follower_lag_blocks',
      help: 'Blocks between the chain head and the last block read into the index, on the replica following the chain',
      labelNames: ['chain'],
      registers,
    });
    this.followerLagSeconds = new Gauge({
      name: 'chain_follower_lag_seconds',
      help: 'Seconds between the head block time and the time of the last block read into the index, on the replica following the chain',
      labelNames: ['chain'],
      registers,
    });
    this.followerHeld = new Gauge({
      name: 'chain_follower_held',
      help: '1 for each chain this replica follows (holds the lease of); a chain at 0 on every replica is followed by nobody',
      labelNames: ['chain'],
      registers,
    });
    this.chainEvents = new Counter({
      name: 'chain_events_total',
      help: 'Events read into the index, by chain and kind',
      labelNames: ['chain', 'kind'],
      registers,
    });
    this.chainReorgs = new Counter({
      name: 'chain_reorgs_total',
      help: 'Reorganisations a follower met (its indexed blocks dropped by the chain), by chain',
      labelNames: ['chain'],
      registers,
    });
    this.rpcRequests = new Counter({
      name: 'chain_rpc_requests_total',
      help: 'JSON-RPC requests sent to a chain (followers and settlement steps), by chain',
      labelNames: ['chain'],
      registers,
    });
    this.rpcErrors = new Counter({
      name: 'chain_rpc_errors_total',
      help: 'Chain reads that failed (unreachable, timed out, refused), by chain',
      labelNames: ['chain'],
      registers,
    });
    this.swaps = new Gauge({
      name: 'settlement_swaps',
      help: 'Submissions by status, counted in the database (the same on every replica: aggregate with max, not sum)',
      labelNames: ['status'],
      registers,
    });
    this.stepSeconds = new Histogram({
      name: 'settlement_step_seconds',
      help: 'Time a swap spent in a step, observed when it leaves it, by the status it left',
      labelNames: ['step'],
      buckets: STEP_BUCKETS,
      registers,
    });
    this.adopted = new Counter({
      name: 'settlement_adopted_total',
      help: 'Swaps built here and broadcast but never submitted, adopted from the chain',
      registers,
    });
    this.eventsPending = new Gauge({
      name: 'settlement_events_pending',
      help: 'Chain event batches on the stream not yet handed to a replica (cluster mode)',
      registers,
    });
    this.eventsRedelivered = new Gauge({
      name: 'settlement_events_redelivered',
      help: 'Chain event batches handed out more than once (a replica died or failed on them; cluster mode)',
      registers,
    });
    this.oldestSwap = new Gauge({
      name: 'settlement_oldest_swap_seconds',
      help: 'Seconds since the oldest in-flight swap of each status was submitted, read from the database (the same on every replica: aggregate with max); 0 when none',
      labelNames: ['status'],
      registers,
    });
    this.workPending = new Gauge({
      name: 'settlement_work_pending',
      help: 'Settlement work items waiting or in hand (the JetStream consumer KEDA scales on, or the PostgreSQL queue)',
      registers,
    });
    this.workRedelivered = new Gauge({
      name: 'settlement_work_redelivered',
      help: 'Settlement work items handed out more than once (a replica died mid-step, or failed on them)',
      registers,
    });
  }

  request(chainKey: string): void {
    this.rpcRequests.inc({ chain: chainKey });
  }

  error(chainKey: string): void {
    this.rpcErrors.inc({ chain: chainKey });
  }
}
