import { PauseReasons } from './intake';

export interface WorkItem {
  id: string;
  /** Deliveries so far, this one included (a crash mid-step counts too). */
  attempt: number;
  /** The W3C trace context it was added with (JetStream keeps it in the message's headers, redeliveries too). */
  traceparent?: string;
}

export type WorkResult = { done: true } | { retryInMs: number };

export type WorkHandler = (item: WorkItem) => Promise<WorkResult>;

/** Handlers must be safe to run again for the same item; see docs/architecture/runtime.md#work-queues-and-event-streams. */
export interface WorkQueue {
  readonly kind: 'jetstream' | 'postgres';
  /**
   * False when the item may be in a replica's hands now: a look after that handler is not promised.
   * `traceparent` goes with the item where the queue can carry it (JetStream headers; Postgres keeps none).
   */
  add(id: string, traceparent?: string): Promise<boolean>;
  start(handler: WorkHandler, options: { concurrency: number }): void;
  /** Paused until every reason given is lifted by `resume`; items in hand finish. */
  pause(reason?: string): void;
  resume(reason?: string): void;
  stop(): Promise<void>;
  depth(): Promise<number>;
  redelivered(): Promise<number>;
}

export function backoffMs(attempt: number): number {
  return Math.min(60_000, 500 * 2 ** Math.min(attempt - 1, 7));
}

export async function runWorkHandler(
  handler: WorkHandler,
  item: WorkItem,
  keepLease: () => void,
  keepLeaseEveryMs: number,
  onError?: (error: unknown) => void,
): Promise<WorkResult> {
  const timer = setInterval(keepLease, keepLeaseEveryMs);
  timer.unref();
  try {
    return await handler(item);
  } catch (error) {
    onError?.(error);
    return { retryInMs: backoffMs(item.attempt) };
  } finally {
    clearInterval(timer);
  }
}

/** What both queues share; a queue supplies `run`, its taking loop. */
export abstract class HandlerSlots {
  protected handler?: WorkHandler;
  protected concurrency = 1;
  protected readonly inHand = new Set<Promise<void>>();
  protected running = false;
  private readonly pauseReasons = new PauseReasons();
  protected loop?: Promise<void>;
  protected wake?: () => void;

  start(handler: WorkHandler, options: { concurrency: number }): void {
    this.handler = handler;
    this.concurrency = options.concurrency;
    this.running = true;
    this.loop = this.run();
  }

  protected get paused(): boolean {
    return this.pauseReasons.paused;
  }

  pause(reason = 'paused'): boolean {
    return this.pauseReasons.add(reason);
  }

  resume(reason = 'paused'): void {
    if (this.pauseReasons.remove(reason)) this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.interrupt();
    await this.loop;
    await Promise.all(this.inHand);
  }

  protected abstract run(): Promise<void>;

  protected async interrupt(): Promise<void> {}

  protected track(work: Promise<void>): void {
    this.inHand.add(work);
    void work.finally(() => {
      this.inHand.delete(work);
      this.wake?.();
    });
  }
}
