import type { EnforcementMode, KeySetEntry, RouteFamilies } from './api-key';

/** The families an operator moves: a portal key set names every one of them, no more. */
export type PortalRouteFamily = (typeof RouteFamilies)[number];

/** Every family's mode: a key set that leaves one out is refused, never read as `off`. */
export type PortalModes = Record<PortalRouteFamily, EnforcementMode>;

/** A route's own mode, overriding its family's (KEYED_ROUTES names the routes); routes without one follow the family. */
export type RouteModes = Partial<Record<string, EnforcementMode>>;

/** The previous release's payload (key set v2): no routeModes. */
export type V2<P> = Omit<P, 'routeModes'>;

/** Versions count up within an epoch; a restore starts a new one: docs/architecture/key-sets.md#a-registry-restore-is-an-epoch-change. */
export interface KeySetHead {
  epoch: number;
  version: number;
}

/** Far above UNIX seconds, so an epoch asked for by mistake still leaves room for the automatic ones. */
export const MAX_KEY_SET_EPOCH = 1_000_000_000_000;

export function isLaterKeySetHead(a: KeySetHead, b: KeySetHead): boolean {
  return a.epoch > b.epoch || (a.epoch === b.epoch && a.version > b.version);
}

/** A service refuses anything not newer than what it holds. */
export interface PortalKeySetSnapshot {
  kind: 'portal-keyset.snapshot';
  epoch: number;
  version: number;
  /** When key-registry signed it (ISO 8601). */
  issuedAt: string;
  keys: KeySetEntry[];
  modes: PortalModes;
  routeModes: RouteModes;
}

/** Applies only on top of version `extends` of the same epoch; otherwise the service asks for a snapshot. */
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
  routeModes: RouteModes;
}

/** `keyId` (16 hex digits of SHA-256 of the public key) lets a deployment trust two keys while rotating; see docs/architecture/key-sets.md#key-sets-are-signed. */
export interface SignedPayload<P> {
  payload: P;
  keyId: string;
  signature: string;
}

export type SignedKeySet<P> = SignedPayload<P>;
