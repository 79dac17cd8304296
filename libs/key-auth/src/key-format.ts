import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Portal keys start `svc_`, sponsoring keys `spk_`, solver credentials `slv_`: one look
 * tells the registries apart.
 */
export type KeyKind = 'portal' | 'sponsoring' | 'solver';
const PREFIX: Record<KeyKind, string> = { portal: 'svc_', sponsoring: 'spk_', solver: 'slv_' };

export interface MintedKey {
  /** The full key: shown once, never stored. */
  key: string;
  /** SHA-256 of the full key, hex: what the registry stores and the services look up. */
  hash: string;
  /** The literal prefix and the first eight characters of the secret; not secret. */
  displayPrefix: string;
}

/** A new key: the kind's prefix and 32 random bytes from the OS CSPRNG in base64url. */
export function mintKey(kind: KeyKind): MintedKey {
  const secret = randomBytes(32).toString('base64url');
  const key = `${PREFIX[kind]}${secret}`;
  return { key, hash: hashKey(key), displayPrefix: `${PREFIX[kind]}${secret.slice(0, 8)}` };
}

/** SHA-256 of a key (or any bearer secret: a session or invitation token), hex: what tables store instead of it. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  // Compared as SHA-256 digests: equal lengths whatever was given, so the time taken says
  // nothing about the expected secret's length either.
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}
