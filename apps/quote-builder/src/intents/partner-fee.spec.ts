import { AppError } from '@swap/contracts';
import { partnerFeeOf } from './partner-fee';

const address = '0x000000000000000000000000000000000000fEe5';

describe('partnerFeeOf', () => {
  it('applies no fee when there is no partnerFee object', () => {
    expect(partnerFeeOf(1_000_000n, undefined)).toBe(0n);
  });

  it('takes basis points of the amount, rounded down', () => {
    expect(partnerFeeOf(1_000_000n, { address, percentage: 10 })).toBe(1_000n);
    expect(partnerFeeOf(999n, { address, percentage: 100 })).toBe(9n);
  });

  it('lets a fixed amount win over a percentage', () => {
    expect(partnerFeeOf(1_000_000n, { address, percentage: 100, amount: '7' })).toBe(7n);
  });

  it('refuses a fee that leaves nothing to swap, or an object with neither', () => {
    expect(() => partnerFeeOf(100n, { address, amount: '100' })).toThrow(AppError);
    expect(() => partnerFeeOf(100n, { address })).toThrow('partnerFee must set amount or percentage');
  });
});
