import { Inject, Injectable } from '@nestjs/common';
import { isLaterKeySetHead, type KeySetHead } from '@swap/contracts';
import type { Cache } from '@swap/cache';
import { CACHE } from '@swap/service-kit';

/** Where the mark lives, in key-registry's cache namespace. */
export const PUBLISHED_MARK_KEY = 'keyset:published';
/** Longer than any outage a restore would follow; written again with every change. */
const MARK_TTL_MS = 400 * 24 * 3_600_000;

/**
 * The furthest (epoch, version) key-registry has announced, kept outside its database (in
 * the shared cache, Redis in a cluster), so that a database restored to an earlier version
 * is noticed: its version is then behind the mark. Only raised, never lowered by a replica
 * that announced an earlier version after a peer's later one. Whoever can write Redis can
 * move it: raised, it costs a needless new epoch; lowered or deleted, a restore goes
 * unnoticed and needs the operator's epoch (POST /ops/keyset/epoch), as before the mark.
 */
@Injectable()
export class PublishedMark {
  constructor(@Inject(CACHE) private readonly cache: Cache) {}

  /** The mark; nothing when none was written (or what is stored is not one). A cache that fails throws. */
  async read(): Promise<KeySetHead | undefined> {
    const text = await this.cache.get(PUBLISHED_MARK_KEY);
    if (text === undefined) return undefined;
    return headOf(text);
  }

  /** Raises the mark to `head` unless it is already there or beyond; answers the mark as found. */
  async raise(head: KeySetHead): Promise<KeySetHead | undefined> {
    const found = await this.read();
    if (found && !isLaterKeySetHead(head, found)) return found;
    await this.cache.set(PUBLISHED_MARK_KEY, JSON.stringify({ epoch: head.epoch, version: head.version }), MARK_TTL_MS);
    return found;
  }
}

function headOf(text: string): KeySetHead | undefined {
  try {
    const { epoch, version } = JSON.parse(text) as Partial<KeySetHead>;
    return Number.isSafeInteger(epoch) && Number.isSafeInteger(version) ? { epoch: epoch!, version: version! } : undefined;
  } catch {
    return undefined;
  }
}
