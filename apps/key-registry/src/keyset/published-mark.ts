import { Inject, Injectable } from '@nestjs/common';
import { isLaterKeySetHead, type KeySetHead } from '@swap/contracts';
import type { Cache } from '@swap/cache';
import { parsePublicKeys, PayloadSigner, SignatureCheck } from '@swap/messaging';
import { CACHE } from '@swap/service-kit';

/** Where the mark lives, in key-registry's cache namespace. */
export const PUBLISHED_MARK_KEY = 'keyset:published';
/** Longer than any outage a restore would follow; written again with every change. */
const MARK_TTL_MS = 400 * 24 * 3_600_000;

/** The signed payload of the mark. */
interface MarkPayload extends KeySetHead {
  kind: 'portal-keyset.mark';
}

/** The furthest (epoch, version) announced, signed, kept in the cache; see docs/architecture/key-sets.md#a-registry-restore-is-an-epoch-change. */
@Injectable()
export class PublishedMark {
  private readonly check: SignatureCheck;

  constructor(
    @Inject(CACHE) private readonly cache: Cache,
    private readonly signer: PayloadSigner,
  ) {
    this.check = new SignatureCheck(parsePublicKeys(signer.publicKey));
  }

  /** The mark; nothing when none was written, or what is stored is not one this registry signed. A cache that fails throws. */
  async read(): Promise<KeySetHead | undefined> {
    const text = await this.cache.get(PUBLISHED_MARK_KEY);
    if (text === undefined) return undefined;
    return this.headOf(text);
  }

  /** Raises the mark to `head` unless it is already there or beyond; answers the mark as found. */
  async raise(head: KeySetHead): Promise<KeySetHead | undefined> {
    const found = await this.read();
    if (found && !isLaterKeySetHead(head, found)) return found;
    const payload: MarkPayload = { kind: 'portal-keyset.mark', epoch: head.epoch, version: head.version };
    await this.cache.set(PUBLISHED_MARK_KEY, JSON.stringify(this.signer.sign(payload)), MARK_TTL_MS);
    return found;
  }

  private headOf(text: string): KeySetHead | undefined {
    try {
      const { kind, epoch, version } = this.check.open(JSON.parse(text)) as Partial<MarkPayload>;
      return kind === 'portal-keyset.mark' && Number.isSafeInteger(epoch) && Number.isSafeInteger(version)
        ? { epoch: epoch!, version: version! }
        : undefined;
    } catch {
      return undefined;
    }
  }
}
