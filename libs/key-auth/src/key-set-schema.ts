import {
  EnforcementModes,
  KEYED_ROUTES,
  RouteFamilies,
  Scopes,
  type KeySetEntry,
  type PortalKeySetChange,
  type PortalKeySetSnapshot,
  type EnforcementMode,
  type PortalModes,
  type RouteModes,
  type V2,
} from '@swap/contracts';
import { SignatureRefused } from '@swap/messaging';

/**
 * The exact shapes of a portal key set and of its changes. Even a payload that verifies is
 * checked field by field: a wrong type, an unknown field or family, a mode left out or
 * `null` is refused as a whole (nothing of it is applied), never guessed at.
 */

const HASH = /^[0-9a-f]{64}$/;
const ID = /^[0-9A-Za-z_.:@-]{1,128}$/;
/** More than the bus can carry in one message (about 5 000 keys); a bound for the checks, not a product limit. */
const MAX_KEYS = 100_000;

class ShapeError extends SignatureRefused {
  constructor(path: string, rule: string) {
    super('shape', `${path} ${rule}`);
  }
}

type Fields = Record<string, unknown>;

function object(value: unknown, path: string, fields: readonly string[], optional: readonly string[] = []): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeError(path, 'must be an object');
  const given = Object.keys(value);
  const unknown = given.filter((f) => !fields.includes(f));
  if (unknown.length)
    throw new ShapeError(
      path,
      `has unknown fields: ${unknown
        .slice(0, 5)
        .map((f) => JSON.stringify(f))
        .join(', ')}`,
    );
  const missing = fields.filter((f) => !given.includes(f) && !optional.includes(f));
  if (missing.length) throw new ShapeError(path, `is missing ${missing.join(', ')}`);
  return value as Fields;
}

function integer(value: unknown, path: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw new ShapeError(path, `must be an integer of at least ${min}`);
  return value;
}

function string(value: unknown, path: string, pattern: RegExp): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new ShapeError(path, `must be a string matching ${pattern}`);
  return value;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(path, 'must be an array');
  if (value.length > MAX_KEYS) throw new ShapeError(path, `must hold at most ${MAX_KEYS} items`);
  return value;
}

function issuedAt(value: unknown, path: string): string {
  const text = string(value, path, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/);
  if (Number.isNaN(Date.parse(text))) throw new ShapeError(path, 'must be a date');
  return text;
}

function entry(value: unknown, path: string): KeySetEntry {
  const f = object(value, path, ['hash', 'keyId', 'orgId', 'scopes', 'suspended']);
  const scopes = array(f.scopes, `${path}.scopes`).map((s, i) => {
    if (!Scopes.includes(s as never)) throw new ShapeError(`${path}.scopes[${i}]`, `must be one of ${Scopes.join(', ')}`);
    return s as string;
  });
  if (new Set(scopes).size !== scopes.length) throw new ShapeError(`${path}.scopes`, 'must not repeat a scope');
  if (typeof f.suspended !== 'boolean') throw new ShapeError(`${path}.suspended`, 'must be a boolean');
  return {
    hash: string(f.hash, `${path}.hash`, HASH),
    keyId: string(f.keyId, `${path}.keyId`, ID),
    orgId: string(f.orgId, `${path}.orgId`, ID),
    scopes,
    suspended: f.suspended,
  };
}

function entries(value: unknown, path: string): KeySetEntry[] {
  const list = array(value, path).map((e, i) => entry(e, `${path}[${i}]`));
  const seen = new Set<string>();
  for (const [i, e] of list.entries()) {
    if (seen.has(e.hash)) throw new ShapeError(`${path}[${i}].hash`, 'repeats a key');
    seen.add(e.hash);
  }
  return list;
}

