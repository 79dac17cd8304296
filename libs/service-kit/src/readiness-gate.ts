import type { BusIntake } from '@swap/messaging';
import { probeDependencies, type DependencyCheck, type Logger, type ServiceMetrics } from '@swap/observability';

export interface ReadinessGateOptions {
  /** Optional ones (a cache) never pause intake. */
  checks: DependencyCheck[];
  intake: BusIntake;
  logger: Logger;
  metrics: ServiceMetrics;
  everyMs?: number;
  pauseAfter?: number;
  resumeAfter?: number;
}

// Why these three: docs/architecture/runtime.md#readiness-and-bus-intake.
export const GATE_EVERY_MS = 1_000;
export const GATE_PAUSE_AFTER = 2;
export const GATE_RESUME_AFTER = 3;

/** Pauses a replica's shared bus work while its required checks fail. */
export class ReadinessGate {
  private readonly everyMs: number;
  private readonly pauseAfter: number;
  readonly resumeAfter: number;
  private failedRounds = 0;
  private goodRounds = 0;
  private timer?: NodeJS.Timeout;
  private started = false;
  private stopped = false;
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

  /** Intake stays as it is: the bus server drains it anyway. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async round(): Promise<void> {
    const report = await probeDependencies(this.options.checks);
    // Shutting down meanwhile: the drain decides what happens to intake now.
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
