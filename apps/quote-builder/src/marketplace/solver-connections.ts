import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  EVM_HASH_PATTERN,
  isUint256String,
  SolverErrorCode,
  type ExecuteFrame,
  type FilledFrame,
  type MarketplaceFrame,
  type RfqFrame,
} from '@swap/contracts';
import { ServiceMetrics, type Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { randomUUID } from 'node:crypto';
import { Counter, Gauge } from 'prom-client';
import type { WebSocket } from 'ws';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { SolverAccountsService, type AuthenticatedSolver } from './solver-accounts.service';

/** What a replica tells the replica that asked for quotes, on the RFQ's reply address. */
export type RfqReply =
  | { kind: 'ack'; replica: string; solvers: AuthenticatedSolver[] }
  | { kind: 'answer'; solverId: string; quotedAmount: string; ms: number }
  | { kind: 'decline'; solverId: string; code: number; message?: string; ms: number }
  | { kind: 'missed'; solverId: string; reason: 'disconnected' | 'invalid' };

interface Session {
  id: string;
  solver: AuthenticatedSolver;
  socket: WebSocket;
  connectedAt: number;
  lastHeard: number;
}

interface PendingRfq {
  sentAt: number;
  waiting: Map<string, Session>;
  respond: (reply: RfqReply) => void;
  timer: NodeJS.Timeout;
}

const WS_CLOSE = { goingAway: 1001, policy: 1008, heartbeatTimeout: 4408, revoked: 4403 } as const;

/** This replica's solver connections and their frames; RfqService reaches the other replicas' solvers. */
@Injectable()
export class SolverConnections implements OnModuleInit, OnModuleDestroy {
  /** Stable for the life of this process. */
  readonly replicaId = randomUUID();
  private readonly sessions = new Map<string, Session>();
  private readonly pending = new Map<string, PendingRfq>();
  private readonly fillListeners: ((solver: AuthenticatedSolver, frame: FilledFrame) => void)[] = [];
  private readonly connectListeners: ((solver: AuthenticatedSolver, send: (frame: MarketplaceFrame) => void) => void)[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly connectionsGauge: Gauge;
  private readonly answers: Counter<'solver' | 'outcome'>;

  constructor(
    private readonly config: QuoteBuilderConfig,
    private readonly accounts: SolverAccountsService,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: ServiceMetrics,
  ) {
    this.connectionsGauge = new Gauge({
      name: 'solver_connections',
      help: 'Solver connections open to this replica',
      registers: [metrics.registry],
    });
    this.answers = new Counter({
      name: 'solver_rfq_answers_total',
      help: 'Answers of solvers to requests for quote, by solver and outcome (quote, decline, late, invalid, disconnected)',
      labelNames: ['solver', 'outcome'],
      registers: [metrics.registry],
    });
  }

  onModuleInit(): void {
    const heartbeat = this.config.SOLVER_HEARTBEAT_MS;
    this.timers.push(setInterval(() => this.beat(), heartbeat).unref());
    // Silence is checked more often than heartbeats go out, so a solver is dropped close to 2.5 heartbeats.
    this.timers.push(setInterval(() => this.reap(), Math.max(50, heartbeat / 5)).unref());
    // A lost change event must not leave a suspended solver connected for long.
    this.timers.push(setInterval(() => void this.revalidate(), Math.max(heartbeat, 30_000)).unref());
  }

  /** Solvers are told to go elsewhere (1001) and reconnect to another replica. */
  onModuleDestroy(): void {
    for (const timer of this.timers) clearInterval(timer);
    for (const session of this.sessions.values()) session.socket.close(WS_CLOSE.goingAway, 'marketplace replica shutting down');
  }

  get size(): number {
    return this.sessions.size;
  }

  onFill(listener: (solver: AuthenticatedSolver, frame: FilledFrame) => void): void {
    this.fillListeners.push(listener);
  }

  onConnect(listener: (solver: AuthenticatedSolver, send: (frame: MarketplaceFrame) => void) => void): void {
    this.connectListeners.push(listener);
  }

  attach(socket: WebSocket, solver: AuthenticatedSolver): void {
    const now = Date.now();
    const session: Session = { id: randomUUID(), solver, socket, connectedAt: now, lastHeard: now };
    this.sessions.set(session.id, session);
    this.connectionsGauge.set(this.sessions.size);
    socket.on('message', (data, isBinary) => this.onFrame(session, isBinary ? undefined : data.toString()));
    socket.on('close', () => this.detach(session));
    socket.on('error', (error) => this.logger.warn({ err: error, solver: solver.name }, 'solver connection error'));
    this.logger.info({ solverId: solver.id, solver: solver.name, session: session.id }, 'solver connected');
    this.send(session, {
      type: 'welcome',
      solver_id: solver.id,
      name: solver.name,
      heartbeat_ms: this.config.SOLVER_HEARTBEAT_MS,
      rfq_deadline_ms: this.config.RFQ_DEADLINE_MS,
    });
    for (const listener of this.connectListeners) listener(solver, (frame) => this.send(session, frame));
  }

  /** An announced suspension or removal, believed only as the database has it (the bus proves nothing: docs/architecture/bus-signatures.md). */
  async recheck(solverId: string, reason: string): Promise<void> {
    await this.revalidate([solverId], reason);
  }

  drop(solverId: string, reason: string): void {
    for (const session of this.sessions.values()) {
      if (session.solver.id === solverId) session.socket.close(WS_CLOSE.revoked, reason);
    }
  }

  /** One session each: the newest, when a solver connected twice. */
  connectedSolvers(): AuthenticatedSolver[] {
    return [...this.latestSessions().values()].map((s) => s.solver);
  }

  forwardRfq(frame: RfqFrame, respond: (reply: RfqReply) => void): void {
    const sessions = [...this.latestSessions().values()];
    respond({ kind: 'ack', replica: this.replicaId, solvers: sessions.map((s) => s.solver) });
    if (sessions.length === 0) return;
    const wait = Math.max(0, frame.answer_by - Date.now());
    const pending: PendingRfq = {
      sentAt: Date.now(),
      waiting: new Map(sessions.map((s) => [s.solver.id, s])),
      respond,
      timer: setTimeout(() => this.pending.delete(frame.rfq_id), wait),
    };
    this.pending.set(frame.rfq_id, pending);
    for (const session of sessions) this.send(session, frame);
  }

  deliverExecution(frame: ExecuteFrame, audience: 'winner' | 'all'): void {
    for (const session of this.latestSessions().values()) {
      const isWinner = session.solver.id === frame.exclusive_solver;
      if (audience === 'winner' ? isWinner : !isWinner) this.send(session, frame);
    }
  }

  private latestSessions(): Map<string, Session> {
    const latest = new Map<string, Session>();
    for (const session of this.sessions.values()) {
      const known = latest.get(session.solver.id);
      if (!known || known.connectedAt <= session.connectedAt) latest.set(session.solver.id, session);
    }
    return latest;
  }

  private onFrame(session: Session, text: string | undefined): void {
    session.lastHeard = Date.now();
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(text ?? '') as Record<string, unknown>;
      if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) throw new Error('not an object');
    } catch {
      return this.refuse(session, 'frames are JSON objects sent as text');
    }
    switch (frame.type) {
      case 'heartbeat':
        return;
      case 'quote':
      case 'decline':
        return this.onAnswer(session, frame);
      case 'filled':
        if (
          typeof frame.intent_hash !== 'string' ||
          !EVM_HASH_PATTERN.test(frame.intent_hash) ||
          typeof frame.fill_tx_hash !== 'string' ||
          !EVM_HASH_PATTERN.test(frame.fill_tx_hash)
        ) {
          return this.refuse(session, 'filled needs intent_hash and fill_tx_hash, each 0x and 64 hex digits');
        }
        for (const listener of this.fillListeners) listener(session.solver, frame as unknown as FilledFrame);
        return;
      default:
        return this.refuse(session, 'unknown frame type; expected heartbeat, quote, decline or filled');
    }
  }

  private onAnswer(session: Session, frame: Record<string, unknown>): void {
    const solverId = session.solver.id;
    // The frame's shape first: a malformed answer is told so, whether or not it is in time.
    const problem =
      typeof frame.rfq_id !== 'string'
        ? 'rfq_id must be the id of the request for quote'
        : frame.type === 'quote'
          ? !isUint256String(frame.quoted_amount) || frame.quoted_amount === '0'
            ? 'quoted_amount must be a positive integer in a decimal string'
            : undefined
          : typeof frame.code !== 'number' || !Number.isInteger(frame.code) || frame.code >= 0
            ? 'code must be a negative integer (-4 no path, -5 no liquidity, -8 not enough liquidity)'
            : undefined;
    const pending = typeof frame.rfq_id === 'string' ? this.pending.get(frame.rfq_id) : undefined;
    const awaited = pending?.waiting.get(solverId) === session;
    if (problem) {
      this.answers.inc({ solver: session.solver.name, outcome: 'invalid' });
      this.refuse(session, problem);
      if (!awaited) return;
    } else if (!awaited) {
      // Past the deadline, answered twice, or never asked: ignored (the asker has moved on).
      this.answers.inc({ solver: session.solver.name, outcome: 'late' });
      return;
    }
    const rfqId = frame.rfq_id as string;
    const waiting = pending!;
    waiting.waiting.delete(solverId);
    if (waiting.waiting.size === 0) {
      clearTimeout(waiting.timer);
      this.pending.delete(rfqId);
    }
    if (problem) return waiting.respond({ kind: 'missed', solverId, reason: 'invalid' });
    const ms = Date.now() - waiting.sentAt;
    if (frame.type === 'quote') {
      this.answers.inc({ solver: session.solver.name, outcome: 'quote' });
      return waiting.respond({ kind: 'answer', solverId, quotedAmount: frame.quoted_amount as string, ms });
    }
    this.answers.inc({ solver: session.solver.name, outcome: 'decline' });
    waiting.respond({
      kind: 'decline',
      solverId,
      code: frame.code as number,
      message: typeof frame.message === 'string' ? frame.message.slice(0, 200) : undefined,
      ms,
    });
  }

  private detach(session: Session): void {
    if (!this.sessions.delete(session.id)) return;
    this.connectionsGauge.set(this.sessions.size);
    this.logger.info({ solverId: session.solver.id, solver: session.solver.name, session: session.id }, 'solver disconnected');
    // Whoever waits on this solver's answers hears at once that none will come.
    for (const [rfqId, pending] of this.pending) {
      if (pending.waiting.get(session.solver.id) !== session) continue;
      pending.waiting.delete(session.solver.id);
      this.answers.inc({ solver: session.solver.name, outcome: 'disconnected' });
      pending.respond({ kind: 'missed', solverId: session.solver.id, reason: 'disconnected' });
      if (pending.waiting.size === 0) {
        clearTimeout(pending.timer);
        this.pending.delete(rfqId);
      }
    }
  }

  private beat(): void {
    const now = Date.now();
    for (const session of this.sessions.values()) this.send(session, { type: 'heartbeat', at: now });
  }

  private reap(): void {
    const silentSince = Date.now() - this.config.SOLVER_HEARTBEAT_MS * 2.5;
    for (const session of this.sessions.values()) {
      if (session.lastHeard >= silentSince) continue;
      this.logger.warn({ solver: session.solver.name, session: session.id }, 'solver silent past its heartbeats; dropped');
      session.socket.close(WS_CLOSE.heartbeatTimeout, 'no heartbeat');
      session.socket.terminate();
    }
  }

  private async revalidate(among?: string[], reason = 'solver is no longer active'): Promise<void> {
    const connected = new Set([...this.sessions.values()].map((s) => s.solver.id));
    const ids = among ? among.filter((id) => connected.has(id)) : [...connected];
    if (ids.length === 0) return;
    try {
      const active = await this.accounts.activeAmong(ids);
      for (const id of ids) if (!active.has(id)) this.drop(id, reason);
    } catch (error) {
      this.logger.warn({ err: error, solvers: ids.length }, 'solver status check failed; connections kept');
    }
  }

  private refuse(session: Session, message: string): void {
    this.send(session, { type: 'error', code: SolverErrorCode.Unknown, message });
  }

  private send(session: Session, frame: MarketplaceFrame): void {
    if (session.socket.readyState !== session.socket.OPEN) return;
    session.socket.send(JSON.stringify(frame));
  }

  static readonly closeCodes = WS_CLOSE;
}
