/** A token's decimals and its hub asset's, where they differ (a TokenInfo is one). */
export interface TokenDecimals {
  decimals: number;
  hubDecimals?: number;
}

/** Going down rounds down, or up (`round: 'up'`) where a minimum must not be weakened. */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number, round: 'down' | 'up' = 'down'): bigint {
  if (toDecimals === fromDecimals) return amount;
  if (toDecimals > fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  const unit = 10n ** BigInt(fromDecimals - toDecimals);
  const down = amount / unit;
  return round === 'up' && down * unit !== amount ? down + 1n : down;
}

export function hubDecimalsOf(token: TokenDecimals): number {
  return token.hubDecimals ?? token.decimals;
}

export function toHubAmount(amount: bigint, token: TokenDecimals, round: 'down' | 'up' = 'down'): bigint {
  return rescale(amount, token.decimals, hubDecimalsOf(token), round);
}

/** Rounded down: never promise more than arrives. */
export function fromHubAmount(amount: bigint, token: TokenDecimals): bigint {
  return rescale(amount, hubDecimalsOf(token), token.decimals, 'down');
}

export function lessSlippage(amount: bigint, slippageBps: number): bigint {
  return (amount * BigInt(10_000 - slippageBps)) / 10_000n;
}
