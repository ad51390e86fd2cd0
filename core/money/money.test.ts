import { describe, expect, it } from '@jest/globals';
import { CurrencyMismatchError, InvalidAmountError } from './errors.ts';
import { Money } from './money.ts';

const usd = (v: number | string) => Money.parse(v, 'USD');

describe('Money.parse', () => {
  it("reads amounts exactly, at most the currency's decimals", () => {
    expect(usd(12.3).minor).toBe(1230n);
    expect(usd('12.3000').minor).toBe(1230n);
    expect(usd(0.1).plus(usd(0.2)).equals(usd(0.3))).toBe(true);
    expect(Money.parse(1000, 'JPY').minor).toBe(1000n);
    expect(Money.parse('1.234', 'KWD').minor).toBe(1234n);
    expect(Money.parse('0.0001', 'CLF').minor).toBe(1n);
  });

  it('refuses finer amounts with a message naming the currency', () => {
    expect(() => usd('12.345')).toThrow('amount must have at most 2 decimals in USD.');
    expect(() => Money.parse(10.5, 'JPY', 'discount')).toThrow('discount must be a whole number in JPY.');
    expect(() => Money.parse('1.2345', 'KWD')).toThrow(InvalidAmountError);
  });

  it('refuses unknown currencies and amounts beyond exact JSON numbers', () => {
    expect(() => Money.parse(1, 'usd' as never)).toThrow(InvalidAmountError);
    expect(() => usd('10000000000000.00')).toThrow('amount is too large.');
    expect(usd('9999999999999.99').toNumber()).toBe(9999999999999.99);
  });
});

describe('Money rounding: half away from zero to the minor unit', () => {
  it.each([
    ['USD', '1.005', '1.01'],
    ['USD', '1.015', '1.02'],
    ['USD', '1.0049', '1.00'],
    ['USD', '-1.005', '-1.01'],
    ['USD', '2.675', '2.68'],
    ['USD', '-0.005', '-0.01'],
    ['USD', '0.004', '0.00'],
    ['JPY', '0.5', '1'],
    ['JPY', '1.5', '2'],
    ['JPY', '2.5', '3'],
    ['JPY', '-2.5', '-3'],
    ['JPY', '-0.4999', '0'],
    ['KWD', '0.0005', '0.001'],
    ['KWD', '1.2345', '1.235'],
    ['KWD', '-1.2345', '-1.235'],
    ['KWD', '1.23449', '1.234'],
    ['BHD', '9.9995', '10.000'],
  ] as const)('%s %s → %s', (currency, value, expected) => {
    expect(Money.fromDecimal(value, currency).toString()).toBe(expected);
  });

  it('multiplies by an exact quantity and rounds once', () => {
    expect(usd('0.10').times('3.3333').toString()).toBe('0.33');
    expect(usd('19.99').times(3).toString()).toBe('59.97');
    expect(usd('0.05').times('0.5').toString()).toBe('0.03');
    expect(usd('-0.05').times('0.5').toString()).toBe('-0.03');
    expect(Money.parse(333, 'JPY').times('1.5').toString()).toBe('500');
  });

  it('takes percentages half away from zero', () => {
    expect(usd('0.15').percent(10).toString()).toBe('0.02');
    expect(usd('33.33').percent(10).toString()).toBe('3.33');
    expect(usd('100').percent('12.345').toString()).toBe('12.35');
    expect(Money.parse('1.005', 'KWD').percent(50).toString()).toBe('0.503');
  });
});

describe('Money arithmetic and comparison', () => {
  it('adds, subtracts, compares', () => {
    const a = usd('10.10');
    const b = usd('0.20');
    expect(a.plus(b).toString()).toBe('10.30');
    expect(b.minus(a).toString()).toBe('-9.90');
    expect(b.minus(a).isNegative()).toBe(true);
    expect(a.compare(b)).toBe(1);
    expect(b.compare(a)).toBe(-1);
    expect(a.compare(usd('10.1'))).toBe(0);
    expect(a.greaterThan(b) && b.lessThan(a) && a.greaterThanOrEqual(a) && a.lessThanOrEqual(a)).toBe(true);
    expect(Money.max(a, b)).toBe(a);
    expect(Money.min(a, b)).toBe(b);
    expect(Money.sum([a, b, b], 'USD').toString()).toBe('10.50');
    expect(Money.sum([], 'JPY').isZero()).toBe(true);
    expect(b.negate().abs().equals(b)).toBe(true);
  });

  it('never mixes currencies', () => {
    const eur = Money.parse(1, 'EUR');
    expect(() => usd(1).plus(eur)).toThrow(CurrencyMismatchError);
    expect(() => usd(1).compare(eur)).toThrow(CurrencyMismatchError);
    expect(usd(1).equals(eur)).toBe(false);
  });

  it('writes amounts for JSON at the minor unit', () => {
    expect(usd('12.30').toNumber()).toBe(12.3);
    expect(usd('12.30').toString()).toBe('12.30');
    expect(JSON.stringify({ total: usd('0.07') })).toBe('{"total":0.07}');
    expect(Money.parse(1500, 'JPY').toString()).toBe('1500');
    expect(Money.parse('0.125', 'KWD').toNumber()).toBe(0.125);
    expect(Money.fromMinor(-5, 'BHD').toString()).toBe('-0.005');
    expect(Money.fromMinor(1234n, 'USD').toDecimal().toString()).toBe('12.34');
    expect(() => Money.fromMinor(0.5, 'USD')).toThrow(RangeError);
  });
});

describe('Money.allocate', () => {
  it('splits by largest remainder so the shares sum exactly', () => {
    expect(usd('1.00').allocate([1, 1, 1]).map(String)).toEqual(['0.34', '0.33', '0.33']);
    expect(usd('0.05').allocate([1, 1, 1, 1, 1, 1]).map(String)).toEqual(['0.01', '0.01', '0.01', '0.01', '0.01', '0.00']);
    expect(
      usd('10.00')
        .allocate([usd('1.00'), usd('2.00'), usd('0')])
        .map(String),
    ).toEqual(['3.33', '6.67', '0.00']);
    expect(usd('100').allocate(['0.5', '0.25', '0.25']).map(String)).toEqual(['50.00', '25.00', '25.00']);
    expect(Money.parse(100, 'JPY').allocate([3, 3, 1]).map(String)).toEqual(['43', '43', '14']);
    expect(usd('-1.00').allocate([1, 1, 1]).map(String)).toEqual(['-0.34', '-0.33', '-0.33']);
  });

  it('refuses negative weights and a non-zero amount over zero weights', () => {
    expect(() => usd(1).allocate([1, -1])).toThrow(RangeError);
    expect(() => usd(1).allocate([0, 0])).toThrow(RangeError);
    expect(usd(0).allocate([0, 0]).map(String)).toEqual(['0.00', '0.00']);
    expect(() => usd(1).allocate([Money.parse(1, 'EUR')])).toThrow(CurrencyMismatchError);
  });
});
