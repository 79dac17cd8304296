import { AppError, type PartnerFee, type PartnerFeeResponse } from '@swap/contracts';

/** Spec: PartnerFee. `amount` wins over `percentage` (basis points, rounded down); it must leave something to swap. */
export function partnerFeeOn(
  amount: bigint,
  fee: PartnerFee | undefined,
  fields: { fee: string; amount: string } = { fee: 'partnerFee', amount: 'partnerFee.amount' },
): bigint {
  if (!fee) return 0n;
  let value: bigint;
  if (fee.amount !== undefined) value = BigInt(fee.amount);
  else if (fee.percentage !== undefined) value = (amount * BigInt(fee.percentage)) / 10_000n;
  else
    throw AppError.validation([{ field: fields.fee, rule: 'amountOrPercentage', message: `${fields.fee} must set amount or percentage` }]);
  if (value >= amount) {
    throw AppError.validation([
      {
        field: fields.amount,
        rule: 'belowInput',
        message: `${fields.fee === 'partnerFee' ? 'partnerFee' : 'the partner fee'} must be less than the input amount (${value} ≥ ${amount})`,
      },
    ]);
  }
  return value;
}

/** `GET /fees/partner`: the query's fee, else the deployment's (`setting`_*: PARTNER_FEE, VAULT_PARTNER_FEE), else none. */
export function partnerFeeQuote(
  amountText: string,
  given: PartnerFee | undefined,
  configured: PartnerFee | null,
  setting = 'PARTNER_FEE',
): PartnerFeeResponse {
  const partnerFee = given ?? configured ?? undefined;
  const amount = BigInt(amountText);
  const fee = partnerFeeOn(
    amount,
    partnerFee,
    given ? { fee: 'feeAddress', amount: 'feeAmount' } : { fee: setting, amount: `${setting}_AMOUNT` },
  );
  return { amount: amount.toString(), fee: fee.toString(), inputAmount: (amount - fee).toString(), partnerFee: partnerFee ?? null };
}

/** `GET /fees/solver`: the solvers' fee on an input amount, as the public client's getSolverFee computes it. */
export function solverFeeQuote(amountText: string, feeBps: number): { amount: string; fee: string; feeBps: number } {
  const amount = BigInt(amountText);
  return { amount: amount.toString(), fee: ((amount * BigInt(feeBps)) / 10_000n).toString(), feeBps };
}
