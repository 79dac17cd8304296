import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AppError, Broadcasts, ErrorCode, MessageHeaders, type RfqFrame } from '@swap/contracts';
import { MessagingClient, type BusSubscription } from '@swap/messaging';
import { RequestContext, ServiceMetrics, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { randomUUID } from 'node:crypto';
import { Histogram } from 'prom-client';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { SolverConnections, type RfqReply } from './solver-connections';
import type { AuthenticatedSolver } from './solver-registry.service';

/** What is asked of solvers: hub assets, the input after the partner fee, in hub units. */
export type RfqRequest = Pick<RfqFrame, 'token_src' | 'token_dst' | 'amount' | 'src_chain_id' | 'dst_chain_id'>;

/** One solver's part in a request for quote. */
export interface SolverOutcome {
  quotedAmount?: bigint;
  declined?: number;
  message?: string;
  missed?: 'disconnected' | 'invalid';
  ms?: number;
}

export interface RfqOutcome {
  rfqId: string;
  /** Every solver some replica asked (once each, however many connections it has). */
  asked: AuthenticatedSolver[];
  /** What each asked solver answered by the deadline; absent: nothing in time. */
  outcomes: Map<string, SolverOutcome>;
  elapsedMs: number;
}

/** A replica that has not answered an RFQ for this long is no longer waited for. */
const REPLICA_MEMORY_MS = 30_000;

/**
 * Scatter-gather of requests for quote over the bus. The asking replica publishes the RFQ
 * to every quote-builder replica (no queue group); each answers at once with the solvers
 * it forwarded the RFQ to, then passes on each solver's answer as it arrives. The asker is
 * done when every solver it learnt of has answered and every replica it expects has
 * spoken (replicas it heard from lately; unknown ones get RFQ_ACK_WINDOW_MS), or at the
 * deadline, whichever is first. Answers after that are dropped.
 */
@Injectable()
export class RfqService implements OnModuleInit, OnModuleDestroy {
  private subscription?: BusSubscription;
  private readonly knownReplicas = new Map<string, number>();
  private readonly duration: Histogram<'outcome'>;

  constructor(
    private readonly messaging: MessagingClient,
    private readonly connections: SolverConnections,
    private readonly config: QuoteBuilderConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: ServiceMetrics,
  ) {
    this.duration = new Histogram({
      name: 'rfq_duration_seconds',
      help: 'Time from a request for quote to the decision, by outcome (complete: every solver answered; deadline: some did not)',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2.5],
      registers: [metrics.registry],
    });
  }

  onModuleInit(): void {
    this.subscription = this.messaging.bus.subscribe(Broadcasts.rfq, (delivery) => {
      const respond = delivery.respond;
      if (!respond) return;
      let frame: RfqFrame;
      try {
        frame = JSON.parse(delivery.data) as RfqFrame;
      } catch {
        return;
      }
      if (frame?.type !== 'rfq' || typeof frame.rfq_id !== 'string' || typeof frame.answer_by !== 'number') return;
      this.connections.forwardRfq(frame, (reply) => respond(JSON.stringify(reply)));
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.drain();
  }

  ask(request: RfqRequest): Promise<RfqOutcome> {
    const rfqId = randomUUID();
    const started = Date.now();
    const frame: RfqFrame = { type: 'rfq', rfq_id: rfqId, ...request, quote_type: 'exact_input', answer_by: started + this.config.RFQ_DEADLINE_MS };
    const expected = this.liveReplicas();
    return new Promise<RfqOutcome>((resolve, reject) => {
      const acked = new Set<string>();
      const asked = new Map<string, AuthenticatedSolver>();
      const outcomes = new Map<string, SolverOutcome>();
      let windowOver = false;
      let done = false;
      const timers: NodeJS.Timeout[] = [];
      let gathering: { close(): void } | undefined;
      const finish = () => {
        if (done) return;
        done = true;
        for (const t of timers) clearTimeout(t);
        gathering?.close();
        const complete = asked.size > 0 && [...asked.keys()].every((id) => outcomes.has(id));
        this.duration.observe({ outcome: complete ? 'complete' : 'deadline' }, (Date.now() - started) / 1000);
        resolve({ rfqId, asked: [...asked.values()], outcomes, elapsedMs: Date.now() - started });
      };
      const check = () => {
        const heardAll = windowOver || (expected.length > 0 && expected.every((r) => acked.has(r)));
        if (heardAll && [...asked.keys()].every((id) => outcomes.has(id))) finish();
      };
      const onReply = (text: string) => {
        if (done) return;
        let reply: RfqReply;
        try {
          reply = JSON.parse(text) as RfqReply;
        } catch {
          return;
        }
        if (reply.kind === 'ack') {
          acked.add(reply.replica);
          this.knownReplicas.set(reply.replica, Date.now());
          for (const solver of reply.solvers) if (!asked.has(solver.id)) asked.set(solver.id, solver);
        } else {
          const known = outcomes.get(reply.solverId);
          // A solver connected twice may be missed on one connection and answer on the other.
          if (!known || (known.missed && reply.kind !== 'missed')) outcomes.set(reply.solverId, outcomeOf(reply));
        }
        check();
      };
      try {
        const requestId = RequestContext.requestId();
        gathering = this.messaging.bus.gather(Broadcasts.rfq, JSON.stringify(frame), (d) => onReply(d.data), requestId ? { headers: { [MessageHeaders.requestId]: requestId } } : undefined);
      } catch (error) {
        this.logger.warn({ err: error }, 'request for quote not sent');
        reject(new AppError(503, ErrorCode.DependencyUnavailable, 'The internal message bus is unavailable; retry later'));
        return;
      }
      timers.push(
        setTimeout(() => {
          windowOver = true;
          check();
        }, this.config.RFQ_ACK_WINDOW_MS),
        setTimeout(finish, this.config.RFQ_DEADLINE_MS),
      );
    });
  }

  /** Replicas that answered an RFQ lately: each is waited for until it answers (or the deadline). */
  private liveReplicas(): string[] {
    const cutoff = Date.now() - REPLICA_MEMORY_MS;
    for (const [replica, at] of this.knownReplicas) if (at < cutoff) this.knownReplicas.delete(replica);
    return [...this.knownReplicas.keys()];
  }
}

function outcomeOf(reply: Exclude<RfqReply, { kind: 'ack' }>): SolverOutcome {
  switch (reply.kind) {
    case 'answer':
      return { quotedAmount: BigInt(reply.quotedAmount), ms: reply.ms };
    case 'decline':
      return { declined: reply.code, message: reply.message, ms: reply.ms };
    case 'missed':
      return { missed: reply.reason };
  }
}
