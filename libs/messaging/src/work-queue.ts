import { PauseReasons } from './intake';

/** One piece of work, as a consumer is handed it. */
export interface WorkItem {
  id: string;
  /** Deliveries of this item so far, this one included (a crash mid-step counts too). */
  attempt: number;
}

/** What became of an item: finished, or to be handed out again after a while. */
export type WorkResult = { done: true } | { retryInMs: number };

export type WorkHandler = (item: WorkItem) => Promise<WorkResult>;

/**
 * Durable work shared by the replicas of a service: each item is in one replica's hands at
 * a time, and an item whose replica dies mid-step (kill -9) is handed out again once its
 * lease runs out. Handlers must therefore be safe to run again for the same item (the
 * settlement steps are: each transition is a compare-and-set). Two implementations: NATS
 * JetStream (a stream and a durable pull consumer; cluster mode) and PostgreSQL (a table
 * leased with SKIP LOCKED; the embedded default).
 */
export interface WorkQueue {
  readonly kind: 'jetstream' | 'postgres';
  /**
   * Adds an item due now (a second add of a queued id changes nothing but its due time).
   * False when the item may be in a replica's hands at this moment: a look after that
   * handler is then not promised (the caller tries again later).
   */
  add(id: string): Promise<boolean>;
  /** Takes items and hands each to `handler`, at most `concurrency` at once, until stopped. */
  start(handler: WorkHandler, options: { concurrency: number }): void;
  /**
   * Takes no new items (the replica is not ready); items in hand finish. Paused for each
   * `reason` given until that reason is lifted by `resume` (the service's own check and the
   * kit's readiness gate each hold their own).
   */
  pause(reason?: string): void;
  resume(reason?: string): void;
  /** Takes no more items and waits for those in hand. */
  stop(): Promise<void>;
  /** Items waiting or in hand (what an autoscaler reads). */
  depth(): Promise<number>;
  /** Items handed out more than once so far (a replica died or failed on them). */
  redelivered(): Promise<number>;
}

/** Back-off for an item whose handler threw: 0.5 s, 1 s, 2 s … up to a minute. */
export function backoffMs(attempt: number): number {
  return Math.min(60_000, 500 * 2 ** Math.min(attempt - 1, 7));
}

/**
 * Runs `handler` on `item` the way both queues do: `keepLease` is called every
 * `keepLeaseEveryMs` while it runs (the item stays with this replica), and a handler that
 * throws is reported and retried with back-off rather than lost.
 */
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

/**
 * What both queues share: the handler and its slots, the taking loop's lifecycle (start,
 * pause, resume, stop) and the items in hand. A queue supplies `run` (its taking loop),
 * `add`, `depth`, and may close what it holds open when stopped (`interrupt`).
 */
export abstract class HandlerSlots {
  protected handler?: WorkHandler;
  protected concurrency = 1;
  protected readonly inHand = new Set<Promise<void>>();
  protected running = false;
  private readonly pauseReasons = new PauseReasons();
  protected loop?: Promise<void>;
  /** Wakes the taking loop (a slot freed, resumed, stopping, an item added). */
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

  /** Holds `reason`; true when this paused a queue that was taking items. */
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

  /** Keeps `work` among the items in hand until it settles, then wakes the loop (a slot is free). */
  protected track(work: Promise<void>): void {
    this.inHand.add(work);
    void work.finally(() => {
      this.inHand.delete(work);
      this.wake?.();
    });
  }
}
