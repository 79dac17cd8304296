import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ReadModelStore } from '@swap/cache';
import { submissionStatusKey, Subjects, type SubmissionStatusData, type SubmissionStreamEvent } from '@swap/contracts';
import { MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { ServiceMetrics } from '@swap/observability';
import { LOGGER, READ_MODELS } from '@swap/service-kit';
import type { Session } from 'better-sse';
import { Gauge } from 'prom-client';

/** A comment line on every stream this often, so proxies and clients see it alive. */
export const HEARTBEAT_MS = 15_000;
/** A stream that heard nothing this long compares its last event with the read model (an announcement lost on the bus). */
const RESYNC_AFTER_MS = 60_000;

/** The submission a stream follows: the canonical chain key and the hash as stored. */
export interface StreamTarget {
  txHash: string;
  srcChainKey: string;
}

/**
 * The open status streams of this replica (GET /v1/swaps/submit-tx/events), by submission.
 * Every replica hears every transition (a plain bus subscription) and hands it to the
 * streams of its swap; each stream sends the events in order of `seq`, once each: one it
 * already sent is dropped, and a gap (an announcement lost, or one that overtook another) is
 * filled by asking relay-tracker for the events after the last one sent. A stream closes
 * after a terminal status, and every stream ends when the service stops (clients reconnect
 * to another replica with Last-Event-ID).
 */
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

  /**
   * A stream for `target`, listening from now on (what it hears waits until `start`), so no
   * transition committed between the replay's read and the stream's start is missed.
   */
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

  /** A transition announced on the bus: to the streams of its submission on this replica. */
  deliver(event: StreamTarget & SubmissionStreamEvent): void {
    const streams = this.byKey.get(keyOf(event));
    if (!streams) return;
    const { seq, status, data } = event;
    for (const stream of streams) stream.hear({ seq, status, data });
  }

  /** How many streams are open here. */
  get size(): number {
    let count = 0;
    for (const streams of this.byKey.values()) count += streams.size;
    return count;
  }

  /** The events of the submission after `after`, from relay-tracker. */
  async eventsAfter(target: StreamTarget, after: number): Promise<SubmissionStreamEvent[]> {
    const { events } = await this.messaging.request(Subjects.submissionEvents, { ...target, after });
    return events;
  }

  /** How many history entries the read model's answer holds (undefined: not there). */
  async knownLength(target: StreamTarget): Promise<number | undefined> {
    const kept = await this.readModels.get(submissionStatusKey(target.srcChainKey, target.txHash)).catch(() => undefined);
    if (!kept) return undefined;
    return (JSON.parse(kept) as { data: SubmissionStatusData }).data.history.length;
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

  /** SIGTERM: every stream ends now (its client reconnects elsewhere, resuming after its last event). */
  onModuleDestroy(): void {
    this.stopping = true;
    clearInterval(this.resyncTimer);
    for (const streams of [...this.byKey.values()]) for (const stream of [...streams]) stream.close();
  }

  /** Streams quiet for a minute check the read model for events they did not hear; one at a time. */
  private async resyncQuiet(): Promise<void> {
    const now = Date.now();
    for (const streams of [...this.byKey.values()])
      for (const stream of [...streams]) if (now - stream.lastHeardAt >= RESYNC_AFTER_MS) await stream.resync();
  }
}

/**
 * One open stream: events in order of seq, each once. Until `start` what it hears is kept;
 * while a gap is being filled, too.
 */
export class SubmissionStream {
  private session?: Session;
  private response?: { end(): void };
  private lastSent: number;
  private held: SubmissionStreamEvent[] = [];
  private filling = true;
  private closed = false;
  lastHeardAt = Date.now();

  constructor(
    readonly target: StreamTarget,
    after: number,
    private readonly streams: SubmissionStreams,
  ) {
    this.lastSent = after;
  }

  /** The session is open on `response`: the replay first, then what was heard meanwhile. */
  start(session: Session, response: { end(): void }, replay: SubmissionStreamEvent[]): void {
    this.session = session;
    this.response = response;
    if (this.closed) return response.end();
    session.once('disconnected', () => this.close());
    this.filling = false;
    this.send(replay);
  }

  hear(event: SubmissionStreamEvent): void {
    this.lastHeardAt = Date.now();
    if (this.filling) this.held.push(event);
    else this.send([event]);
  }

  /** Asks for what came after the last event sent when the read model knows of more. */
  async resync(): Promise<void> {
    if (this.filling || this.closed) return;
    this.lastHeardAt = Date.now();
    const known = await this.streams.knownLength(this.target);
    if (known !== undefined && known > this.lastSent) await this.fill();
  }

  /** Ends the stream (once): after a terminal event, when its client went, when the service stops. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.streams.forget(this);
    this.response?.end();
  }

  /**
   * Sends what follows the last event sent, in order, with what was held; at a gap the rest is
   * held and the missing events asked for (`mayFill`: not again right after asking).
   */
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

  /** Events after the last sent, from relay-tracker; then what was held. Without them the held wait for the next event or resync. */
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
