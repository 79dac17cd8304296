import { outputFor, priceOf, usdValue } from './pricing';

describe('reference solver pricing (exact fixed point)', () => {
  const usdc = { decimals: 6, price: priceOf('1') };
  const weth = { decimals: 18, price: priceOf('3000') };

  it('reads decimal prices exactly', () => {
    expect(priceOf('3021.45')).toBe(3_021_450_000_000_000_000_000n);
    expect(priceOf('0.000000000000000001')).toBe(1n);
  });

  it('converts between decimals at the prices, less the spread', () => {
    // 3 000 USDC at $1 buys 1 WETH at $3 000; a 30 bps spread keeps 0.997 of it.
    expect(outputFor(3_000_000_000n, usdc, weth, 0)).toBe(10n ** 18n);
    expect(outputFor(3_000_000_000n, usdc, weth, 30)).toBe(997n * 10n ** 15n);
    // 1 WETH buys 3 000 USDC, less 45 bps: 2 986.5 USDC.
    expect(outputFor(10n ** 18n, weth, usdc, 45)).toBe(2_986_500_000n);
  });

  it('rounds down, so it never promises more than the prices give', () => {
    expect(outputFor(1n, usdc, weth, 0)).toBe(333_333_333n); // 1e-6 USDC = 3.33e-10 WETH
    expect(outputFor(1n, weth, usdc, 0)).toBe(0n);
  });

  it('values amounts in whole dollars', () => {
    expect(usdValue(2n * 10n ** 18n, weth)).toBe(6_000n);
    expect(usdValue(999_999n, usdc)).toBe(0n);
  });
});
