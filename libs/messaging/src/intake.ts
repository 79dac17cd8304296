/**
 * Something on a replica that takes work shared with its peers: the bus server's
 * queue-group subscriptions, a work queue's consumer. Paused, it takes nothing new and
 * finishes what it holds; a peer takes the rest. Each pause names a reason and lasts until
 * every reason is lifted, so two controllers (the kit's readiness gate, a service's own
 * check) never resume what the other paused.
 */
export interface IntakeMember {
  pause(reason?: string): void;
  resume(reason?: string): void;
}

/**
 * The reasons an intake member is paused for: paused while any is held. `add` and `remove`
 * say whether the member just changed state (so it leaves or rejoins only then).
 */
export class PauseReasons {
  private readonly reasons = new Set<string>();

  get paused(): boolean {
    return this.reasons.size > 0;
  }

  /** Holds a reason; true when this paused a member that was taking work. */
  add(reason: string): boolean {
    const was = this.paused;
    this.reasons.add(reason);
    return !was;
  }

  /** Lifts a reason; true when no reason is left (the member may take work again). */
  remove(reason: string): boolean {
    this.reasons.delete(reason);
    return !this.paused;
  }
}

/** The reason the service kit pauses intake under: the replica's required dependencies fail. */
export const NOT_READY = 'not-ready';

/**
 * All the shared work one replica takes, paused and resumed as one. The service kit pauses
 * it while a required dependency (PostgreSQL, NATS) fails its checks, so requests for a
 * broken replica go to its peers instead of being answered 500; a service adds its own
 * takers (a work queue) with `add`.
 */
export class BusIntake {
  private readonly members = new Set<IntakeMember>();
  private held = false;

  get paused(): boolean {
    return this.held;
  }

  /** Adds a taker; one added while paused is paused at once. Returns its removal. */
  add(member: IntakeMember): () => void {
    this.members.add(member);
    if (this.held) member.pause(NOT_READY);
    return () => void this.members.delete(member);
  }

  pause(): void {
    if (this.held) return;
    this.held = true;
    for (const member of this.members) member.pause(NOT_READY);
  }

  resume(): void {
    if (!this.held) return;
    this.held = false;
    for (const member of this.members) member.resume(NOT_READY);
  }
}
