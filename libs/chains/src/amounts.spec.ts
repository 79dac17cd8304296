import { fromHubAmount, lessSlippage, rescale, toHubAmount } from './amounts';
import type { TokenInfo } from './chain-directory';

const token = (decimals: number, hubDecimals?: number): TokenInfo => ({
  symbol: 'T',
  name: 'T',
  decimals,
  address: '0x1',
  chainKey: 'x',
  hubAsset: '0x2',
  vault: '0x3',
  hubDecimals,
});

describe('amounts between a token and its hub asset', () => {
  it('scales up exactly and down rounding down, or up where a minimum must hold', () => {
    expect(rescale(1_500_000n, 6, 18)).toBe(1_500_000_000_000_000_000n);
    expect(rescale(1_500_000_000_000_000_001n, 18, 6)).toBe(1_500_000n);
    expect(rescale(1_500_000_000_000_000_001n, 18, 6, 'up')).toBe(1_500_001n);
    expect(rescale(1_500_000_000_000_000_000n, 18, 6, 'up')).toBe(1_500_000n);
    expect(rescale(42n, 9, 9)).toBe(42n);
  });

  it('converts with the hub asset’s decimals where they differ, and not at all where they agree', () => {
    const usdcOn18 = token(6, 18);
    expect(toHubAmount(2_500_000n, usdcOn18)).toBe(2_500_000_000_000_000_000n);
    expect(fromHubAmount(2_499_999_999_999_999_999n, usdcOn18)).toBe(2_499_999n);
    expect(toHubAmount(777n, token(6))).toBe(777n);
    expect(toHubAmount(777n, token(6, 6))).toBe(777n);
    // A hub asset with fewer decimals (NEAR's 24 on the spoke, say) rounds a minimum up.
    expect(toHubAmount(10n ** 24n + 1n, token(24, 18), 'up')).toBe(10n ** 18n + 1n);
  });

  it('takes the slippage tolerance off, rounding down', () => {
    expect(lessSlippage(1_000_000n, 50)).toBe(995_000n);
    expect(lessSlippage(999n, 50)).toBe(994n);
    expect(lessSlippage(1_000n, 0)).toBe(1_000n);
  });
});
