import type { EnforcementMode, KeySetEntry, RouteFamilies } from './api-key';

/** The families an operator moves: a portal key set names every one of them, no more. */
export type PortalRouteFamily = (typeof RouteFamilies)[number];

/** Every family's mode: a key set that leaves one out is refused, never read as `off`. */
export type PortalModes = Record<PortalRouteFamily, EnforcementMode>;

/**
 * Where a key set stands: versions count up within an epoch; a new epoch (after a registry
 * restore: started by key-registry when it notices one, or by an operator) starts them again.
 */
export interface KeySetHead {
  epoch: number;
  version: number;
}

/**
 * The highest epoch an operator may start. UNIX seconds stay far below it for millennia, so
 * an epoch asked for by mistake (a timestamp in milliseconds, a typo) still leaves room for
 * the automatic epochs after it; a maximal one would have blocked every later epoch.
 */
export const MAX_KEY_SET_EPOCH = 1_000_000_000_000;

/** Whether `a` stands after `b` (a later epoch, or a later version of the same epoch). */
export function isLaterKeySetHead(a: KeySetHead, b: KeySetHead): boolean {
  return a.epoch > b.epoch || (a.epoch === b.epoch && a.version > b.version);
}

/**
 * The whole portal key set at one version, as key-registry signs it. A service refuses
 * anything not newer than what it holds (KeySetHead).
 */
export interface PortalKeySetSnapshot {
  kind: 'portal-keyset.snapshot';
  epoch: number;
  version: number;
  /** When key-registry signed it (ISO 8601). */
  issuedAt: string;
  keys: KeySetEntry[];
  modes: PortalModes;
}

/**
 * One change of the portal key set, as key-registry signs it: applies only on top of
 * version `extends` of the same epoch; a service holding anything else asks for a snapshot.
 */
export interface PortalKeySetChange {
  kind: 'portal-keyset.change';
  epoch: number;
  version: number;
  extends: number;
  issuedAt: string;
  /** Keys added or changed (scopes narrowed, organisation suspended or lifted). */
  upserts: KeySetEntry[];
  /** SHA-256 hashes of revoked keys. */
  removals: string[];
  modes: PortalModes;
}

/**
 * A payload with key-registry's Ed25519 signature over its canonical JSON (object keys
 * sorted, no spaces). `keyId` names the signing key (the first 16 hex digits of the SHA-256
 * of its raw public key), so a deployment can trust two keys while rotating.
 */
export interface SignedKeySet<P> {
  payload: P;
  keyId: string;
  signature: string;
}
