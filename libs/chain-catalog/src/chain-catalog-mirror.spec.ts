import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { AppError, Events, Subjects, type ChainCatalogSnapshot } from '@swap/contracts';
import { encodeReply, generateSigningKeyPair, InProcessBus, MessagingClient, parseSigningKey, PayloadSigner } from '@swap/messaging';
import { testCatalogSigning } from '@swap/testing';
import { ChainCatalogMirrorEvents, MAX_CATALOG_CLOCK_SKEW_MS } from './chain-catalog-mirror';

const token = { symbol: 'USDC', name: 'USD Coin', decimals: 6, address: '0xa', chainKey: '0x92.sonic', hubAsset: '0xa', vault: '0xv' };
const snapshot = (version: string, symbol = 'USDC', startedAt = 1): ChainCatalogSnapshot => ({
  version,
  startedAt,
  chains: [{ key: '0x92.sonic', name: 'Sonic', type: 'EVM', chainId: 146, relayChainId: '146', hub: true, aliases: ['sonic'] }],
  tokensByChain: { '0x92.sonic': [{ ...token, symbol }] },
  partnerFee: null,
});

/** A messaging client that answers the snapshot request from a queue (signed with the spec's catalog key), counting the asks. */
function answering(...snapshots: ChainCatalogSnapshot[]) {
  const replies = snapshots.map((s) => testCatalogSigning.sign(s));
  const asked = { n: 0 };
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const client = {
    request: async () => {
      asked.n++;
      await gate;
      return replies.shift();
    },
  } as unknown as MessagingClient;
  return { client, asked, release };
}

