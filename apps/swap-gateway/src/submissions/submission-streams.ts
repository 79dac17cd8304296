import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ReadModelStore } from '@swap/cache';
import { submissionStatusKey, Subjects, type SubmissionStatusData, type SubmissionStreamEvent } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { ServiceMetrics } from '@swap/observability';
import { LOGGER, READ_MODELS } from '@swap/service-kit';
import type { Session } from 'better-sse';
import { Gauge } from 'prom-client';

/** So proxies and clients see the stream alive. */
export const HEARTBEAT_MS = 15_000;
/** Then a quiet stream compares its last event with the read model (an announcement lost on the bus). */
const RESYNC_AFTER_MS = 60_000;

export interface StreamTarget {
  txHash: string;
  srcChainKey: string;
}

/** This replica's status streams; see docs/integrators/push-status.md#how-it-works. */
@Injectable()
export class SubmissionStreams implements OnModuleDestroy {
  private readonly byKey = new Map<string, Set<SubmissionStream>>();
  private readonly open: Gauge;
  private readonly resyncTimer: NodeJS.Timeout;
  private stopping = false;

  constructor(
    private readonly messaging: MessagingClient,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: ServiceMetrics,
  ) {
    this.open = new Gauge({
      name: 'submission_streams_open',
      help: 'Status streams (GET /v1/swaps/submit-tx/events) open on this replica',
      registers: [metrics.registry],
    });
    this.resyncTimer = setInterval(() => void this.resyncQuiet(), RESYNC_AFTER_MS / 4);
    this.resyncTimer.unref();
  }

  /** Listening from now on, so no transition between the replay's read and `start` is missed. */
  watch(target: StreamTarget, after: number): SubmissionStream {
    if (this.stopping) throw new Error('stopping');
    const stream = new SubmissionStream(target, after, this);
    const key = keyOf(target);
    let streams = this.byKey.get(key);
    if (!streams) this.byKey.set(key, (streams = new Set()));
    streams.add(stream);
    this.open.inc();
    return stream;
  }

  /** An announcement is believed only as relay-tracker's read model has it (docs/integrators/push-status.md#how-it-works); else relay-tracker is asked. */
  deliver(event: StreamTarget & SubmissionStreamEvent): void {
    const streams = this.byKey.get(keyOf(event));
    if (!streams) return;
    void this.confirmed(event)
      .catch(() => undefined)
      .then((confirmed) => {
        for (const stream of [...streams])
          if (confirmed) stream.hear(confirmed);
          else stream.check();
      });
  }

  private async confirmed(event: StreamTarget & SubmissionStreamEvent): Promise<SubmissionStreamEvent | undefined> {
    const data = await this.kept(event);
    return data?.history.length === event.seq && data.status === event.status ? { seq: event.seq, status: data.status, data } : undefined;
  }

  get size(): number {
    let count = 0;
    for (const streams of this.byKey.values()) count += streams.size;
    return count;
  }

  async eventsAfter(target: StreamTarget, after: number): Promise<SubmissionStreamEvent[]> {
    const { events } = await this.messaging.request(Subjects.submissionEvents, { ...target, after });
    return events;
  }

  /** Undefined: not in the read model. */
  async knownLength(target: StreamTarget): Promise<number | undefined> {
    return (await this.kept(target))?.history.length;
  }

  private async kept(target: StreamTarget): Promise<SubmissionStatusData | undefined> {
    const kept = await this.readModels.get(submissionStatusKey(target.srcChainKey, target.txHash)).catch(() => undefined);
    return kept ? (JSON.parse(kept) as { data: SubmissionStatusData }).data : undefined;
  }

  forget(stream: SubmissionStream): void {
    const key = keyOf(stream.target);
    const streams = this.byKey.get(key);
    if (!streams?.delete(stream)) return;
    this.open.dec();
    if (!streams.size) this.byKey.delete(key);
  }

  warn(error: unknown, target: StreamTarget, message: string): void {
    this.logger.warn({ err: error, ...target }, message);
  }

  /** SIGTERM: clients reconnect elsewhere, resuming after their last event. */
  onModuleDestroy(): void {
    this.stopping = true;
    clearInterval(this.resyncTimer);
    for (const streams of [...this.byKey.values()]) for (const stream of [...streams]) stream.close();
  }

  /** One at a time. */
  private async resyncQuiet(): Promise<void> {
    const now = Date.now();
    for (const streams of [...this.byKey.values()])
      for (const stream of [...streams]) if (now - stream.lastHeardAt >= RESYNC_AFTER_MS) await stream.resync();
  }
}

/** Events in order of seq, each once; what it hears is held until `start`, and while a gap is filled. */
export class SubmissionStream {
  private session?: Session;
  private response?: { end(): void };
  private lastSent: number;
  private held: SubmissionStreamEvent[] = [];
  private filling = true;
  private recheckAfterFilling = false;
  private closed = false;
  lastHeardAt = Date.now();

  constructor(
    readonly target: StreamTarget,
    after: number,
    private readonly streams: SubmissionStreams,
  ) {
    this.lastSent = after;
  }

  /** The replay first, then what was heard meanwhile. */
  start(session: Session, response: { end(): void }, replay: SubmissionStreamEvent[]): void {
    this.session = session;
    this.response = response;
    if (this.closed) return response.end();
    session.once('disconnected', () => this.close());
    this.filling = false;
    this.send(replay);
    this.fillIfAsked();
  }

  hear(event: SubmissionStreamEvent): void {
    this.lastHeardAt = Date.now();
    if (this.filling) this.held.push(event);
    else this.send([event]);
  }

  check(): void {
    this.lastHeardAt = Date.now();
    if (this.filling) this.recheckAfterFilling = true;
    else void this.fill();
  }

  async resync(): Promise<void> {
    if (this.filling || this.closed) return;
    this.lastHeardAt = Date.now();
    const known = await this.streams.knownLength(this.target);
    if (known !== undefined && known > this.lastSent) await this.fill();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.streams.forget(this);
    this.response?.end();
  }

  /** At a gap the rest is held and the missing events asked for (`mayFill`: not again right after asking). */
  private send(events: SubmissionStreamEvent[], mayFill = true): void {
    const pending = [...this.held, ...events].sort((a, b) => a.seq - b.seq);
    this.held = [];
    for (let i = 0; i < pending.length; i++) {
      const event = pending[i];
      if (event.seq <= this.lastSent) continue;
      if (event.seq > this.lastSent + 1) {
        this.held = pending.slice(i);
        if (mayFill) void this.fill();
        return;
      }
      if (!this.push(event) || event.data.terminal) return this.close();
    }
  }

  /** Without an answer the held events wait for the next event or resync. */
  private async fill(): Promise<void> {
    if (this.filling || this.closed) return;
    this.filling = true;
    let fetched: SubmissionStreamEvent[] = [];
    try {
      fetched = await this.streams.eventsAfter(this.target, this.lastSent);
    } catch (error) {
      this.streams.warn(error, this.target, 'status stream gap not filled; the next event or resync tries again');
    }
    this.filling = false;
    if (!this.closed) this.send(fetched, false);
    this.fillIfAsked();
  }

  private fillIfAsked(): void {
    if (!this.recheckAfterFilling || this.closed) return;
    this.recheckAfterFilling = false;
    void this.fill();
  }

  private push(event: SubmissionStreamEvent): boolean {
    if (!this.session?.isConnected) return false;
    this.session.push(event.data, event.status, String(event.seq));
    this.lastSent = event.seq;
    return true;
  }
}

function keyOf(target: StreamTarget): string {
  return `${target.srcChainKey}:${target.txHash}`;
}
