import { SignatureRefused } from '@swap/messaging';
import { portalKeySetChangeOf, portalKeySetSnapshotOf } from './key-set-schema';

const snapshot = (over: Record<string, unknown> = {}) => ({
  kind: 'portal-keyset.snapshot',
  epoch: 1,
  version: 2,
  issuedAt: '2026-11-27T10:00:00.000Z',
  keys: [],
  modes: { swaps: 'monitor', 'leverage-yield': 'off' },
  routeModes: { 'POST /v1/swaps/quote': 'enforce' },
  ...over,
});
const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error instanceof SignatureRefused ? `${error.reason}: ${error.message}` : String(error);
  }
  return 'accepted';
};

describe('the key set’s shape, v3 (routeModes) and v2', () => {
  it('reads routeModes of keyed routes with known modes', () => {
    expect(portalKeySetSnapshotOf(snapshot()).routeModes).toEqual({ 'POST /v1/swaps/quote': 'enforce' });
    expect(portalKeySetSnapshotOf(snapshot({ routeModes: {} })).routeModes).toEqual({});
  });

  it.each([
    [
      'a route that is not keyed',
      { 'GET /v1/swaps/tokens': 'enforce' },
      'shape: snapshot.routeModes has unknown fields: "GET /v1/swaps/tokens"',
    ],
    [
      'a mode that is not one',
      { 'POST /v1/swaps/quote': 'strict' },
      'shape: snapshot.routeModes["POST /v1/swaps/quote"] must be one of off, monitor, enforce',
    ],
    ['null', null, 'shape: snapshot.routeModes must be an object'],
    ['a prototype key', JSON.parse('{"__proto__": "enforce"}'), 'shape: snapshot.routeModes has unknown fields: "__proto__"'],
  ])('refuses %s as a whole', (_, routeModes, message) => {
    expect(refusal(() => portalKeySetSnapshotOf(snapshot({ routeModes })))).toBe(message);
  });

  it('refuses a v3 set without routeModes, and a v2 reader refuses one with them (each release reads its own subject)', () => {
    const { routeModes: _, ...v2 } = snapshot();
    expect(refusal(() => portalKeySetSnapshotOf(v2))).toBe('shape: snapshot is missing routeModes');
    expect(portalKeySetSnapshotOf(v2, 2)).not.toHaveProperty('routeModes');
    expect(refusal(() => portalKeySetSnapshotOf(snapshot(), 2))).toBe('shape: snapshot has unknown fields: "routeModes"');
    const change = { ...v2, kind: 'portal-keyset.change', extends: 1, upserts: [], removals: [] };
    delete (change as Record<string, unknown>).keys;
    expect(refusal(() => portalKeySetChangeOf(change))).toBe('shape: change is missing routeModes');
    expect(portalKeySetChangeOf({ ...change, routeModes: {} }).routeModes).toEqual({});
  });
});
