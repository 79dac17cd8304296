import { loadConfig } from '@swap/config';
import { generateSigningKeyEnv, parsePublicKeys, SignatureCheck } from '@swap/messaging';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { ChainCatalog } from './chain-catalog';

const keys = generateSigningKeyEnv('CATALOG');

describe('RPC endpoints from configuration', () => {
  it('puts CHAIN_RPC_URLS before the profile’s endpoints, and refuses an unknown chain', () => {
    const config = loadConfig(QuoteBuilderConfig, {
      ...keys,
      CHAIN_RPC_URLS: '0xa4b1.arbitrum=https://arb.example/rpc,sonic=https://sonic.example',
    });
    const catalog = new ChainCatalog(config);
    expect(catalog.chains.findChain('0xa4b1.arbitrum')!.rpcUrls).toEqual(['https://arb.example/rpc']);
    expect(catalog.chains.hub.rpcUrls).toEqual(['https://sonic.example']);
    expect(() => new ChainCatalog(loadConfig(QuoteBuilderConfig, { ...keys, CHAIN_RPC_URLS: 'nowhere=https://x.example' }))).toThrow(
      'CHAIN_RPC_URLS names an unknown chain: nowhere',
    );
    expect(() => loadConfig(QuoteBuilderConfig, { ...keys, CHAIN_RPC_URLS: 'sonic' })).toThrow(/CHAIN_RPC_URLS must be a list/);
  });
});

describe('the snapshot on the bus', () => {
  it('is signed with CATALOG_SIGNING_KEY: its public half opens it to the very snapshot served', () => {
    const catalog = new ChainCatalog(loadConfig(QuoteBuilderConfig, keys));
    const opened = new SignatureCheck(parsePublicKeys(keys.CATALOG_PUBLIC_KEY)).open(JSON.parse(JSON.stringify(catalog.signedSnapshot)));
    expect(opened).toEqual(catalog.snapshot);
  });

  it('needs the key to start, and refuses a CATALOG_PUBLIC_KEY beside it that is not its half', () => {
    expect(() => loadConfig(QuoteBuilderConfig, {})).toThrow(
      /CATALOG_SIGNING_KEY is required: CATALOG_SIGNING_KEY must be an Ed25519 private key/,
    );
    expect(() =>
      loadConfig(QuoteBuilderConfig, { ...keys, CATALOG_PUBLIC_KEY: generateSigningKeyEnv('CATALOG').CATALOG_PUBLIC_KEY }),
    ).toThrow(/CATALOG_PUBLIC_KEY must be Ed25519 public keys .* that include the public half of CATALOG_SIGNING_KEY/);
  });
});