/** Every family named, each with a known mode: a family left out is refused, not read as `off`. */
function modes(value: unknown, path: string): PortalModes {
  const f = object(value, path, RouteFamilies);
  for (const family of RouteFamilies) {
    if (!EnforcementModes.includes(f[family] as never))
      throw new ShapeError(`${path}.${family}`, `must be one of ${EnforcementModes.join(', ')}`);
  }
  return Object.fromEntries(RouteFamilies.map((family) => [family, f[family]])) as PortalModes;
}

/** A route this build does not key is left out, not refused (a stale row must not stop revocations); absent (v2): none. */
function routeModes(value: unknown, path: string): RouteModes {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeError(path, 'must be an object');
  const modes: RouteModes = {};
  for (const [route, mode] of Object.entries(value)) {
    if (!EnforcementModes.includes(mode as never))
      throw new ShapeError(`${path}[${JSON.stringify(route)}]`, `must be one of ${EnforcementModes.join(', ')}`);
    if (Object.hasOwn(KEYED_ROUTES, route)) modes[route] = mode as EnforcementMode;
  }
  return modes;
}

/** Key set v3 (routeModes, none when absent); v2 (the previous release's reader, refusing routeModes) only where a test reads what old replicas get. */
export function portalKeySetSnapshotOf(payload: unknown): PortalKeySetSnapshot;
export function portalKeySetSnapshotOf(payload: unknown, schema: 2): V2<PortalKeySetSnapshot>;
export function portalKeySetSnapshotOf(payload: unknown, schema: 2 | 3 = 3): V2<PortalKeySetSnapshot> {
  const fields = ['kind', 'epoch', 'version', 'issuedAt', 'keys', 'modes'];
  const f = object(payload, 'snapshot', schema === 3 ? [...fields, 'routeModes'] : fields, ['routeModes']);
  if (f.kind !== 'portal-keyset.snapshot') throw new ShapeError('snapshot.kind', 'must be portal-keyset.snapshot');
  return {
    kind: 'portal-keyset.snapshot',
    epoch: integer(f.epoch, 'snapshot.epoch', 1),
    version: integer(f.version, 'snapshot.version', 1),
    issuedAt: issuedAt(f.issuedAt, 'snapshot.issuedAt'),
    keys: entries(f.keys, 'snapshot.keys'),
    modes: modes(f.modes, 'snapshot.modes'),
    ...(schema === 3 ? { routeModes: routeModes(f.routeModes, 'snapshot.routeModes') } : {}),
  };
}

export function portalKeySetChangeOf(payload: unknown): PortalKeySetChange;
export function portalKeySetChangeOf(payload: unknown, schema: 2): V2<PortalKeySetChange>;
export function portalKeySetChangeOf(payload: unknown, schema: 2 | 3 = 3): V2<PortalKeySetChange> {
  const fields = ['kind', 'epoch', 'version', 'extends', 'issuedAt', 'upserts', 'removals', 'modes'];
  const f = object(payload, 'change', schema === 3 ? [...fields, 'routeModes'] : fields, ['routeModes']);
  if (f.kind !== 'portal-keyset.change') throw new ShapeError('change.kind', 'must be portal-keyset.change');
  const version = integer(f.version, 'change.version', 1);
  const extendsVersion = integer(f.extends, 'change.extends', 0);
  if (extendsVersion !== version - 1) throw new ShapeError('change.extends', 'must be the version just before this one');
  const upserts = entries(f.upserts, 'change.upserts');
  const removals = array(f.removals, 'change.removals').map((h, i) => string(h, `change.removals[${i}]`, HASH));
  return {
    kind: 'portal-keyset.change',
    epoch: integer(f.epoch, 'change.epoch', 1),
    version,
    extends: extendsVersion,
    issuedAt: issuedAt(f.issuedAt, 'change.issuedAt'),
    upserts,
    removals,
    modes: modes(f.modes, 'change.modes'),
    ...(schema === 3 ? { routeModes: routeModes(f.routeModes, 'change.routeModes') } : {}),
  };
}
