import { MemoryCache } from '@swap/cache';
import type { KeySetEntry, PortalKeySetChange, PortalKeySetSnapshot, PortalModes } from '@swap/contracts';
import { createLogger, ServiceMetrics } from '@swap/observability';
import { hashKey } from './key-format';
import { KeySetCache } from './key-set-cache';
import { generateSigningKeyPair, SignatureCheck, PayloadSigner, parsePublicKeys, parseSigningKey } from '@swap/messaging';
import { SignedKeySetFeed } from './signed-key-set-feed';

const logger = createLogger({ service: 'test', level: 'silent' });
const registryPair = generateSigningKeyPair();
const registry = new PayloadSigner(parseSigningKey(registryPair.signingKey));
const attacker = new PayloadSigner(parseSigningKey(generateSigningKeyPair().signingKey));

/** Lets the work an event started (a pull, a write to the store) finish: the queued callbacks run, nothing waits on a clock. */
const settled = () => new Promise((resolve) => setImmediate(resolve));
const entry = (key: string, over: Partial<KeySetEntry> = {}): KeySetEntry => ({
  hash: hashKey(key),
  keyId: `id-${key.slice(4)}`,
  orgId: 'org-1',
  scopes: ['swaps:read', 'swaps:write'],
  suspended: false,
  ...over,
});
const ENFORCE: PortalModes = { swaps: 'enforce', 'leverage-yield': 'off' };
const issuedAt = '2026-11-24T10:00:00.000Z';

function snapshot(over: Partial<PortalKeySetSnapshot> = {}): PortalKeySetSnapshot {
  return {
    kind: 'portal-keyset.snapshot',
    epoch: 1,
    version: 5,
    issuedAt,
    keys: [entry('svc_real')],
    modes: ENFORCE,
    routeModes: {},
    ...over,
  };
}

function change(over: Partial<PortalKeySetChange> = {}): PortalKeySetChange {
  const version = over.version ?? 6;
  return {
    kind: 'portal-keyset.change',
    epoch: 1,
    version,
    extends: version - 1,
    issuedAt,
    upserts: [],
    removals: [],
    modes: ENFORCE,
    routeModes: {},
    ...over,
  };
}

/** A service's key set fed by a stand-in for the bus: `answers` are the snapshot replies, in turn (the last one repeats). */
function service(options: { answers: unknown[]; gathered?: unknown[]; store?: MemoryCache; now?: number }) {
  const metrics = new ServiceMetrics('test');
  let turn = 0;
  const request = jest.fn(async () => options.answers[Math.min(turn++, options.answers.length - 1)]);
  const feed = new SignedKeySetFeed({
    check: new SignatureCheck(parsePublicKeys(registryPair.publicKey)),
    request,
    gather: options.gathered
      ? (onAnswer) => {
          queueMicrotask(() => options.gathered!.forEach(onAnswer));
          return { close: () => undefined };
        }
      : undefined,
    timeoutMs: 200,
    store: options.store,
    storeKey: 'keyset:portal',
    // A minute after the sets were signed, unless a test says otherwise: the wall clock plays no part.
    now: () => options.now ?? Date.parse(issuedAt) + 60_000,
    logger,
  });
  const cache = new KeySetCache({ name: 'portal', source: feed, refreshMs: 60_000, logger, metrics });
  const refused = async () =>
    Object.fromEntries(
      (await metrics.registry.getSingleMetric('api_key_set_refused_total')!.get()).values.map((v) => [v.labels.reason, v.value]),
    );
  /** What a request with this key gets on the enforced swaps routes, and the mode. */
  const seen = (key: string) => ({ mode: cache.modeOf('swaps'), outcome: cache.check(key, 'swaps:write').outcome });
  return { cache, request, refused, seen, metrics };
}

