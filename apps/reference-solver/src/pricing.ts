import { parseUnits } from 'viem';

/** USD prices as fixed-point integers with 18 decimals: exact, never floats. */
export const PRICE_DECIMALS = 18;
const PRICE_ONE = 10n ** BigInt(PRICE_DECIMALS);

export function priceOf(text: string): bigint {
  return parseUnits(text, PRICE_DECIMALS);
}

export interface Side {
  decimals: number;
  /** USD per whole token, 18-decimal fixed point. */
  price: bigint;
}

/** Less the spread, rounded down in one division (no intermediate rounding). */
export function outputFor(amountIn: bigint, input: Side, output: Side, spreadBps: number): bigint {
  if (input.price <= 0n || output.price <= 0n) return 0n;
  const numerator = amountIn * input.price * 10n ** BigInt(output.decimals) * BigInt(10_000 - spreadBps);
  const denominator = 10n ** BigInt(input.decimals) * output.price * 10_000n;
  return numerator / denominator;
}

/** Whole dollars, rounded down. */
export function usdValue(amount: bigint, side: Side): bigint {
  return (amount * side.price) / 10n ** BigInt(side.decimals) / PRICE_ONE;
}
