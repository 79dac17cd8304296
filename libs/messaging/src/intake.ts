/** Takes work shared with peers; see docs/architecture/runtime.md#readiness-and-bus-intake. */
export interface IntakeMember {
  pause(reason?: string): void;
  resume(reason?: string): void;
}

/** Paused while any reason is held; `add` and `remove` say whether the state just changed. */
export class PauseReasons {
  private readonly reasons = new Set<string>();

  get paused(): boolean {
    return this.reasons.size > 0;
  }

  add(reason: string): boolean {
    const was = this.paused;
    this.reasons.add(reason);
    return !was;
  }

  remove(reason: string): boolean {
    this.reasons.delete(reason);
    return !this.paused;
  }
}

export const NOT_READY = 'not-ready';

/** All the shared work of one replica, paused and resumed as one. */
export class BusIntake {
  private readonly members = new Set<IntakeMember>();
  private held = false;

  get paused(): boolean {
    return this.held;
  }

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