describe('the portal key set, signed by key-registry', () => {
  it('applies a signed snapshot', async () => {
    const { cache, seen } = service({ answers: [registry.sign(snapshot())] });
    expect(await cache.refresh()).toBe(true);
    expect(seen('svc_real')).toEqual({ mode: 'enforce', outcome: 'ok' });
    expect([cache.epoch, cache.version]).toEqual([1, 5]);
  });

  it('refuses, even holding nothing yet, a genuine snapshot signed more than a minute ago or ahead (a replay), and hears the fresh one asked again', async () => {
    const signedAt = Date.parse(issuedAt);
    const replay = registry.sign(snapshot({ epoch: 1, version: 8, keys: [entry('svc_revoked_since')] }));
    const fresh = registry.sign(
      snapshot({ epoch: 2, version: 1, issuedAt: new Date(signedAt + 61_000).toISOString(), keys: [entry('svc_real')] }),
    );
    const ahead = registry.sign(
      snapshot({ epoch: 3, version: 1, issuedAt: new Date(signedAt + 200_000).toISOString(), keys: [entry('svc_attacker')] }),
    );
    // 61 s after `replay` was signed; `fresh` was signed just now, `ahead` claims 139 s from now.
    const { cache, refused, seen } = service({ answers: [replay], gathered: [ahead, replay, fresh], now: signedAt + 61_000 });
    expect(await cache.refresh()).toBe(true);
    expect({ epoch: cache.epoch, version: cache.version }).toEqual({ epoch: 2, version: 1 });
    expect(seen('svc_revoked_since').outcome).toBe('invalid');
    expect(seen('svc_attacker').outcome).toBe('invalid');
    expect(seen('svc_real')).toEqual({ mode: 'enforce', outcome: 'ok' });
    expect(await refused()).toEqual({ expired: 1 });
  });

  describe('snapshots refused, the held set unchanged', () => {
    const takeover = snapshot({ version: 1_000_000, keys: [entry('svc_attacker')], modes: { swaps: 'off', 'leverage-yield': 'off' } });
    const cases: [string, unknown, string][] = [
      ['forged: signed by a key the service does not trust', attacker.sign(takeover), 'signature'],
      ['forged: the registry key id over an attacker signature', { ...attacker.sign(takeover), keyId: registry.keyId }, 'signature'],
      ['altered after signing', { ...registry.sign(snapshot()), payload: takeover }, 'signature'],
      ['unsigned (the old message shape)', { version: 1_000_000, keys: [entry('svc_attacker')], modes: { swaps: 'off' } }, 'unsigned'],
      [
        'replayed: an older version, genuinely signed',
        registry.sign(snapshot({ version: 4, keys: [entry('svc_real'), entry('svc_revoked')] })),
        'replay',
      ],
      ['modes: null, genuinely signed', registry.sign({ ...snapshot({ version: 6 }), modes: null as never }), 'shape'],
      ['a family left out, genuinely signed', registry.sign(snapshot({ version: 6, modes: { swaps: 'enforce' } as never })), 'shape'],
      [
        'an unknown family, genuinely signed',
        registry.sign(snapshot({ version: 6, modes: { ...ENFORCE, sponsorships: 'off' } as never })),
        'shape',
      ],
      [
        'a mode that does not exist, genuinely signed',
        registry.sign(snapshot({ version: 6, modes: { ...ENFORCE, swaps: 'disabled' } as never })),
        'shape',
      ],
      ['a version that is text, genuinely signed', registry.sign({ ...snapshot(), version: '6' as never }), 'shape'],
      [
        'a key with an unknown field, genuinely signed',
        registry.sign(snapshot({ version: 6, keys: [{ ...entry('svc_attacker'), admin: true } as never] })),
        'shape',
      ],
      ['a change offered as a snapshot, genuinely signed', registry.sign(change({ version: 6 })), 'shape'],
    ];
    it.each(cases)('%s', async (_name, answer, reason) => {
      const { cache, seen, refused } = service({ answers: [registry.sign(snapshot()), answer] });
      await cache.refresh();
      expect(await cache.refresh()).toBe(false);
      expect(await refused()).toEqual({ [reason]: 1 });
      expect([cache.epoch, cache.version]).toEqual([1, 5]);
      expect(seen('svc_real')).toEqual({ mode: 'enforce', outcome: 'ok' });
      expect(seen('svc_attacker')).toEqual({ mode: 'enforce', outcome: 'invalid' });
      expect(seen('svc_revoked')).toEqual({ mode: 'enforce', outcome: 'invalid' });
      expect(cache.modeOf('leverage-yield')).toBe('off');
    });

    it('an older epoch is refused even with a higher version; a newer epoch is taken whatever its version', async () => {
      const { cache, seen, refused } = service({
        answers: [
          registry.sign(snapshot({ epoch: 7, version: 5 })),
          registry.sign(snapshot({ epoch: 6, version: 50, keys: [entry('svc_revoked')] })),
          registry.sign(snapshot({ epoch: 8, version: 1, keys: [entry('svc_restored')] })),
        ],
      });
      await cache.refresh();
      expect(await cache.refresh()).toBe(false);
      expect(await refused()).toEqual({ epoch: 1 });
      expect(seen('svc_revoked').outcome).toBe('invalid');
      expect(await cache.refresh()).toBe(true);
      expect([cache.epoch, cache.version]).toEqual([8, 1]);
      expect(seen('svc_restored').outcome).toBe('ok');
      expect(seen('svc_real').outcome).toBe('invalid');
    });
  });

  it('hears the real snapshot when someone else on the bus answered first', async () => {
    const forged = attacker.sign(snapshot({ version: 9, keys: [entry('svc_attacker')] }));
    const { cache, seen, refused } = service({ answers: [forged], gathered: [forged, { not: 'signed' }, registry.sign(snapshot())] });
    expect(await cache.refresh()).toBe(true);
    expect(seen('svc_real').outcome).toBe('ok');
    expect(seen('svc_attacker').outcome).toBe('invalid');
    expect(await refused()).toEqual({ signature: 1 });
  });

  describe('change events', () => {
    async function loaded() {
      const s = service({ answers: [registry.sign(snapshot())] });
      await s.cache.refresh();
      return s;
    }

    it('apply a signed change on top of the version it extends: a revocation, a new key, a mode', async () => {
      const { cache, seen } = await loaded();
      cache.onEvent(
        registry.sign(
          change({
            version: 6,
            upserts: [entry('svc_new')],
            removals: [hashKey('svc_real')],
            modes: { swaps: 'monitor', 'leverage-yield': 'off' },
          }),
        ),
      );
      expect(cache.version).toBe(6);
      expect(seen('svc_real')).toEqual({ mode: 'monitor', outcome: 'invalid' });
      expect(seen('svc_new').outcome).toBe('ok');
    });

    it('time how long a change took from its signing to being applied here, revocations apart', async () => {
      const { cache, metrics } = await loaded();
      cache.onEvent(registry.sign(change({ version: 6, removals: [hashKey('svc_real')] })));
      cache.onEvent(registry.sign(change({ version: 7, upserts: [entry('svc_new')] })));
      const { values } = await metrics.registry.getSingleMetric('keyset_change_propagation_seconds')!.get();
      const sums = values.filter((v) => (v as { metricName?: string }).metricName === 'keyset_change_propagation_seconds_sum');
      // Signed a minute before the feed's clock (see service()).
      expect(sums.map((v) => [v.labels.kind, v.value])).toEqual([
        ['revocation', 60],
        ['other', 60],
      ]);
    });

    const takeover = change({
      version: 6,
      upserts: [entry('svc_attacker')],
      removals: [hashKey('svc_real')],
      modes: { swaps: 'off', 'leverage-yield': 'off' },
    });
    const refusedEvents: [string, unknown, string][] = [
      ['forged', attacker.sign(takeover), 'signature'],
      ['unsigned (the old event shape)', { version: 6 }, 'unsigned'],
      ['replayed (an older version)', registry.sign(change({ version: 4, upserts: [entry('svc_revoked')] })), 'replay'],
      ['modes: null', registry.sign({ ...change({ version: 6 }), modes: null as never }), 'shape'],
      ['a family left out', registry.sign(change({ version: 6, modes: { swaps: 'enforce' } as never })), 'shape'],
      ['extending a version it does not follow', registry.sign({ ...change({ version: 6 }), extends: 3 }), 'shape'],
    ];
    it.each(refusedEvents)('are refused when %s, the held set unchanged', async (_name, event, reason) => {
      const { cache, seen, refused, request } = await loaded();
      cache.onEvent(event);
      expect(await refused()).toEqual({ [reason]: 1 });
      expect(request).toHaveBeenCalledTimes(1);
      expect(cache.version).toBe(5);
      expect(seen('svc_real')).toEqual({ mode: 'enforce', outcome: 'ok' });
      expect(seen('svc_attacker').outcome).toBe('invalid');
      expect(seen('svc_revoked').outcome).toBe('invalid');
    });

    it('from an older epoch are refused as such', async () => {
      const s = service({ answers: [registry.sign(snapshot({ epoch: 3 }))] });
      await s.cache.refresh();
      s.cache.onEvent(registry.sign(change({ epoch: 2, version: 9, upserts: [entry('svc_revoked')] })));
      expect(await s.refused()).toEqual({ epoch: 1 });
      expect(s.seen('svc_revoked').outcome).toBe('invalid');
    });

    it('that skip a version, or start a new epoch, bring a snapshot rather than being applied', async () => {
      const { cache, seen, request } = service({
        answers: [
          registry.sign(snapshot()),
          registry.sign(snapshot({ version: 8, keys: [entry('svc_eight')] })),
          registry.sign(snapshot({ epoch: 2, version: 1 })),
        ],
      });
      await cache.refresh();
      cache.onEvent(registry.sign(change({ version: 8, upserts: [entry('svc_from_event')] })));
      await settled(); // the pull the event started
      expect(request).toHaveBeenCalledTimes(2);
      expect(cache.version).toBe(8);
      expect(seen('svc_eight').outcome).toBe('ok');
      expect(seen('svc_from_event').outcome).toBe('invalid');
      cache.onEvent(registry.sign(change({ epoch: 2, version: 1 })));
      await settled();
      expect(request).toHaveBeenCalledTimes(3);
      expect([cache.epoch, cache.version]).toEqual([2, 1]);
    });
  });

  describe('the kept copy (Redis in a cluster)', () => {
    it('lets a service restarted while key-registry is down start from the last good set, changes included', async () => {
      const store = new MemoryCache({ namespace: 'swap-gateway' });
      const first = service({ answers: [registry.sign(snapshot())], store });
      await first.cache.onApplicationBootstrap();
      first.cache.onEvent(registry.sign(change({ version: 6, upserts: [entry('svc_new')], removals: [hashKey('svc_real')] })));
      first.cache.beforeApplicationShutdown();
      await settled(); // the write the event started

      const down = Object.assign(new Error('no responders'), { code: 'DEPENDENCY_UNAVAILABLE' });
      const restarted = service({ answers: [], store });
      restarted.request.mockRejectedValue(down);
      await restarted.cache.onApplicationBootstrap();
      restarted.cache.beforeApplicationShutdown();
      expect(restarted.cache.loaded).toBe(true);
      expect([restarted.cache.epoch, restarted.cache.version]).toEqual([1, 6]);
      expect(restarted.seen('svc_new')).toEqual({ mode: 'enforce', outcome: 'ok' });
      expect(restarted.seen('svc_real').outcome).toBe('invalid');
    });

    it('is refused when signed longer ago than KEYSET_KEPT_MAX_AGE_MS (a day): an old copy written back would bring revoked keys back', async () => {
      const store = new MemoryCache({ namespace: 'swap-gateway' });
      await store.set(
        'keyset:portal',
        JSON.stringify({ snapshot: registry.sign(snapshot({ keys: [entry('svc_revoked_since')] })), changes: [] }),
        60_000,
      );
      const day = 24 * 3_600_000;
      const start = async (now: number) => {
        const restarted = service({ answers: [], store, now });
        restarted.request.mockRejectedValue(new Error('no responders'));
        await restarted.cache.onApplicationBootstrap();
        restarted.cache.beforeApplicationShutdown();
        return restarted;
      };
      const justInTime = await start(Date.parse(issuedAt) + day);
      expect(justInTime.seen('svc_revoked_since')).toEqual({ mode: 'enforce', outcome: 'ok' });
      const tooLate = await start(Date.parse(issuedAt) + day + 1);
      expect(tooLate.cache.loaded).toBe(false);
      expect(await tooLate.refused()).toEqual({ expired: 1 });
      expect(tooLate.seen('svc_revoked_since')).toEqual({ mode: undefined, outcome: 'unavailable' });
    });

    it('is checked again when read: a forged copy is refused and nothing is held', async () => {
      const store = new MemoryCache({ namespace: 'swap-gateway' });
      await store.set(
        'keyset:portal',
        JSON.stringify({ snapshot: attacker.sign(snapshot({ keys: [entry('svc_attacker')] })), changes: [] }),
        60_000,
      );
      const restarted = service({ answers: [], store });
      restarted.request.mockRejectedValue(new Error('no responders'));
      await restarted.cache.onApplicationBootstrap();
      restarted.cache.beforeApplicationShutdown();
      expect(restarted.cache.loaded).toBe(false);
      expect(await restarted.refused()).toEqual({ signature: 1 });
      expect(restarted.seen('svc_attacker')).toEqual({ mode: undefined, outcome: 'unavailable' });
    });
  });
});
