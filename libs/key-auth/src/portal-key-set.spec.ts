import { MemoryCache } from '@swap/cache';
import { Subjects, type PortalKeySetSnapshot, type V2 } from '@swap/contracts';
import { encodeReply, generateSigningKeyPair, InProcessBus, MessagingClient, parseSigningKey, PayloadSigner } from '@swap/messaging';
import { createLogger } from '@swap/observability';
import { hashKey } from './key-format';
import { KeySetCache } from './key-set-cache';
import { PORTAL_KEY_SET_STORE_KEY, portalKeySetFeed } from './portal-key-set';

const logger = createLogger({ service: 'test', level: 'silent' });
const pair = generateSigningKeyPair();
const signer = new PayloadSigner(parseSigningKey(pair.signingKey));

/** A set as the previous release's key-registry signs it: v2, no routeModes. */
const previous = (version: number): V2<PortalKeySetSnapshot> => ({
  kind: 'portal-keyset.snapshot',
  epoch: 1,
  version,
  issuedAt: new Date().toISOString(),
  keys: [{ hash: hashKey('svc_old'), keyId: 'k1', orgId: 'o1', scopes: ['swaps:read'], suspended: false }],
  modes: { swaps: 'monitor', 'leverage-yield': 'off' },
});

describe('the portal key set during a rollout (key-registry still on the previous release)', () => {
  it('asks v2 when v3 has no one to answer, and holds its set with no route modes', async () => {
    const bus = new InProcessBus();
    bus.subscribe(Subjects.keySetSnapshotV2, (m) => m.respond?.(encodeReply(signer.sign(previous(4)))), { queue: 'key-registry' });
    const feed = portalKeySetFeed({
      messaging: new MessagingClient(bus, { timeoutMs: 500 }),
      publicKeys: pair.publicKey,
      timeoutMs: 500,
      logger,
    });
    const cache = new KeySetCache({ name: 'portal', source: feed, refreshMs: 60_000, logger });

    expect(await cache.refresh()).toBe(true);

    expect({ version: cache.version, mode: cache.modeOf('swaps', 'POST /v1/swaps/quote'), key: cache.check('svc_old').outcome }).toEqual({
      version: 4,
      mode: 'monitor',
      key: 'ok',
    });
    await bus.close();
  });

  it('starts from the previous release’s kept copy when its own key holds none', async () => {
    const store = new MemoryCache({ namespace: 'rollout' });
    await store.set('keyset:portal', JSON.stringify({ snapshot: signer.sign(previous(7)), changes: [] }), 60_000);
    const bus = new InProcessBus();
    const feed = portalKeySetFeed({
      messaging: new MessagingClient(bus, { timeoutMs: 200 }),
      publicKeys: pair.publicKey,
      store,
      timeoutMs: 200,
      logger,
    });
    const cache = new KeySetCache({ name: 'portal', source: feed, refreshMs: 60_000, logger });

    await feed.restore(cache);

    expect(cache.version).toBe(7);
    expect(await store.get(PORTAL_KEY_SET_STORE_KEY)).toBeUndefined();
    await bus.close();
  });
});
