import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { AppError, Events, Subjects, type ChainCatalogSnapshot } from '@swap/contracts';
import { encodeReply, InProcessBus, MessagingClient } from '@swap/messaging';
import { ChainCatalogMirror, ChainCatalogMirrorEvents, MAX_CATALOG_CLOCK_SKEW_MS } from './chain-catalog-mirror';

const token = { symbol: 'USDC', name: 'USD Coin', decimals: 6, address: '0xa', chainKey: '0x92.sonic', hubAsset: '0xa', vault: '0xv' };
const snapshot = (version: string, symbol = 'USDC', startedAt = 1): ChainCatalogSnapshot => ({
  version,
  startedAt,
  chains: [{ key: '0x92.sonic', name: 'Sonic', type: 'EVM', chainId: 146, relayChainId: '146', hub: true, aliases: ['sonic'] }],
  tokensByChain: { '0x92.sonic': [{ ...token, symbol }] },
  partnerFee: null,
});

/** A messaging client that answers the snapshot request from a queue, counting the asks. */
function answering(...replies: ChainCatalogSnapshot[]) {
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
    const mirror = new ChainCatalogMirror(client);
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
    const mirror = new ChainCatalogMirror(client);
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
    const error = await new ChainCatalogMirror(client).chain('0x1.nowhere').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody()).toEqual({ statusCode: 404, code: 'CHAIN_NOT_FOUND', message: 'Unknown chain key: 0x1.nowhere' });
  });

  it('takes an announced snapshot of another version, and ignores the same version again or an older replica’s', async () => {
    const { client, release } = answering(snapshot('v1'));
    release();
    const mirror = new ChainCatalogMirror(client);
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
    const mirror = new ChainCatalogMirror(client);
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
    expect(mirror.apply(snapshot('forged', 'EVIL', Date.now() + MAX_CATALOG_CLOCK_SKEW_MS + 60_000))).toBe('refused');
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC');
    // A replica restarted now still replaces what is held.
    expect(mirror.apply(snapshot('v2', 'USDC.e', Date.now()))).toBe('taken');
    expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('USDC.e');

    const first = answering(snapshot('forged', 'EVIL', Date.now() + 10 * 60_000));
    first.release();
    const error = await new ChainCatalogMirror(first.client).tokensOf('sonic').catch((e: unknown) => e);
    expect((error as AppError).toBody()).toMatchObject({ statusCode: 503, message: expect.stringContaining('dated ahead') });
  });

  describe('the subjects renamed at v2 (catalog, was registry): both served for one release', () => {
    let bus: InProcessBus;
    beforeEach(() => (bus = new InProcessBus()));
    afterEach(() => bus.close());
    const serve = (subject: string, answer: ChainCatalogSnapshot) => {
      const asked: string[] = [];
      bus.subscribe(subject, (m) => (asked.push(subject), m.respond?.(encodeReply(answer))));
      return asked;
    };

    it('asks the v2 subject, and not v1, when quote-builder answers it', async () => {
      const v2 = serve(Subjects.catalogSnapshot, snapshot('v1', 'NEW'));
      const v1 = serve(Subjects.registrySnapshot, snapshot('v1', 'OLD'));
      const mirror = new ChainCatalogMirror(new MessagingClient(bus, { timeoutMs: 1_000 }));
      expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('NEW');
      expect({ v2, v1 }).toEqual({ v2: [Subjects.catalogSnapshot], v1: [] });
    });

    it('asks v1 (registrySnapshot) when only a quote-builder of the previous release answers', async () => {
      const v1 = serve(Subjects.registrySnapshot, snapshot('v1', 'OLD'));
      const mirror = new ChainCatalogMirror(new MessagingClient(bus, { timeoutMs: 1_000 }));
      expect((await mirror.tokensOf('sonic'))[0].symbol).toBe('OLD');
      expect(v1).toHaveLength(1);
    });

    it('fails as the v2 request did (503) when neither name is answered', async () => {
      const mirror = new ChainCatalogMirror(new MessagingClient(bus, { timeoutMs: 1_000 }));
      const error = await mirror.tokensOf('sonic').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).getStatus()).toBe(503);
    });

    it('takes the change event under both names', () => {
      const patterns = Reflect.getMetadata(PATTERN_METADATA, ChainCatalogMirrorEvents.prototype.changed) as string[];
      expect(patterns).toEqual([Events.catalogChanged, Events.registryChanged]);
      expect({ catalogChanged: Events.catalogChanged, catalogSnapshot: Subjects.catalogSnapshot }).toEqual({
        catalogChanged: 'quote-builder.catalog.changed.v2',
        catalogSnapshot: 'quote-builder.catalog.snapshot.v2',
      });
    });
  });
});
