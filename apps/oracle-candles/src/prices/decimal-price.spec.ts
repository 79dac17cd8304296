import { formatPrice, parsePrice, PriceFormatError, priceFromMantissa, priceToNumericText } from './decimal-price';
import { bucketsInRange, bucketStart } from './intervals';

describe('exact decimal prices', () => {
  it.each(['1', '0.5', '3021.45', '0.000000000000000001', '123456789.123456789012345678', '99999999999999999999.999999999999999999'])(
    'round-trips %s exactly',
    (text) => {
      expect(formatPrice(parsePrice(text))).toBe(text);
      // As a NUMERIC literal: all 18 places, the same digits.
      expect(priceToNumericText(parsePrice(text))).toMatch(/^\d+\.\d{18}$/);
      expect(formatPrice(parsePrice(priceToNumericText(parsePrice(text)).replace(/\.?0+$/, '')))).toBe(text);
    },
  );

  it('canonicalises trailing zeros', () => {
    expect(formatPrice(parsePrice('3021.4500'))).toBe('3021.45');
    expect(formatPrice(parsePrice('7.000'))).toBe('7');
  });

  it.each(['', '-1', '+1', '1e5', '.5', '1.', '01', '1.0000000000000000001', 'NaN', '1,5'])('refuses %j', (text) => {
    expect(() => parsePrice(text)).toThrow(PriceFormatError);
  });

  it('compares without floating point error', () => {
    expect(parsePrice('0.1') + parsePrice('0.2')).toBe(parsePrice('0.3'));
  });

  it('converts Pyth mantissa and exponent exactly', () => {
    expect(formatPrice(priceFromMantissa('6140993501000', -8))).toBe('61409.93501');
    expect(formatPrice(priceFromMantissa('1', -18))).toBe('0.000000000000000001');
    expect(formatPrice(priceFromMantissa('123', 2))).toBe('12300');
    expect(formatPrice(priceFromMantissa('123456', -20))).toBe('0.000000000000001234');
  });
});

describe('bucket arithmetic', () => {
  it('aligns buckets to UNIX time', () => {
    expect(bucketStart(1_700_000_059, 60)).toBe(1_699_999_980 + 60);
    expect(bucketStart(86_399, 86_400)).toBe(0);
    expect(bucketStart(86_400, 86_400)).toBe(86_400);
  });

  it('counts the buckets that start inside [from, to)', () => {
    expect(bucketsInRange(0, 60, 60)).toBe(1);
    expect(bucketsInRange(0, 61, 60)).toBe(2);
    expect(bucketsInRange(1, 60, 60)).toBe(0);
    expect(bucketsInRange(1, 61, 60)).toBe(1);
    expect(bucketsInRange(0, 5000 * 60, 60)).toBe(5000);
    expect(bucketsInRange(0, 5000 * 60 + 1, 60)).toBe(5001);
    expect(bucketsInRange(100, 100, 60)).toBe(0);
    expect(bucketsInRange(200, 100, 60)).toBe(0);
  });
});
