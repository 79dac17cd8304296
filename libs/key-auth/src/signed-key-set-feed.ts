import type { Cache } from '@swap/cache';
import { isLaterKeySetHead, type KeySetHead, type PortalKeySetChange, type PortalKeySetSnapshot, type SignedKeySet } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import type { KeySetCache, KeySetSource } from './key-set-cache';
import { portalKeySetChangeOf, portalKeySetSnapshotOf } from './key-set-schema';
import { KeySetRefused, type KeySetSignatureCheck } from './key-set-signature';

/** Where the last good signed set is kept between restarts: the service's cache (Redis in a cluster: root filesystems are read-only). */
export type KeptCopyStore = Pick<Cache, 'get' | 'set'>;

/** The kept copy: a signed snapshot and the signed changes applied on top of it, each checked again when read. */
interface KeptCopy {
  snapshot: SignedKeySet<PortalKeySetSnapshot>;
  changes: SignedKeySet<PortalKeySetChange>[];
}

export interface SignedKeySetFeedOptions {
  check: KeySetSignatureCheck;
  /** Asks key-registry for its signed snapshot; resolves with the first answer. */
  request: () => Promise<unknown>;
  /**
   * Asks again, handing over every answer until closed: when the first answer was refused
   * (someone else on the bus answered first), the real one is still heard.
   */
  gather?: (onAnswer: (answer: unknown) => void) => { close(): void };
  /** How long a gathering waits for a valid answer. */
  timeoutMs: number;
  store?: KeptCopyStore;
  storeKey?: string;
  /**
   * The oldest kept copy taken at start (its snapshot's `issuedAt`), default a day: an older
   * signed copy written back into the store by whoever can write it would bring back keys
   * revoked since. The copy is rewritten with a fresh snapshot once the one it holds is an
   * hour old (by its signature's time), at the next pull that key-registry answers.
   */
  keptMaxAgeMs?: number;
  /** The clock (tests). */
  now?: () => number;
  logger: Logger;
}

/** Changes kept on top of a snapshot before a fresh snapshot replaces them. */
const MAX_KEPT_CHANGES = 100;
/** The kept copy is written again at least this often while key-registry answers, so it stays younger than KEPT_MAX_AGE_MS. */
const REWRITE_AFTER_MS = 3_600_000;
/**
 * key-registry signs a snapshot when it is asked for one: a snapshot from the bus signed
 * longer ago than this is a replay (a copy taken earlier, from before a revocation or from
 * an earlier epoch), and one dated further ahead than this is not believed either. It is
 * what lets a replica that holds nothing yet (no kept copy, Redis unreachable) refuse an
 * old set that verifies. Clocks of a cluster agree far closer than this.
 */
export const SNAPSHOT_MAX_AGE_MS = 60_000;

/** The default of keptMaxAgeMs (KEYSET_KEPT_MAX_AGE_MS). */
export const KEPT_MAX_AGE_MS = 24 * 3_600_000;

/**
 * The portal key set as key-registry signs it (Ed25519). Every snapshot and change event is
 * verified and shape-checked before the cache sees it, and the cache takes only what is
 * newer than what it holds: a forged, unsigned, malformed or replayed set changes nothing.
 * A change applies only on top of the version it extends; otherwise a snapshot is fetched.
 * The last good signed copy is kept in the shared cache, so a service restarted while
 * key-registry is down starts from it (checked again) instead of from nothing.
 */
export class SignedKeySetFeed implements KeySetSource {
  readonly ordering = 'newer-only' as const;
  private kept?: KeptCopy;
  private keptAt = 0;

  constructor(private readonly options: SignedKeySetFeedOptions) {}

  private snapshotOf(message: unknown): PortalKeySetSnapshot {
    return portalKeySetSnapshotOf(this.options.check.open(message));
  }

