/** A bigint count of 10^-18 USD: no floating point, so a price comes back out exactly as it went in. */
export const PRICE_DECIMALS = 18;
const SCALE = 10n ** BigInt(PRICE_DECIMALS);
const DECIMAL = /^(0|[1-9]\d{0,19})(?:\.(\d{1,18}))?$/;

export type Price = bigint;

/** Prices must stay below 10^20 USD: the table keeps NUMERIC(38,18). */
export const MAX_PRICE: Price = 10n ** 20n * SCALE;

export class PriceFormatError extends Error {}

/** "3021.45" → 3021450000000000000000n. Positive, at most 18 decimals, no exponent or sign. */
export function parsePrice(text: string): Price {
  const match = DECIMAL.exec(text);
  if (!match) throw new PriceFormatError(`not a decimal price with at most ${PRICE_DECIMALS} decimals: ${JSON.stringify(text)}`);
  const whole = BigInt(match[1]);
  const fraction = BigInt((match[2] ?? '').padEnd(PRICE_DECIMALS, '0'));
  return whole * SCALE + fraction;
}

/** The shortest exact decimal: 3021450000000000000000n → "3021.45", 1000000000000000000n → "1". */
export function formatPrice(price: Price): string {
  const whole = price / SCALE;
  const fraction = (price % SCALE).toString().padStart(PRICE_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** Pyth's mantissa and exponent ("6140993501000", -8). */
export function priceFromMantissa(mantissa: string, expo: number): Price {
  if (!/^\d{1,40}$/.test(mantissa))
    throw new PriceFormatError(`price mantissa must be a non-negative integer: ${JSON.stringify(mantissa)}`);
  if (!Number.isInteger(expo) || Math.abs(expo) > 30) throw new PriceFormatError(`price exponent must be an integer within ±30: ${expo}`);
  const shift = PRICE_DECIMALS + expo;
  if (shift < 0) {
    // More precision than we keep: drop the extra digits (truncation toward zero).
    return BigInt(mantissa) / 10n ** BigInt(-shift);
  }
  return BigInt(mantissa) * 10n ** BigInt(shift);
}

export function priceToNumericText(price: Price): string {
  return `${price / SCALE}.${(price % SCALE).toString().padStart(PRICE_DECIMALS, '0')}`;
}
