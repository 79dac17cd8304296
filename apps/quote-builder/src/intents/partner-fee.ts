import { AppError, type PartnerFee } from '@swap/contracts';

/**
 * The fee a partner takes from an input (spec: PartnerFee): `amount` wins over
 * `percentage` (basis points out of 10 000, rounded down); no object, no fee. The fee must
 * leave something to swap.
 */
export function partnerFeeOf(amount: bigint, fee: PartnerFee | undefined, fields: { fee: string; amount: string } = { fee: 'partnerFee', amount: 'partnerFee.amount' }): bigint {
  if (!fee) return 0n;
  let value: bigint;
  if (fee.amount !== undefined) value = BigInt(fee.amount);
  else if (fee.percentage !== undefined) value = (amount * BigInt(fee.percentage)) / 10_000n;
  else throw AppError.validation([{ field: fields.fee, rule: 'amountOrPercentage', message: `${fields.fee} must set amount or percentage` }]);
  if (value >= amount) {
    throw AppError.validation([{ field: fields.amount, rule: 'belowInput', message: `${fields.fee === 'partnerFee' ? 'partnerFee' : 'the partner fee'} must be less than the input amount (${value} ≥ ${amount})` }]);
  }
  return value;
}
