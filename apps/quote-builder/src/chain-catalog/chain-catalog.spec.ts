import { loadConfig } from '@swap/config';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { ChainCatalog } from './chain-catalog';

describe('RPC endpoints from configuration', () => {
  it('puts CHAIN_RPC_URLS before the profile’s endpoints, and refuses an unknown chain', () => {
    const config = loadConfig(QuoteBuilderConfig, {
      CHAIN_RPC_URLS: '0xa4b1.arbitrum=https://arb.example/rpc,sonic=https://sonic.example',
    });
    const catalog = new ChainCatalog(config);
    expect(catalog.chains.findChain('0xa4b1.arbitrum')!.rpcUrls).toEqual(['https://arb.example/rpc']);
    expect(catalog.chains.hub.rpcUrls).toEqual(['https://sonic.example']);
    expect(() => new ChainCatalog(loadConfig(QuoteBuilderConfig, { CHAIN_RPC_URLS: 'nowhere=https://x.example' }))).toThrow(
      'CHAIN_RPC_URLS names an unknown chain: nowhere',
    );
    expect(() => loadConfig(QuoteBuilderConfig, { CHAIN_RPC_URLS: 'sonic' })).toThrow(/CHAIN_RPC_URLS must be a list/);
  });
});
