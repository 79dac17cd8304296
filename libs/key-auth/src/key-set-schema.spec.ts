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
      'a mode that is not one',
      { 'POST /v1/swaps/quote': 'strict' },
      'shape: snapshot.routeModes["POST /v1/swaps/quote"] must be one of off, monitor, enforce',
    ],
    ['null', null, 'shape: snapshot.routeModes must be an object'],
    ['a list', ['POST /v1/swaps/quote'], 'shape: snapshot.routeModes must be an object'],
  ])('refuses %s as a whole', (_, routeModes, message) => {
    expect(refusal(() => portalKeySetSnapshotOf(snapshot({ routeModes })))).toBe(message);
  });

  it('leaves out a route this build does not key (a later release’s, a stale row), prototype keys included', () => {
    const routeModes = { 'GET /v1/swaps/tokens': 'enforce', 'POST /v1/swaps/quote': 'monitor', ...JSON.parse('{"__proto__": "enforce"}') };
    expect(portalKeySetSnapshotOf(snapshot({ routeModes })).routeModes).toEqual({ 'POST /v1/swaps/quote': 'monitor' });
  });

  it('reads a v2 set (the previous release’s, during a rollout) as one with no route modes; a v2 reader refuses v3', () => {
    const { routeModes: _, ...v2 } = snapshot();
    expect(portalKeySetSnapshotOf(v2).routeModes).toEqual({});
    expect(portalKeySetSnapshotOf(v2, 2)).not.toHaveProperty('routeModes');
    expect(refusal(() => portalKeySetSnapshotOf(snapshot(), 2))).toBe('shape: snapshot has unknown fields: "routeModes"');
    const change = { ...v2, kind: 'portal-keyset.change', extends: 1, upserts: [], removals: [] };
    delete (change as Record<string, unknown>).keys;
    expect(portalKeySetChangeOf(change).routeModes).toEqual({});
  });
});
