import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AppError, Broadcasts, ErrorCode, Events, isUint256String, MessageHeaders, type RfqFrame } from '@swap/contracts';
import { MessagingClient, type BusSubscription } from '@swap/messaging';
import {
  activeTraceparent,
  inSpan,
  recordSpan,
  RequestContext,
  ServiceMetrics,
  SpanKind,
  tracingEnabled,
  type Logger,
} from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { randomUUID } from 'node:crypto';
import { Histogram } from 'prom-client';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { SolverConnections, type RfqReply } from './solver-connections';
import type { AuthenticatedSolver } from './solver-accounts.service';

/** What is asked of solvers: hub assets, the input after the partner fee, in hub units. */
export type RfqRequest = Pick<RfqFrame, 'token_src' | 'token_dst' | 'amount' | 'src_chain_id' | 'dst_chain_id'>;

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
  /** Milliseconds from the ask until the RFQ had gone to every solver here and onto the bus. */
  sentMs: number;
  /** Milliseconds from the ask until the last answer taken (the ask's own time when none came). */
  lastAnswerMs: number;
  elapsedMs: number;
}

/** How often each replica says it is up, and how long one not heard from is still waited for. */
const PRESENCE_MS = 2_000;
const PRESENCE_EXPIRY_MS = 3 * PRESENCE_MS;

interface RfqBroadcast {
  origin: string;
  frame: RfqFrame;
}

/** Requests for quote across replicas; see docs/architecture/marketplace.md#how-the-rfq-crosses-replicas. */
@Injectable()
export class RfqService implements OnModuleInit, OnModuleDestroy {
  private subscription?: BusSubscription;
  private readonly knownReplicas = new Map<string, number>();
  private readonly duration: Histogram<'outcome'>;
  private readonly startedAt = Date.now();
  private presence?: NodeJS.Timeout;

