import { randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { AppError, ErrorCode, MessageHeaders as HeaderNames } from '@swap/contracts';
import type { MessageHeaders } from './bus';
import { signingKeyId } from './signed-payload';

/** A signed request dated further than this from the receiver's clock is refused; its nonce is remembered this long. */
export const SIGNED_REQUEST_WINDOW_MS = 60_000;

const MAX_REMEMBERED_NONCES = 100_000;

/** The subject without NATS_SUBJECT_PREFIX, time, nonce, the request id and organisation headers (empty when absent), the body bytes. */
function signedBytes(subject: string, signedAt: string, nonce: string, headers: MessageHeaders, body: string): Buffer {
  const requestId = headers[HeaderNames.requestId] ?? '';
  const orgId = headers[HeaderNames.orgId] ?? '';
  return Buffer.from(`swap-bus-request/1\n${subject}\n${signedAt}\n${nonce}\n${requestId}\n${orgId}\n${body}`, 'utf8');
}

/** The sender's side: headers that prove this service sent this body to this subject now. See docs/architecture/bus-signatures.md#signed-requests. */
export class RequestSigner {
  readonly keyId: string;

  constructor(
    private readonly key: KeyObject,
    private readonly now: () => number = Date.now,
  ) {
    this.keyId = signingKeyId(key);
  }

  /** The signature's headers, covering `sent` (the request id and organisation headers going with it). */
  headers(subject: string, body: string, sent: MessageHeaders = {}): MessageHeaders {
    const signedAt = String(this.now());
    const nonce = randomUUID();
    return {
      [HeaderNames.signatureKeyId]: this.keyId,
      [HeaderNames.signedAt]: signedAt,
      [HeaderNames.signatureNonce]: nonce,
      [HeaderNames.signature]: sign(null, signedBytes(subject, signedAt, nonce, sent, body), this.key).toString('base64'),
    };
  }
}

/** Nonces claimed across a service's replicas (its cache: Redis in cluster mode); the first to claim one serves it. */
export interface NonceLedger {
  claim(key: string, token: string, ttlMs: number): Promise<boolean>;
}

/** The receiver's side: a known key, the exact subject, headers and body, within the window, a nonce no replica has served. */
export class RequestSignatureCheck {
  private readonly keys: Map<string, KeyObject>;
  /** nonce → when it may be forgotten; in insertion order, which is nearly expiry order. */
  private readonly seen = new Map<string, number>();
  private ledger?: { shared: NonceLedger; unreachable: (error: unknown) => void };

  constructor(
    publicKeys: KeyObject[],
    private readonly signer: string,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new Map(publicKeys.map((key) => [signingKeyId(key), key]));
  }

  get remembered(): number {
    return this.seen.size;
  }

  shareNoncesThrough(shared: NonceLedger, unreachable: (error: unknown) => void = () => undefined): void {
    this.ledger = { shared, unreachable };
  }

  /** Rejects with a 401 naming what was wrong; nothing of the request is acted on. */
  async verify(subject: string, headers: MessageHeaders, body: string): Promise<void> {
    const problem = this.problem(subject, headers, body) ?? (await this.claimedElsewhere(headers));
    if (problem) throw new AppError(401, ErrorCode.Unauthorized, `This request must be signed by ${this.signer}: ${problem}`);
  }

  private async claimedElsewhere(headers: MessageHeaders): Promise<string | undefined> {
    if (!this.ledger) return undefined;
    const key = `signed-request-nonce:${headers[HeaderNames.signatureKeyId]}:${headers[HeaderNames.signatureNonce]}`;
    try {
      const held = await this.ledger.shared.claim(key, randomUUID(), 3 * SIGNED_REQUEST_WINDOW_MS);
      return held ? undefined : 'a replay: this nonce was already served by another replica';
    } catch (error) {
      this.ledger.unreachable(error);
      return undefined;
    }
  }

  private problem(subject: string, headers: MessageHeaders, body: string): string | undefined {
    const keyId = headers[HeaderNames.signatureKeyId];
    const signedAt = headers[HeaderNames.signedAt];
    const nonce = headers[HeaderNames.signatureNonce];
    const signature = headers[HeaderNames.signature];
    if (!keyId || !signedAt || !nonce || !signature) return 'it carries no signature';
    const key = this.keys.get(keyId);
    if (!key) return `signed by an unknown key ${JSON.stringify(keyId.slice(0, 32))}`;
    const bytes = Buffer.from(signature, 'base64');
    if (bytes.length !== 64 || bytes.toString('base64') !== signature) return 'the signature is not 64 bytes of base64';
    if (!verify(null, signedBytes(subject, signedAt, nonce, headers, body), key, bytes))
      return 'the signature does not match the subject, headers and body';
    const at = /^\d{1,15}$/.test(signedAt) ? Number(signedAt) : Number.NaN;
    const now = this.now();
    if (!(Math.abs(now - at) <= SIGNED_REQUEST_WINDOW_MS))
      return `signed at ${signedAt}, more than ${SIGNED_REQUEST_WINDOW_MS} ms from now`;
    this.forgetExpired(now);
    if (this.seen.has(nonce)) return 'a replay: this nonce was already served';
    this.seen.set(nonce, at + SIGNED_REQUEST_WINDOW_MS);
    return undefined;
  }

  private forgetExpired(now: number): void {
    for (const [nonce, until] of this.seen) {
      if (until >= now && this.seen.size < MAX_REMEMBERED_NONCES) break;
      this.seen.delete(nonce);
    }
  }
}
