import { AppError } from '@swap/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsNumberString, Max, Min, ValidateNested, validateSync } from 'class-validator';
import { toViolations } from './validation';

class Fee {
  @IsInt({ message: 'partnerFee.percentage must be an integer' })
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
  it('names an unknown nested field by its path once', () => {
    const violations = toViolations([
      {
        property: 'tx',
        children: [{ property: 'extra', constraints: { whitelistValidation: 'property extra should not exist' }, children: [] }],
        constraints: {},
      },
    ]);
    expect(violations).toEqual([{ field: 'tx.extra', rule: 'whitelistValidation', message: 'property tx.extra should not exist' }]);
  });

  it('names each field (nested ones by path) and the rule it broke', () => {
    const body = Object.assign(new Body(), { amount: '1e5', partnerFee: Object.assign(new Fee(), { percentage: 101 }) });
    const violations = toViolations(validateSync(body));
    expect(violations).toEqual([
      { field: 'amount', rule: 'isNumberString', message: 'amount must be a number string' },
      { field: 'partnerFee.percentage', rule: 'max', message: 'partnerFee.percentage must not be greater than 100' },
    ]);
    expect(
      toViolations(validateSync(Object.assign(new Body(), { amount: '1', partnerFee: Object.assign(new Fee(), { percentage: 1.5 }) }))),
    ).toEqual([{ field: 'partnerFee.percentage', rule: 'isInt', message: 'partnerFee.percentage must be an integer' }]);
    const error = AppError.validation(violations);
    expect(error.getStatus()).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toBe('amount must be a number string; partnerFee.percentage must not be greater than 100');
  });
});
