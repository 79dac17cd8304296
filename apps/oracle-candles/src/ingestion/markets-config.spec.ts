import { loadChainDirectory } from '@swap/chains';
import { loadMarketsConfig, type MarketsConfig } from './markets-config';

/** The price symbol a client reads for a token, whatever its network or wrapped form (WETH → ETH). */
function priceSymbolOf(tokenSymbol: string, config: MarketsConfig): string | undefined {
  const symbol = config.aliases[tokenSymbol] ?? tokenSymbol;
  return config.symbols[symbol] ? symbol : undefined;
}

describe('price symbols', () => {
  const config = loadMarketsConfig();

  it('map every token of the mainnet directory, on every network, to one configured symbol', () => {
    const directory = loadChainDirectory('mainnet');
    const unmapped = Object.values(directory.tokensByChain())
      .flat()
      .filter((t) => priceSymbolOf(t.symbol, config) === undefined)
      .map((t) => `${t.chainKey}:${t.symbol}`);
    expect(unmapped).toEqual([]);
  });

  it('merge wrapped and bridged forms into one asset', () => {
    expect(['ETH', 'WETH', 'ETHB', 'rETH'].map((s) => priceSymbolOf(s, config))).toEqual(['ETH', 'ETH', 'ETH', 'ETH']);
    expect(['USDC', 'USDC.e'].map((s) => priceSymbolOf(s, config))).toEqual(['USDC', 'USDC']);
    expect(priceSymbolOf('wstETH', config)).toBe('wstETH');
  });

  it('gives every symbol a valid simulated starting price', () => {
    for (const [symbol, market] of Object.entries(config.symbols))
      expect({ symbol, ok: /^\d+(\.\d+)?$/.test(market.simulatedStart) }).toEqual({ symbol, ok: true });
  });
});
