import type { KeySetSnapshot } from '@swap/contracts';
import { createLogger, ServiceMetrics } from '@swap/observability';
import { hashKey } from './key-format';
import { KeySetCache, LocalKeySetSource } from './key-set-cache';

const logger = createLogger({ service: 'test', level: 'silent' });
const entry = (key: string, over: Partial<{ orgId: string; scopes: string[]; suspended: boolean }> = {}) => ({
  hash: hashKey(key),
  keyId: `id-${key}`,
  orgId: over.orgId ?? 'org-1',
  scopes: over.scopes ?? ['swaps:read', 'swaps:write'],
  suspended: over.suspended ?? false,
});

function cacheWith(load: () => Promise<KeySetSnapshot>, fixedModes?: KeySetSnapshot['modes']) {
  return new KeySetCache({ name: 'test', source: new LocalKeySetSource(load), refreshMs: 60_000, fixedModes, logger });
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
  });

  it('gives a route its own mode over its family’s, from a set and from a change; fixed modes win', async () => {
    const cache = new KeySetCache({
      name: 'test',
      source: { ordering: 'newer-only', pull: async () => undefined },
      refreshMs: 60_000,
      logger,
    });
    cache.offer({ epoch: 1, version: 1, keys: [], modes: { swaps: 'monitor' }, routeModes: { 'POST /v1/swaps/quote': 'enforce' } });
    expect(cache.modeOf('swaps', 'POST /v1/swaps/quote')).toBe('enforce');
    expect(cache.modeOf('swaps', 'POST /v1/swaps/submit-tx')).toBe('monitor');
    expect(cache.modeOf('swaps')).toBe('monitor');
    cache.offerChange({ epoch: 1, version: 2, extends: 1, upserts: [], removals: [], modes: { swaps: 'monitor' }, routeModes: {} });
    expect(cache.modeOf('swaps', 'POST /v1/swaps/quote')).toBe('monitor');
    const sponsoring = cacheWith(async () => ({ version: 1, keys: [], modes: {} }), { sponsorships: 'enforce' });
    await sponsoring.refresh();
    expect(sponsoring.modeOf('sponsorships', 'POST /v1/sponsorships/requests')).toBe('enforce');
  });

  it('reports the key set’s age per replica: since it was last confirmed, reset by a refresh that finds it unchanged', async () => {
    const metrics = new ServiceMetrics('test', { defaultMetrics: false });
    let version = 1;
    const cache = new KeySetCache({
      name: 'portal',
      source: { ordering: 'newer-only', pull: async (c) => void c.offer({ epoch: 1, version, keys: [], modes: { swaps: 'off' } }) },
      refreshMs: 60_000,
      logger,
      metrics,
    });
    const age = async () => Number(/keyset_age_seconds\{registry="portal",service="test"\} ([\d.e-]+)/.exec(await metrics.render())?.[1]);
    const start = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(start + 40_000);
    expect(await age()).toBeGreaterThanOrEqual(40);
    await cache.refresh();
    expect(await age()).toBe(0);
    (Date.now as jest.Mock).mockReturnValue(start + 50_000);
    expect(await age()).toBe(10);
    version = 1; // unchanged: still confirmed
    await cache.refresh();
    expect(await age()).toBe(0);
    jest.restoreAllMocks();
  });

  it('knows no mode and answers unavailable until a set has loaded (fail closed, never off)', async () => {
    const cache = cacheWith(() => Promise.reject(new Error('no responders')));
    expect(await cache.refresh()).toBe(false);
    expect(cache.loaded).toBe(false);
    expect(cache.modeOf('swaps')).toBeUndefined();
    expect(cache.check('svc_any', 'swaps:read').outcome).toBe('unavailable');
  });

  it('reads a family the held set does not name as unknown, not as off', async () => {
    const cache = cacheWith(async () => ({ version: 1, keys: [], modes: { swaps: 'enforce' } }));
    await cache.refresh();
    expect(cache.modeOf('swaps')).toBe('enforce');
    expect(cache.modeOf('leverage-yield')).toBeUndefined();
  });

  it('keeps the last good set when a refresh fails', async () => {
    let fail = false;
    const cache = cacheWith(async () => {
      if (fail) throw new Error('database down');
      return { version: 1, keys: [entry('svc_good')], modes: {} };
    });
    await cache.refresh();
    fail = true;
    expect(await cache.refresh()).toBe(false);
    expect(cache.check('svc_good').outcome).toBe('ok');
    expect(cache.version).toBe(1);
  });

  it('reloads its own database on a version hint newer than the one held, and only then', async () => {
    let version = 1;
    const load = jest.fn(async () => ({ version, keys: version >= 2 ? [] : [entry('svc_revoked_later')], modes: {} }));
    const cache = cacheWith(load);
    await cache.refresh();
    cache.onEvent({ version: 1 });
    cache.onEvent({ version: 'x' });
    cache.onEvent(null);
    expect(load).toHaveBeenCalledTimes(1);
    version = 2;
    cache.onEvent({ version: 2 });
    await cache.refresh();
    expect(cache.check('svc_revoked_later').outcome).toBe('invalid');
    expect(cache.version).toBe(2);
  });

  it('follows its own database whose version went back (a restored database; nothing crossed the bus)', async () => {
    let version = 9;
    const cache = cacheWith(async () => ({ version, keys: version === 3 ? [entry('svc_restored')] : [], modes: {} }));
    await cache.refresh();
    version = 3;
    await cache.refresh();
    expect(cache.version).toBe(3);
    expect(cache.check('svc_restored').outcome).toBe('ok');
  });

  it('pulls once more when asked during a pull, and does not spin when pulls keep failing', async () => {
    let calls = 0;
    let release: () => void = () => undefined;
    const cache = cacheWith(async () => {
      calls++;
      if (calls === 1) await new Promise<void>((r) => (release = r));
      if (calls > 2) throw new Error('down');
      return { version: calls, keys: [], modes: {} };
    });
    const first = cache.refresh();
    void cache.refresh(); // while the first pull runs: one more after it
    release();
    expect(await first).toBe(true);
    expect(calls).toBe(2);
    expect(await cache.refresh()).toBe(false);
    expect(await cache.refresh()).toBe(false);
    expect(calls).toBe(4);
  });

  it('lets fixed modes win over the set, loaded or not', async () => {
    const cache = cacheWith(async () => ({ version: 1, keys: [], modes: { sponsorships: 'off' } }), { sponsorships: 'enforce' });
    expect(cache.modeOf('sponsorships')).toBe('enforce');
    await cache.refresh();
    expect(cache.modeOf('sponsorships')).toBe('enforce');
  });
});
