import type { BusIntake } from '@swap/messaging';
import { probeDependencies, type DependencyCheck, type Logger, type ServiceMetrics } from '@swap/observability';

export interface ReadinessGateOptions {
  /** The same checks `/readyz` runs; optional ones (a cache) never pause intake. */
  checks: DependencyCheck[];
  intake: BusIntake;
  logger: Logger;
  metrics: ServiceMetrics;
  /** How long after one round of checks the next starts. */
  everyMs?: number;
  /** Failed rounds in a row before intake pauses. */
  pauseAfter?: number;
  /** Good rounds in a row before it resumes. */
  resumeAfter?: number;
}

/** A second between rounds: a broken replica leaves its queue groups within about two. */
export const GATE_EVERY_MS = 1_000;
/** Two failed rounds, not one: a single slow answer does not take a replica out. */
export const GATE_PAUSE_AFTER = 2;
/** Three good rounds: a dependency that flaps does not pull the replica in and out every second. */
export const GATE_RESUME_AFTER = 3;

/**
 * Keeps a replica from taking shared bus work while it cannot do it. The replica's required
 * checks (those `/readyz` runs: PostgreSQL, NATS) run every second; after `pauseAfter`
 * failed rounds in a row the intake pauses (the bus server leaves its queue groups, work
 * queues stop pulling, so the peers answer everything instead of this replica answering
 * 500), and after `resumeAfter` good rounds it resumes. `/readyz` answers 503 for as long as
 * it is paused, so Kubernetes takes the replica out of its Service too. Each transition is
 * logged and shown by the `bus_intake_paused` gauge. Work already taken is finished.
 */
export class ReadinessGate {
  private readonly everyMs: number;
  private readonly pauseAfter: number;
  readonly resumeAfter: number;
  private failedRounds = 0;
  private goodRounds = 0;
  private timer?: NodeJS.Timeout;
  private started = false;
  private stopped = false;
  /** The required checks that failed when intake paused. */
  private failingAtPause: string[] = [];

  constructor(private readonly options: ReadinessGateOptions) {
    this.everyMs = options.everyMs ?? GATE_EVERY_MS;
    this.pauseAfter = options.pauseAfter ?? GATE_PAUSE_AFTER;
    this.resumeAfter = options.resumeAfter ?? GATE_RESUME_AFTER;
    options.metrics.busIntakePaused.set(options.intake.paused ? 1 : 0);
  }

  get paused(): boolean {
    return this.options.intake.paused;
  }

  /** What `/readyz` says while paused: which checks failed, and how far recovery has come. */
  get failing(): string[] {
    return this.failingAtPause;
  }

  get goodRoundsSincePause(): number {
    return this.paused ? this.goodRounds : 0;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule();
  }

  /** Stops checking (shutdown); intake stays as it is (the bus server drains it anyway). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One round of checks and the transition it calls for (the timer's work; tests call it directly). */
  async round(): Promise<void> {
    const report = await probeDependencies(this.options.checks);
    // Stopped meanwhile (shutting down): the drain decides what happens to intake now.
    if (this.stopped) return;
    const failing = Object.entries(report.checks)
      .filter(([, c]) => c.status === 'down' && !c.optional)
      .map(([name]) => name);
    if (failing.length > 0) {
      this.goodRounds = 0;
      this.failedRounds++;
      if (!this.paused && this.failedRounds >= this.pauseAfter) {
        this.failingAtPause = failing;
        this.options.intake.pause();
        this.options.metrics.busIntakePaused.set(1);
        this.options.logger.warn(
          { failing, checks: report.checks },
          `not ready: ${failing.join(', ')} failing; taking no bus work until it answers again`,
        );
      }
      return;
    }
    this.failedRounds = 0;
    this.goodRounds++;
    if (this.paused && this.goodRounds >= this.resumeAfter) {
      this.options.intake.resume();
      this.options.metrics.busIntakePaused.set(0);
      this.options.logger.info(
        { recovered: this.failingAtPause },
        `ready again: ${this.failingAtPause.join(', ')} answered ${this.goodRounds} checks in a row; taking bus work`,
      );
      this.failingAtPause = [];
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.round()
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'readiness gate round failed'))
        .finally(() => {
          if (!this.stopped) this.schedule();
        });
    }, this.everyMs);
    this.timer.unref();
  }
}
