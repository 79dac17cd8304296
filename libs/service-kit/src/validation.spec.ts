import { AppError } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsNumberString, Max, Min, ValidateNested, validateSync } from 'class-validator';
import { toViolations } from './validation';

class Fee {
  @IsInt()
  @Min(1)
  @Max(100)
  percentage!: number;
}

class Body {
  @IsNumberString({ no_symbols: true })
  amount!: string;

  @ValidateNested()
  @Type(() => Fee)
  partnerFee!: Fee;
}

describe('toViolations', () => {
  it('names each field (nested ones by path) and the rule it broke', () => {
    const body = Object.assign(new Body(), { amount: '1e5', partnerFee: Object.assign(new Fee(), { percentage: 101 }) });
    const violations = toViolations(validateSync(body));
    expect(violations).toEqual([
      { field: 'amount', rule: 'isNumberString', message: 'amount must be a number string' },
      { field: 'partnerFee.percentage', rule: 'max', message: 'partnerFee.percentage must not be greater than 100' },
    ]);
    const error = AppError.validation(violations);
    expect(error.getStatus()).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('amount must be a number string; partnerFee.percentage must not be greater than 100');
  });
});
