import type { KeySetSnapshot } from '@swap/contracts';
import { createLogger } from '@swap/observability';
import { hashKey } from './key-format';
import { KeySetCache } from './key-set-cache';

const logger = createLogger({ service: 'test', level: 'silent' });
const entry = (key: string, over: Partial<{ orgId: string; scopes: string[]; suspended: boolean }> = {}) => ({
  hash: hashKey(key),
  keyId: `id-${key}`,
  orgId: over.orgId ?? 'org-1',
  scopes: over.scopes ?? ['swaps:read', 'swaps:write'],
  suspended: over.suspended ?? false,
});

function cacheWith(load: () => Promise<KeySetSnapshot>) {
  return new KeySetCache({ name: 'test', load, refreshMs: 60_000, modesUntilLoaded: { swaps: 'enforce' }, logger });
}

describe('KeySetCache', () => {
  it('reports every check outcome from the loaded set', async () => {
    const cache = cacheWith(async () => ({
      version: 3,
      keys: [entry('svc_good'), entry('svc_read', { scopes: ['swaps:read'] }), entry('svc_susp', { suspended: true })],
      modes: { swaps: 'monitor' },
    }));
    await cache.refresh();
    expect(cache.check(undefined).outcome).toBe('missing');
    expect(cache.check('').outcome).toBe('missing');
    expect(cache.check('svc_unknown').outcome).toBe('invalid');
    expect(cache.check(['svc_good', 'svc_good']).outcome).toBe('invalid');
    expect(cache.check('svc_susp', 'swaps:read').outcome).toBe('suspended');
    expect(cache.check('svc_read', 'swaps:write').outcome).toBe('scope');
    expect(cache.check('svc_good', 'swaps:write')).toMatchObject({ outcome: 'ok', entry: { orgId: 'org-1' } });
    expect(cache.modeOf('swaps')).toBe('monitor');
    expect(cache.modeOf('leverage-yield')).toBe('off');
  });

  it('answers unavailable, and uses the configured modes, until a set has loaded', async () => {
    const cache = cacheWith(() => Promise.reject(new Error('no responders')));
    expect(await cache.refresh()).toBe(false);
    expect(cache.loaded).toBe(false);
    expect(cache.check('svc_any', 'swaps:read').outcome).toBe('unavailable');
    expect(cache.check(undefined).outcome).toBe('missing');
    expect(cache.modeOf('swaps')).toBe('enforce');
  });

  it('keeps the last good set when a refresh fails', async () => {
    let fail = false;
    const cache = cacheWith(async () => {
      if (fail) throw new Error('key-registry down');
      return { version: 1, keys: [entry('svc_good')], modes: {} };
    });
    await cache.refresh();
    fail = true;
    expect(await cache.refresh()).toBe(false);
    expect(cache.check('svc_good').outcome).toBe('ok');
    expect(cache.version).toBe(1);
  });

  it('reloads on a change event with a newer version only', async () => {
    let version = 1;
    const load = jest.fn(async () => ({ version, keys: version >= 2 ? [] : [entry('svc_revoked_later')], modes: {} }));
    const cache = cacheWith(load);
    await cache.refresh();
    cache.onChanged(1);
    expect(load).toHaveBeenCalledTimes(1);
    version = 2;
    cache.onChanged(2);
    await cache.refresh();
    expect(cache.check('svc_revoked_later').outcome).toBe('invalid');
    expect(cache.version).toBe(2);
  });

  it('follows a registry whose version went back (a restored database)', async () => {
    let version = 9;
    const cache = cacheWith(async () => ({ version, keys: version === 3 ? [entry('svc_restored')] : [], modes: {} }));
    await cache.refresh();
    version = 3;
    await cache.refresh();
    expect(cache.version).toBe(3);
    expect(cache.check('svc_restored').outcome).toBe('ok');
  });

  it('does not spin when loads keep failing after a change event', async () => {
    let calls = 0;
    const cache = cacheWith(async () => {
      calls++;
      if (calls > 1) throw new Error('down');
      return { version: 1, keys: [], modes: {} };
    });
    await cache.refresh();
    cache.onChanged(5);
    await cache.refresh();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(2);
  });

  it('lets fixed modes win over the snapshot', async () => {
    const cache = new KeySetCache({
      name: 'sponsoring',
      load: async () => ({ version: 1, keys: [], modes: { sponsorships: 'off' } }),
      refreshMs: 60_000,
      modesUntilLoaded: {},
      fixedModes: { sponsorships: 'enforce' },
      logger,
    });
    await cache.refresh();
    expect(cache.modeOf('sponsorships')).toBe('enforce');
  });
});
