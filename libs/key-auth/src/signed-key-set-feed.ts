import type { Cache } from '@swap/cache';
import { isLaterKeySetHead, type KeySetHead, type PortalKeySetChange, type PortalKeySetSnapshot, type SignedKeySet } from '@swap/contracts';
import type { Logger } from '@swap/observability';
import type { KeySetCache, KeySetSource } from './key-set-cache';
import { portalKeySetChangeOf, portalKeySetSnapshotOf } from './key-set-schema';
import { SignatureRefused, type SignatureCheck } from '@swap/messaging';

/** Redis in a cluster: root filesystems are read-only. */
export type KeptCopyStore = Pick<Cache, 'get' | 'set'>;

/** Each element checked again when read. */
interface KeptCopy {
  snapshot: SignedKeySet<PortalKeySetSnapshot>;
  changes: SignedKeySet<PortalKeySetChange>[];
}

export interface SignedKeySetFeedOptions {
  check: SignatureCheck;
  request: () => Promise<unknown>;
  /** When someone else on the bus answered first, the real answer is still heard. */
  gather?: (onAnswer: (answer: unknown) => void) => { close(): void };
  timeoutMs: number;
  store?: KeptCopyStore;
  storeKey?: string;
  /** Read at start when storeKey holds nothing: the previous release's copy, during a rollout. */
  previousStoreKey?: string;
  /** An older copy written back into the store would bring back keys revoked since. */
  keptMaxAgeMs?: number;
  now?: () => number;
  logger: Logger;
}

const MAX_KEPT_CHANGES = 100;
const REWRITE_AFTER_MS = 3_600_000;
/** Signed on request: older (or further ahead) is a replay, even to a replica that holds nothing. */
export const SNAPSHOT_MAX_AGE_MS = 60_000;

export const KEPT_MAX_AGE_MS = 24 * 3_600_000;

/** The portal key set as key-registry signs it; see docs/architecture/key-sets.md#key-sets-are-signed. */
export class SignedKeySetFeed implements KeySetSource {
  readonly ordering = 'newer-only' as const;
  private kept?: KeptCopy;
  private keptAt = 0;

  constructor(private readonly options: SignedKeySetFeedOptions) {}

  private snapshotOf(message: unknown): PortalKeySetSnapshot {
    return portalKeySetSnapshotOf(this.options.check.open(message));
  }

  private freshSnapshotOf(message: unknown): PortalKeySetSnapshot {
    const snapshot = this.snapshotOf(message);
    const age = this.now() - Date.parse(snapshot.issuedAt);
    if (!(Math.abs(age) <= SNAPSHOT_MAX_AGE_MS)) {
      throw new SignatureRefused(
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
      if (!(error instanceof SignatureRefused) || !this.options.gather) throw error;
      cache.refused(error);
      ({ answer, snapshot } = await this.gatherValid());
    }
    const outcome = cache.offer(snapshot);
    if (outcome === 'older') {
      const reason = snapshot.epoch < cache.epoch ? 'epoch' : 'replay';
      throw new SignatureRefused(
        reason,
        `snapshot ${snapshot.epoch}/${snapshot.version} (epoch/version) is older than the held ${cache.epoch}/${cache.version}; after a registry restore, start a new epoch (POST /ops/keyset/epoch on key-registry)`,
      );
    }
    const rebase = outcome === 'applied' || (this.kept?.changes.length ?? 0) > 0 || Date.now() - this.keptAt > REWRITE_AFTER_MS;
    if (rebase) await this.keep({ snapshot: answer as SignedKeySet<PortalKeySetSnapshot>, changes: [] });
  }

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
      if (error instanceof SignatureRefused) cache.refused(error);
      else this.options.logger.warn({ err: error }, 'key set change not read');
      return;
    }
    switch (cache.offerChange(change)) {
      case 'applied':
        cache.observePropagation(change, this.now());
        if (this.kept && this.kept.changes.length < MAX_KEPT_CHANGES)
          void this.keep({ snapshot: this.kept.snapshot, changes: [...this.kept.changes, event as SignedKeySet<PortalKeySetChange>] });
        else void cache.refresh(); // a fresh snapshot becomes the kept copy's base
        return;
      case 'stale': {
        const reason = change.epoch < cache.epoch ? 'epoch' : 'replay';
        // The one just applied, heard again, is normal (a refresh got there first).
        if (change.epoch === cache.epoch && change.version === cache.version) return;
        cache.refused(
          new SignatureRefused(
            reason,
            `change ${change.epoch}/${change.version} is not newer than the held ${cache.epoch}/${cache.version}`,
          ),
        );
        return;
      }
      case 'ahead':
        void cache.refresh();
        return;
    }
  }

  async restore(cache: KeySetCache): Promise<void> {
    const { store, storeKey } = this.options;
    if (!store || !storeKey) return;
    const text =
      (await store.get(storeKey)) ?? (this.options.previousStoreKey ? await store.get(this.options.previousStoreKey) : undefined);
    if (text === undefined) return;
    let copy: KeptCopy;
    try {
      copy = JSON.parse(text) as KeptCopy;
      if (!Array.isArray(copy?.changes)) throw new Error('no list of changes');
    } catch (error) {
      throw new SignatureRefused('shape', `the kept copy is not readable: ${(error as Error).message}`);
    }
    const snapshot = this.snapshotOf(copy.snapshot);
    const maxAge = this.options.keptMaxAgeMs ?? KEPT_MAX_AGE_MS;
    const age = this.now() - Date.parse(snapshot.issuedAt);
    if (!(age <= maxAge && age >= -SNAPSHOT_MAX_AGE_MS)) {
      throw new SignatureRefused(
        'expired',
        `the kept copy was signed ${Math.round(age / 60_000)} min ago, more than KEYSET_KEPT_MAX_AGE_MS (${maxAge} ms) allows: an old copy could bring back keys revoked since`,
      );
    }
    if (cache.offer(snapshot, Date.parse(snapshot.issuedAt)) === 'older') return;
    const applied: SignedKeySet<PortalKeySetChange>[] = [];
    for (const signed of copy.changes) {
      try {
        const change = this.changeOf(signed);
        if (cache.offerChange(change, Date.parse(change.issuedAt)) !== 'applied') break;
      } catch (error) {
        if (!(error instanceof SignatureRefused)) throw error;
        cache.refused(error);
        break;
      }
      applied.push(signed);
    }
    this.kept = { snapshot: copy.snapshot, changes: applied };
    // Its age is the snapshot's, whatever the time of the restart.
    this.keptAt = Date.parse(snapshot.issuedAt);
    this.options.logger.info(
      { epoch: cache.epoch, version: cache.version, changes: applied.length },
      'key set restored from the kept copy',
    );
  }

  /** Unless the stored one is newer (another replica got further); a failing store costs the copy only. */
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

  /** Undefined when it does not verify (it is then overwritten). */
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