  /** A snapshot answered on the bus: verified, shape-checked, and signed within the last minute (SNAPSHOT_MAX_AGE_MS). */
  private freshSnapshotOf(message: unknown): PortalKeySetSnapshot {
    const snapshot = this.snapshotOf(message);
    const age = this.now() - Date.parse(snapshot.issuedAt);
    if (!(Math.abs(age) <= SNAPSHOT_MAX_AGE_MS)) {
      throw new KeySetRefused(
        'expired',
        `snapshot ${snapshot.epoch}/${snapshot.version} was signed ${Math.round(age / 1_000)} s ${age < 0 ? 'ahead of this clock' : 'ago'}; key-registry signs one when asked, so it is a replay`,
      );
    }
    return snapshot;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private changeOf(message: unknown): PortalKeySetChange {
    return portalKeySetChangeOf(this.options.check.open(message));
  }

  async pull(cache: KeySetCache): Promise<void> {
    let answer = await this.options.request();
    let snapshot: PortalKeySetSnapshot;
    try {
      snapshot = this.freshSnapshotOf(answer);
    } catch (error) {
      if (!(error instanceof KeySetRefused) || !this.options.gather) throw error;
      cache.refused(error);
      ({ answer, snapshot } = await this.gatherValid());
    }
    const outcome = cache.offer(snapshot);
    if (outcome === 'older') {
      const reason = snapshot.epoch < cache.epoch ? 'epoch' : 'replay';
      throw new KeySetRefused(
        reason,
        `snapshot ${snapshot.epoch}/${snapshot.version} (epoch/version) is older than the held ${cache.epoch}/${cache.version}; after a registry restore, start a new epoch (POST /ops/keyset/epoch on key-registry)`,
      );
    }
    // The held set is this snapshot now (or equals it): it becomes the kept copy's base.
    const rebase = outcome === 'applied' || (this.kept?.changes.length ?? 0) > 0 || Date.now() - this.keptAt > REWRITE_AFTER_MS;
    if (rebase) await this.keep({ snapshot: answer as SignedKeySet<PortalKeySetSnapshot>, changes: [] });
  }

  /** Every answer to a second request, until one verifies; none in time is a failed refresh (the refusals were counted with the first answer). */
  private gatherValid(): Promise<{ answer: unknown; snapshot: PortalKeySetSnapshot }> {
    return new Promise((resolve, reject) => {
      let refused = 0;
      let done = false;
      let gathering: { close(): void } | undefined;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        gathering?.close();
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no valid key set answered within ${this.options.timeoutMs} ms (${refused} refused)`))),
        this.options.timeoutMs,
      );
      gathering = this.options.gather!((answer) => {
        try {
          const snapshot = this.freshSnapshotOf(answer);
          finish(() => resolve({ answer, snapshot }));
        } catch {
          refused++;
        }
      });
      if (done) gathering.close(); // an answer that came back before the gathering was handed over
    });
  }

  onEvent(event: unknown, cache: KeySetCache): void {
    let change: PortalKeySetChange;
    try {
      change = this.changeOf(event);
    } catch (error) {
      if (error instanceof KeySetRefused) cache.refused(error);
      else this.options.logger.warn({ err: error }, 'key set change not read');
      return;
    }
    switch (cache.offerChange(change)) {
      case 'applied':
        if (this.kept && this.kept.changes.length < MAX_KEPT_CHANGES)
          void this.keep({ snapshot: this.kept.snapshot, changes: [...this.kept.changes, event as SignedKeySet<PortalKeySetChange>] });
        else void cache.refresh(); // a fresh snapshot becomes the kept copy's base
        return;
      case 'stale': {
        const reason = change.epoch < cache.epoch ? 'epoch' : 'replay';
        // The one just applied, heard again, is normal (a refresh got there first); anything older is worth a look.
        if (change.epoch === cache.epoch && change.version === cache.version) return;
        cache.refused(
          new KeySetRefused(reason, `change ${change.epoch}/${change.version} is not newer than the held ${cache.epoch}/${cache.version}`),
        );
        return;
      }
      case 'ahead':
        // A change missed, a new epoch, or nothing held yet: the whole set, verified like any other.
        void cache.refresh();
        return;
    }
  }

  /** At start: the kept copy, its snapshot and each change checked again, applied as far as they hold. */
  async restore(cache: KeySetCache): Promise<void> {
    const { store, storeKey } = this.options;
    if (!store || !storeKey) return;
    const text = await store.get(storeKey);
    if (text === undefined) return;
    let copy: KeptCopy;
    try {
      copy = JSON.parse(text) as KeptCopy;
      if (!Array.isArray(copy?.changes)) throw new Error('no list of changes');
    } catch (error) {
      throw new KeySetRefused('shape', `the kept copy is not readable: ${(error as Error).message}`);
    }
    const snapshot = this.snapshotOf(copy.snapshot);
    const maxAge = this.options.keptMaxAgeMs ?? KEPT_MAX_AGE_MS;
    const age = this.now() - Date.parse(snapshot.issuedAt);
    if (!(age <= maxAge && age >= -SNAPSHOT_MAX_AGE_MS)) {
      throw new KeySetRefused(
        'expired',
        `the kept copy was signed ${Math.round(age / 60_000)} min ago, more than KEYSET_KEPT_MAX_AGE_MS (${maxAge} ms) allows: an old copy could bring back keys revoked since`,
      );
    }
    if (cache.offer(snapshot) === 'older') return;
    const applied: SignedKeySet<PortalKeySetChange>[] = [];
    for (const signed of copy.changes) {
      try {
        if (cache.offerChange(this.changeOf(signed)) !== 'applied') break;
      } catch (error) {
        if (!(error instanceof KeySetRefused)) throw error;
        cache.refused(error);
        break;
      }
      applied.push(signed);
    }
    this.kept = { snapshot: copy.snapshot, changes: applied };
    // Its age is the snapshot's: the next pull writes a fresh one if it is due, whatever the time of the restart.
    this.keptAt = Date.parse(snapshot.issuedAt);
    this.options.logger.info(
      { epoch: cache.epoch, version: cache.version, changes: applied.length },
      'key set restored from the kept copy',
    );
  }

  /**
   * Writes the kept copy, unless the one in the store is already newer (another replica
   * got further). A store that fails costs the copy, never the request path.
   */
  private async keep(copy: KeptCopy): Promise<void> {
    this.kept = copy;
    this.keptAt = Date.now();
    const { store, storeKey } = this.options;
    if (!store || !storeKey) return;
    try {
      const stored = await store.get(storeKey);
      if (stored !== undefined && newer(this.signedHead(stored), this.signedHead(copy))) return;
      await store.set(storeKey, JSON.stringify(copy), this.options.keptMaxAgeMs ?? KEPT_MAX_AGE_MS);
    } catch (error) {
      this.options.logger.warn(
        { err: error },
        'key set not kept in the cache; a restart while key-registry is down would start without it',
      );
    }
  }

  /** The (epoch, version) a kept copy ends at, from its last signed element; nothing when it does not verify (then it is overwritten). */
  private signedHead(copy: KeptCopy | string): KeySetHead | undefined {
    try {
      const parsed = typeof copy === 'string' ? (JSON.parse(copy) as KeptCopy) : copy;
      const last = this.options.check.open(parsed.changes.at(-1) ?? parsed.snapshot) as { epoch?: unknown; version?: unknown };
      return typeof last.epoch === 'number' && typeof last.version === 'number' ? { epoch: last.epoch, version: last.version } : undefined;
    } catch {
      return undefined;
    }
  }
}

function newer(a: KeySetHead | undefined, b: KeySetHead | undefined): boolean {
  return a !== undefined && b !== undefined && isLaterKeySetHead(a, b);
}
