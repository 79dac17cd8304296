import { AppError, type PartnerFee } from '@swap/contracts';

/**
 * The fee a partner takes from an input (spec: PartnerFee): `amount` wins over
 * `percentage` (basis points out of 10 000, rounded down); no object, no fee. The fee must
 * leave something to swap.
 */
export function partnerFeeOf(amount: bigint, fee: PartnerFee | undefined, field = 'partnerFee'): bigint {
  if (!fee) return 0n;
  let value: bigint;
  if (fee.amount !== undefined) value = BigInt(fee.amount);
  else if (fee.percentage !== undefined) value = (amount * BigInt(fee.percentage)) / 10_000n;
  else throw AppError.validation([{ field, rule: 'amountOrPercentage', message: `${field} must set amount or percentage` }]);
  if (value >= amount) {
    throw AppError.validation([{ field: `${field}.amount`, rule: 'belowInput', message: `${field} must be less than the input amount (${value} ≥ ${amount})` }]);
  }
  return value;
}
