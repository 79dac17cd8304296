import type { EnforcementMode, KeySetEntry, RouteFamilies } from './api-key';

/** The families an operator moves: a portal key set names every one of them, no more. */
export type PortalRouteFamily = (typeof RouteFamilies)[number];

/** Every family's mode: a key set that leaves one out is refused, never read as `off`. */
export type PortalModes = Record<PortalRouteFamily, EnforcementMode>;

/**
 * The whole portal key set at one version, as key-registry signs it. Versions count up
 * within an epoch; a new epoch (an operator's explicit step after a registry restore)
 * starts them again, and a service refuses anything not newer than what it holds.
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