describe('ChainCatalogMirror', () => {
  it('waits for the first snapshot with one request for every read, then answers from memory', async () => {
    const { client, asked, release } = answering(snapshot('v1'));
    const mirror = testCatalogSigning.mirror(client);
    const reads = Promise.all([mirror.tokensOf('0x92.sonic'), mirror.chain('SONIC'), mirror.tokensJson()]);
    release();
    const [tokens, chain, json] = await reads;
    expect(tokens[0].symbol).toBe('USDC');
    expect(chain).toEqual({ key: '0x92.sonic', name: 'Sonic', type: 'EVM', chainId: 146, relayChainId: '146', hub: true });
    expect(JSON.parse(json)).toEqual({ '0x92.sonic': [token] });
    await mirror.tokensOf('0X92.Sonic');
    expect(asked.n).toBe(1);
  });

  it('answers the data API’s config reads: chain keys, relay chain ids as numbers, hub assets (sent, or derived from tokens)', async () => {
    const sent = {
      ...snapshot('v1'),
      hubAssets: { '0x92.sonic': { '0xa': { asset: '0xh', decimal: 18, vault: '0xv', symbol: 'USDC', name: 'USD Coin' } } },
    };
    const { client, release } = answering(sent);
    release();
    const mirror = testCatalogSigning.mirror(client);
    expect(JSON.parse(await mirror.configJson('chainKeys'))).toEqual(['0x92.sonic']);
    expect(JSON.parse(await mirror.configJson('relayChainIds'))).toEqual({ '0x92.sonic': 146 });
    expect(JSON.parse(await mirror.configJson('hubAssets'))).toEqual(sent.hubAssets);
    expect(JSON.parse(await mirror.configJson('hubAssets', 'SONIC'))).toEqual(sent.hubAssets['0x92.sonic']);
    // A replica of an earlier release sends no hub assets: they come from its tokens.
    mirror.apply(snapshot('v2', 'USDC', 2));
    expect(JSON.parse(await mirror.configJson('hubAssets', 'sonic'))).toEqual({
      '0xa': { asset: '0xa', decimal: 6, vault: '0xv', symbol: 'USDC', name: 'USD Coin' },
    });
    await expect(mirror.configJson('hubAssets', 'atlantis')).rejects.toBeInstanceOf(AppError);
  });

  it('answers an unknown chain with the catalog’s 404', async () => {
    const { client, release } = answering(snapshot('v1'));
    release();
    const error = await testCatalogSigning
      .mirror(client)
      .chain('0x1.nowhere')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody()).toEqual({ statusCode: 404, code: 'CHAIN_NOT_FOUND', message: 'Unknown chain key: 0x1.nowhere' });
  });

  it('takes an announced snapshot of another version, and ignores the same version again or an older replica’s', async () => {
    const { client, release } = answering(snapshot('v1'));
    release();
    const mirror = testCatalogSigning.mirror(client);
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
    mirror.apply(snapshot('v2', 'USDC.e', 2));
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC.e');
    expect(JSON.parse(await mirror.tokensJson('sonic'))[0].symbol).toBe('USDC.e');
    mirror.apply(snapshot('v2', 'IGNORED', 3));
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC.e');
    // A replica of the previous release (started earlier) answering late changes nothing.
    mirror.apply(snapshot('v1', 'OLD', 1));
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC.e');
  });

  it('refuses a snapshot dated ahead of its clock (a forged one would outlive every genuine announcement), first or later', async () => {
    const { client, release } = answering(snapshot('v1', 'USDC', Date.now()));
    release();
    const mirror = testCatalogSigning.mirror(client);
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
    expect(mirror.apply(snapshot('forged', 'EVIL', Date.now() + MAX_CATALOG_CLOCK_SKEW_MS + 60_000))).toBe('refused');
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
    // A replica restarted now still replaces what is held.
    expect(mirror.apply(snapshot('v2', 'USDC.e', Date.now()))).toBe('taken');
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC.e');

    const first = answering(snapshot('forged', 'EVIL', Date.now() + 10 * 60_000));
    first.release();
    const error = await testCatalogSigning
      .mirror(first.client)
      .tokensOf('sonic')
      .catch((e: unknown) => e);
    expect((error as AppError).toBody()).toMatchObject({ statusCode: 503, message: expect.stringContaining('cannot trust') });
  });

  it('takes nothing quote-builder did not sign: unsigned, signed by another key, altered after signing, or not a snapshot', async () => {
    const { client, release } = answering(snapshot('v1', 'USDC', 1));
    release();
    const mirror = testCatalogSigning.mirror(client);
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
    const forged = snapshot('forged', 'EVIL', 2);
    const other = new PayloadSigner(parseSigningKey(generateSigningKeyPair().signingKey));
    const signed = testCatalogSigning.sign(forged);
    for (const message of [
      forged,
      other.sign(forged),
      {
        ...signed,
        payload: { ...signed.payload, partnerFee: { address: '0x000000000000000000000000000000000000dEaD', percentage: 10_000 } },
      },
      testCatalogSigning.sign({ not: 'a snapshot' } as unknown as ChainCatalogSnapshot),
      { ...signed, extra: 1 },
      null,
    ])
      expect(mirror.receive(message)).toBe('refused');
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
    expect(mirror.receive(signed)).toBe('taken');
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('EVIL');
  });

  describe('on the bus: the signed v3 subjects only', () => {
    let bus: InProcessBus;
    beforeEach(() => (bus = new InProcessBus()));
    afterEach(() => bus.close());
    const serve = (subject: string, answer: unknown) => {
      const asked: string[] = [];
      bus.subscribe(subject, (m) => (asked.push(subject), m.respond?.(encodeReply(answer))));
      return asked;
    };

    it('asks v3 and takes its signed answer', async () => {
      const v3 = serve(Subjects.catalogSnapshot, testCatalogSigning.sign(snapshot('v1', 'NEW')));
      const v2 = serve(Subjects.catalogSnapshotV2, snapshot('v1', 'OLD'));
      const mirror = testCatalogSigning.mirror(new MessagingClient(bus, { timeoutMs: 1_000 }));
      expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('NEW');
      expect({ v3, v2 }).toEqual({ v3: [Subjects.catalogSnapshot], v2: [] });
    });

    it('answers 503 while only an unsigned answer comes (a forger, or a quote-builder of the previous release), and never asks v2', async () => {
      const v3 = serve(Subjects.catalogSnapshot, snapshot('forged', 'EVIL'));
      const v2 = serve(Subjects.catalogSnapshotV2, snapshot('v1', 'OLD'));
      const mirror = testCatalogSigning.mirror(new MessagingClient(bus, { timeoutMs: 1_000 }));
      const error = await mirror.tokensOf('sonic').catch((e: unknown) => e);
      expect((error as AppError).toBody()).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
      expect({ v3: v3.length, v2: v2.length }).toEqual({ v3: 1, v2: 0 });
    });

    it('takes the change event only under v3, and only signed', async () => {
      const patterns = Reflect.getMetadata(PATTERN_METADATA, ChainCatalogMirrorEvents.prototype.changed) as string[];
      expect(patterns).toEqual([Events.catalogChanged]);
      expect({ catalogChanged: Events.catalogChanged, catalogSnapshot: Subjects.catalogSnapshot }).toEqual({
        catalogChanged: 'quote-builder.catalog.changed.v3',
        catalogSnapshot: 'quote-builder.catalog.snapshot.v3',
      });
      const { client, release } = answering(snapshot('v1', 'USDC', 1));
      release();
      const mirror = testCatalogSigning.mirror(client);
      const events = new ChainCatalogMirrorEvents(mirror);
      events.changed(snapshot('forged', 'EVIL', 2));
      expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
      events.changed(testCatalogSigning.sign(snapshot('v2', 'USDC.e', 2)));
      expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC.e');
    });
  });
});
