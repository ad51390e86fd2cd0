import { describe, expect, it } from '@jest/globals';
import { BillingError } from '../errors.ts';
import { Decimal, divideRounded, formatUnits } from './decimal.ts';
import { InvalidAmountError } from './errors.ts';

function problemOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof InvalidAmountError ? e.problem : `not an InvalidAmountError: ${String(e)}`;
  }
  return undefined;
}

describe('divideRounded: half away from zero', () => {
  it.each([
    [5n, 10n, 1n],
    [15n, 10n, 2n],
    [25n, 10n, 3n],
    [-5n, 10n, -1n],
    [-15n, 10n, -2n],
    [-25n, 10n, -3n],
    [4n, 10n, 0n],
    [-4n, 10n, 0n],
    [6n, 10n, 1n],
    [-6n, 10n, -1n],
    [49n, 100n, 0n],
    [50n, 100n, 1n],
    [7n, 1n, 7n],
    [0n, 3n, 0n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [-2n, 3n, -1n],
    [5n, -10n, -1n],
  ])('%p / %p → %p', (n, d, q) => {
    expect(divideRounded(n, d)).toBe(q);
  });

  it('refuses a zero denominator', () => {
    expect(() => divideRounded(1n, 0n)).toThrow(RangeError);
  });
});

describe('Decimal.parse', () => {
  it('reads JSON numbers through their decimal text, not their binary value', () => {
    expect(Decimal.parse(0.1).toString()).toBe('0.1');
    expect(Decimal.parse(0.1).plus(0.2).toString()).toBe('0.3');
    expect(Decimal.parse(1.005).toString()).toBe('1.005');
    expect(Decimal.parse(-0).toString()).toBe('0');
    expect(Decimal.parse(1e-7).toString()).toBe('0.0000001');
    expect(Decimal.parse(123456789012345).toString()).toBe('123456789012345');
  });

  it('reads decimal strings, with exponents and trailing zeros', () => {
    expect(Decimal.parse('12.50')).toEqual(Decimal.of(125n, 1));
    expect(Decimal.parse('12.5000', { maxDecimals: 1 }).toString()).toBe('12.5');
    expect(Decimal.parse('-0.0001').toString()).toBe('-0.0001');
    expect(Decimal.parse('+3').toString()).toBe('3');
    expect(Decimal.parse('.5').toString()).toBe('0.5');
    expect(Decimal.parse('5.').toString()).toBe('5');
    expect(Decimal.parse('1.5e3').toString()).toBe('1500');
    expect(Decimal.parse('15E-1').toString()).toBe('1.5');
    expect(Decimal.parse('000123.4500').toString()).toBe('123.45');
    expect(Decimal.parse('0e999999999').isZero()).toBe(true);
    expect(Decimal.parse(10n).toString()).toBe('10');
  });

  it('refuses what is not a number', () => {
    for (const bad of [
      '',
      ' 1',
      '1 ',
      '1.2.3',
      'abc',
      '0x10',
      '1,5',
      '.',
      '-',
      'e5',
      '1e',
      NaN,
      Infinity,
      -Infinity,
      null,
      undefined,
      {},
      [],
      true,
    ]) {
      expect(problemOf(() => Decimal.parse(bad))).toBe('not_a_number');
    }
  });

  it('counts decimals after dropping trailing zeros', () => {
    expect(problemOf(() => Decimal.parse('1.23456', { maxDecimals: 4 }))).toBe('too_many_decimals');
    expect(problemOf(() => Decimal.parse(0.00001, { maxDecimals: 4 }))).toBe('too_many_decimals');
    expect(problemOf(() => Decimal.parse('1.2345', { maxDecimals: 4 }))).toBeUndefined();
    expect(problemOf(() => Decimal.parse('1.23450000', { maxDecimals: 4 }))).toBeUndefined();
    expect(problemOf(() => Decimal.parse('1.5', { maxDecimals: 0 }))).toBe('too_many_decimals');
  });

  it('refuses huge magnitudes before building them', () => {
    expect(problemOf(() => Decimal.parse('1e999999999'))).toBe('too_large');
    expect(problemOf(() => Decimal.parse('1e-999999999'))).toBe('too_many_decimals');
    expect(problemOf(() => Decimal.parse('1' + '0'.repeat(15)))).toBe('too_large');
    expect(problemOf(() => Decimal.parse('9'.repeat(15)))).toBeUndefined();
    expect(problemOf(() => Decimal.parse(1e21, { maxIntegerDigits: 22 }))).toBeUndefined();
  });

  it('fails as a 400 rest_invalid_param naming the parameter', () => {
    let error: unknown;
    try {
      Decimal.parse('1.23456', { maxDecimals: 4, param: 'quantity' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BillingError);
    const e = error as InvalidAmountError;
    expect(e.code).toBe('rest_invalid_param');
    expect(e.status).toBe(400);
    expect(e.param).toBe('quantity');
    expect(e.data).toEqual({
      params: { quantity: 'quantity must have at most 4 decimals.' },
      details: {
        quantity: { code: 'rest_invalid_param', message: 'quantity must have at most 4 decimals.', data: { reason: 'too_many_decimals' } },
      },
    });
  });
});

describe('Decimal arithmetic', () => {
  it('adds, subtracts and multiplies exactly', () => {
    const q = Decimal.parse('3.3333');
    expect(q.times('3').toString()).toBe('9.9999');
    expect(q.times('0.0003').toString()).toBe('0.00099999');
    expect(Decimal.parse('1.1').minus('1.10').isZero()).toBe(true);
    expect(Decimal.parse('-2.5').abs().toString()).toBe('2.5');
    expect(Decimal.parse('-2.5').negate().sign()).toBe(1);
  });

  it('compares across scales', () => {
    expect(Decimal.parse('1.50').equals('1.5')).toBe(true);
    expect(Decimal.parse('1.05').compare('1.5')).toBe(-1);
    expect(Decimal.parse('-1').compare('-1.0001')).toBe(1);
  });

  it('rounds half away from zero', () => {
    expect(Decimal.parse('2.5').roundTo(0).toString()).toBe('3');
    expect(Decimal.parse('-2.5').roundTo(0).toString()).toBe('-3');
    expect(Decimal.parse('1.005').roundTo(2).toString()).toBe('1.01');
    expect(Decimal.parse('-1.005').roundTo(2).toString()).toBe('-1.01');
    expect(Decimal.parse('1.0049').roundTo(2).toString()).toBe('1');
    expect(Decimal.parse('0.0005').toFixed(3)).toBe('0.001');
    expect(Decimal.parse('12.3').toFixed(2)).toBe('12.30');
    expect(Decimal.parse('7').toFixed(0)).toBe('7');
  });

  it('formats minor units', () => {
    expect(formatUnits(5n, 2)).toBe('0.05');
    expect(formatUnits(-5n, 3)).toBe('-0.005');
    expect(formatUnits(123456n, 0)).toBe('123456');
    expect(formatUnits(0n, 2)).toBe('0.00');
  });
});
