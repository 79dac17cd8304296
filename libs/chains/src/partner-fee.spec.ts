import { AppError } from '@swap/contracts';
import { partnerFeeOn, partnerFeeQuote } from './partner-fee';

const address = '0x000000000000000000000000000000000000fEe5';

describe('partnerFeeOn', () => {
  it('applies no fee when there is no partnerFee object', () => {
    expect(partnerFeeOn(1_000_000n, undefined)).toBe(0n);
  });

  it('takes basis points of the amount, rounded down', () => {
    expect(partnerFeeOn(1_000_000n, { address, percentage: 10 })).toBe(1_000n);
    expect(partnerFeeOn(999n, { address, percentage: 100 })).toBe(9n);
  });

  it('lets a fixed amount win over a percentage', () => {
    expect(partnerFeeOn(1_000_000n, { address, percentage: 100, amount: '7' })).toBe(7n);
  });

  it('refuses a fee that leaves nothing to swap, or an object with neither', () => {
    expect(() => partnerFeeOn(100n, { address, amount: '100' })).toThrow(AppError);
    expect(() => partnerFeeOn(100n, { address })).toThrow('partnerFee must set amount or percentage');
  });
});

describe('partnerFeeQuote', () => {
  it('takes the fee given, else the deployment’s, else none, naming the fields of its source', () => {
    expect(partnerFeeQuote('1000000', { address, percentage: 10 }, { address, amount: '5' })).toEqual({
      amount: '1000000',
      fee: '1000',
      inputAmount: '999000',
      partnerFee: { address, percentage: 10 },
    });
    expect(partnerFeeQuote('1000000', undefined, { address, amount: '5' })).toEqual({
      amount: '1000000',
      fee: '5',
      inputAmount: '999995',
      partnerFee: { address, amount: '5' },
    });
    expect(partnerFeeQuote('1000000', undefined, null)).toEqual({ amount: '1000000', fee: '0', inputAmount: '1000000', partnerFee: null });
    expect(() => partnerFeeQuote('5', { address, amount: '5' }, null)).toThrow(
      'the partner fee must be less than the input amount (5 ≥ 5)',
    );
  });
});
