import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyKind = 'portal' | 'sponsoring' | 'solver';
const PREFIX: Record<KeyKind, string> = { portal: 'svc_', sponsoring: 'spk_', solver: 'slv_' };

export interface MintedKey {
  /** Shown once, never stored. */
  key: string;
  hash: string;
  /** Not secret. */
  displayPrefix: string;
}

export function mintKey(kind: KeyKind): MintedKey {
  const secret = randomBytes(32).toString('base64url');
  const key = `${PREFIX[kind]}${secret}`;
  return { key, hash: hashKey(key), displayPrefix: `${PREFIX[kind]}${secret.slice(0, 8)}` };
}

/** Also for any bearer secret (a session or invitation token): what tables store instead of it. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Compared as digests: equal lengths, so the time taken says nothing of the expected length either. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}
