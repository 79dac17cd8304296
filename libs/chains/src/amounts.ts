import type { TokenInfo } from './chain-registry';

/**
 * Moves an amount between two decimal scales. Going up is exact; going down drops the
 * digits the smaller scale cannot hold, rounding down, or up where a minimum must not be
 * weakened (`round: 'up'`).
 */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number, round: 'down' | 'up' = 'down'): bigint {
  if (toDecimals === fromDecimals) return amount;
  if (toDecimals > fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  const unit = 10n ** BigInt(fromDecimals - toDecimals);
  const down = amount / unit;
  return round === 'up' && down * unit !== amount ? down + 1n : down;
}

/** The hub asset's decimals of a token (the same as the token's unless the profile says otherwise). */
export function hubDecimalsOf(token: TokenInfo): number {
  return token.hubDecimals ?? token.decimals;
}

/** A token amount (its own smallest unit) in its hub asset's smallest unit. */
export function toHubAmount(amount: bigint, token: TokenInfo, round: 'down' | 'up' = 'down'): bigint {
  return rescale(amount, token.decimals, hubDecimalsOf(token), round);
}

/** A hub-asset amount in the token's own smallest unit (rounded down: never promise more than arrives). */
export function fromHubAmount(amount: bigint, token: TokenInfo): bigint {
  return rescale(amount, hubDecimalsOf(token), token.decimals, 'down');
}

/** The amount less a slippage tolerance in basis points, rounded down. */
export function lessSlippage(amount: bigint, slippageBps: number): bigint {
  return (amount * BigInt(10_000 - slippageBps)) / 10_000n;
}