  constructor(
    private readonly messaging: MessagingClient,
    private readonly connections: SolverConnections,
    private readonly config: QuoteBuilderConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: ServiceMetrics,
  ) {
    this.duration = new Histogram({
      name: 'rfq_duration_seconds',
      help: 'Time from a request for quote to the decision, by outcome (complete: every asked solver answered; deadline: some did not; no-solvers: none was connected)',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2.5, 5, 10],
      registers: [metrics.registry],
    });
  }

  onModuleInit(): void {
    const self = this.connections.replicaId;
    this.subscription = this.messaging.bus.subscribe(Broadcasts.rfq, (delivery) => {
      const respond = delivery.respond;
      if (!respond) return;
      let broadcast: RfqBroadcast;
      try {
        broadcast = JSON.parse(delivery.data) as RfqBroadcast;
      } catch {
        return;
      }
      const frame = broadcast?.frame;
      if (broadcast.origin === self || frame?.type !== 'rfq' || typeof frame.rfq_id !== 'string' || typeof frame.answer_by !== 'number')
        return;
      this.connections.forwardRfq(frame, (reply) => respond(JSON.stringify(reply)));
    });
    const announce = () => {
      try {
        this.messaging.emit(Events.replicaPresent, { replica: self });
      } catch (error) {
        this.logger.debug({ err: error }, 'presence not announced');
      }
    };
    announce();
    this.presence = setInterval(announce, PRESENCE_MS);
    this.presence.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.presence);
    try {
      this.messaging.emit(Events.replicaLeaving, { replica: this.connections.replicaId });
    } catch {
      // The others stop waiting for this replica once its presence expires anyway.
    }
    await this.subscription?.drain();
  }

  present(replica: string): void {
    if (replica !== this.connections.replicaId) this.knownReplicas.set(replica, Date.now());
  }

  forget(replica: string): void {
    this.knownReplicas.delete(replica);
  }

  ask(request: RfqRequest): Promise<RfqOutcome> {
    if (!tracingEnabled()) return this.askSolvers(request);
    return inSpan('rfq', { kind: SpanKind.INTERNAL }, async (span) => {
      const startMs = Date.now();
      const outcome = await this.askSolvers(request, activeTraceparent());
      span.setAttributes({ 'rfq.id': outcome.rfqId, 'rfq.solvers_asked': outcome.asked.length });
      for (const solver of outcome.asked) {
        const answer = outcome.outcomes.get(solver.id);
        const result = !answer
          ? 'no-answer'
          : answer.missed
            ? `missed-${answer.missed}`
            : answer.declined !== undefined
              ? 'declined'
              : 'quoted';
        recordSpan(`rfq solver ${solver.name}`, {
          kind: SpanKind.CLIENT,
          attributes: { 'solver.id': solver.id, 'solver.name': solver.name, 'rfq.result': result },
          startMs,
          endMs: startMs + (answer?.ms ?? outcome.elapsedMs),
          ...(result === 'no-answer' ? { error: 'no answer by the deadline' } : {}),
        });
      }
      return outcome;
    });
  }

  private askSolvers(request: RfqRequest, traceparent?: string): Promise<RfqOutcome> {
    const rfqId = randomUUID();
    const started = performance.now();
    const frame: RfqFrame = {
      type: 'rfq',
      rfq_id: rfqId,
      ...request,
      quote_type: 'exact_input',
      answer_by: Date.now() + this.config.RFQ_DEADLINE_MS,
      ...(traceparent ? { traceparent } : {}),
    };
    const expected = this.liveReplicas();
    // Until it has heard the others' presence, a new replica also waits for strangers.
    const newcomer = Date.now() - this.startedAt < PRESENCE_MS * 1.5;
    return new Promise<RfqOutcome>((resolve, reject) => {
      const acked = new Set<string>();
      const asked = new Map<string, AuthenticatedSolver>();
      const outcomes = new Map<string, SolverOutcome>();
      let windowOver = false;
      let done = false;
      let sentMs = 0;
      let lastAnswerMs = 0;
      const timers: NodeJS.Timeout[] = [];
      let gathering: { close(): void } | undefined;
      const finish = () => {
        if (done) return;
        done = true;
        for (const t of timers) clearTimeout(t);
        gathering?.close();
        const complete = [...asked.keys()].every((id) => outcomes.has(id));
        this.duration.observe(
          { outcome: asked.size === 0 ? 'no-solvers' : complete ? 'complete' : 'deadline' },
          (performance.now() - started) / 1000,
        );
        resolve({ rfqId, asked: [...asked.values()], outcomes, sentMs, lastAnswerMs, elapsedMs: performance.now() - started });
      };
      const check = () => {
        // A busy known replica acknowledges late, not never; unknown ones only count for a newcomer's window.
        const heardAll = expected.every((r) => acked.has(r)) && (windowOver || !newcomer);
        if (heardAll && [...asked.keys()].every((id) => outcomes.has(id))) finish();
      };
      const onReply = (reply: RfqReply | undefined) => {
        if (done || !reply) return;
        if (reply.kind === 'ack') {
          acked.add(reply.replica);
          for (const solver of reply.solvers) if (!asked.has(solver.id)) asked.set(solver.id, solver);
        } else {
          const known = outcomes.get(reply.solverId);
          // A solver connected twice may be missed on one connection and answer on the other.
          if (!known || (known.missed && reply.kind !== 'missed')) {
            outcomes.set(reply.solverId, outcomeOf(reply));
            if (reply.kind !== 'missed') lastAnswerMs = performance.now() - started;
          }
        }
        check();
      };
      try {
        const requestId = RequestContext.requestId();
        const broadcast: RfqBroadcast = { origin: this.connections.replicaId, frame };
        gathering = this.messaging.bus.gather(
          Broadcasts.rfq,
          JSON.stringify(broadcast),
          (d) => onReply(parseReply(d.data)),
          requestId ? { headers: { [MessageHeaders.requestId]: requestId } } : undefined,
        );
      } catch (error) {
        this.logger.warn({ err: error }, 'request for quote not sent');
        reject(new AppError(503, ErrorCode.DependencyUnavailable, 'The internal message bus is unavailable; retry later'));
        return;
      }
      this.connections.forwardRfq(frame, onReply);
      sentMs = performance.now() - started;
      timers.push(
        setTimeout(() => {
          windowOver = true;
          check();
        }, this.config.RFQ_ACK_WINDOW_MS),
        setTimeout(finish, this.config.RFQ_DEADLINE_MS),
      );
    });
  }

  private liveReplicas(): string[] {
    const cutoff = Date.now() - PRESENCE_EXPIRY_MS;
    for (const [replica, at] of this.knownReplicas) if (at < cutoff) this.knownReplicas.delete(replica);
    return [...this.knownReplicas.keys()];
  }
}

/** A reply off the bus; anything unreadable counts as nothing. */
function parseReply(text: string): RfqReply | undefined {
  try {
    const reply = JSON.parse(text) as RfqReply;
    if (reply.kind === 'answer' && !isUint256String(reply.quotedAmount))
      return { kind: 'missed', solverId: reply.solverId, reason: 'invalid' };
    return reply;
  } catch {
    return undefined;
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
