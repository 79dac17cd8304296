import { randomUUID } from 'node:crypto';
import { HandlerSlots, runWorkHandler, type WorkItem, type WorkQueue } from './work-queue';

export type SqlRunner = <T = Record<string, unknown>>(text: string, ...params: unknown[]) => Promise<T[]>;

export interface PgWorkQueueOptions {
  /** Schema-qualified, with id, due_at, attempts, lease_until, leased_by. */
  table: string;
  leaseMs: number;
  /** Items added on this replica wake it at once. */
  pollMs: number;
  onError?: (error: unknown) => void;
}

export class PgWorkQueue extends HandlerSlots implements WorkQueue {
  readonly kind = 'postgres' as const;
  private readonly owner = randomUUID();

  constructor(
    private readonly sql: SqlRunner,
    private readonly options: PgWorkQueueOptions,
  ) {
    super();
  }

  async add(id: string): Promise<boolean> {
    const [row] = await this.sql<{ leased: boolean }>(
      `INSERT INTO ${this.options.table} AS w (id, due_at) VALUES ($1, now())
       ON CONFLICT (id) DO UPDATE SET due_at = LEAST(w.due_at, now())
       RETURNING w.lease_until IS NOT NULL AND w.lease_until > now() AS leased`,
      id,
    );
    this.wake?.();
    return !row?.leased;
  }

  async depth(): Promise<number> {
    const [row] = await this.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.options.table}`);
    return row.n;
  }

  async redelivered(): Promise<number> {
    const [row] = await this.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.options.table} WHERE attempts > 1`);
    return row.n;
  }

  protected async run(): Promise<void> {
    while (this.running) {
      const free = this.concurrency - this.inHand.size;
      let taken = 0;
      if (!this.paused && free > 0) {
        try {
          const items = await this.claim(free);
          taken = items.length;
          for (const item of items) this.hand(item);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
      if (taken === 0 || taken === free)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, taken === 0 ? this.options.pollMs : 0);
          this.wake = () => (clearTimeout(timer), resolve());
        });
    }
  }

  private claim(limit: number): Promise<WorkItem[]> {
    const t = this.options.table;
    return this.sql<WorkItem>(
      `UPDATE ${t} SET lease_until = now() + make_interval(secs => $2::double precision / 1000), leased_by = $1, attempts = attempts + 1
       WHERE id IN (SELECT id FROM ${t} WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now()) ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id, attempts AS attempt`,
      this.owner,
      this.options.leaseMs,
      limit,
    );
  }

  private hand(item: WorkItem): void {
    const t = this.options.table;
    const renew = () => {
      void this.sql(
        `UPDATE ${t} SET lease_until = now() + make_interval(secs => $3::double precision / 1000) WHERE id = $1 AND leased_by = $2`,
        item.id,
        this.owner,
        this.options.leaseMs,
      ).catch((error: unknown) => this.options.onError?.(error));
    };
    const work = (async () => {
      const result = await runWorkHandler(this.handler!, item, renew, Math.max(50, this.options.leaseMs / 3), this.options.onError);
      try {
        if ('done' in result) await this.sql(`DELETE FROM ${t} WHERE id = $1 AND leased_by = $2`, item.id, this.owner);
        else {
          await this.sql(
            `UPDATE ${t} SET due_at = now() + make_interval(secs => $3::double precision / 1000), lease_until = NULL, leased_by = NULL WHERE id = $1 AND leased_by = $2`,
            item.id,
            this.owner,
            result.retryInMs,
          );
        }
      } catch (error) {
        // The lease runs out and the item comes back: nothing is lost.
        this.options.onError?.(error);
      }
    })();
    this.track(work);
  }
}
