import { loadConfig } from '@swap/config';
import { QuoteBuilderConfig } from '../quote-builder.config';
import { RegistryService } from './registry.service';

describe('RPC endpoints from configuration', () => {
  it('puts CHAIN_RPC_URLS before the profile’s endpoints, and refuses an unknown chain', () => {
    const config = loadConfig(QuoteBuilderConfig, { CHAIN_RPC_URLS: '0xa4b1.arbitrum=https://arb.example/rpc,sonic=https://sonic.example' });
    const registry = new RegistryService(config);
    expect(registry.registry.findChain('0xa4b1.arbitrum')!.rpcUrls).toEqual(['https://arb.example/rpc']);
    expect(registry.registry.hub.rpcUrls).toEqual(['https://sonic.example']);
    expect(() => new RegistryService(loadConfig(QuoteBuilderConfig, { CHAIN_RPC_URLS: 'nowhere=https://x.example' }))).toThrow('CHAIN_RPC_URLS names an unknown chain: nowhere');
    expect(() => loadConfig(QuoteBuilderConfig, { CHAIN_RPC_URLS: 'sonic' })).toThrow(/CHAIN_RPC_URLS must be a list/);
  });
});
