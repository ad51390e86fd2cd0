import { describe, expect, it } from '@jest/globals';
import { BillingError } from '../errors.ts';
import { CurrencyMismatchError, DiscountExceedsSubtotalError, InvalidAmountError } from './errors.ts';
import { computeTotals, lineAmount, type LineInput } from './totals.ts';

const item = (quantity: number | string, price: number | string, taxable = true): LineInput => ({ quantity, price, taxable });

describe('computeTotals: line amounts', () => {
  it('rounds quantity × price half away from zero to the minor unit, per currency', () => {
    expect(lineAmount('3', '333.3333', 'JPY').toString()).toBe('1000'); // 999.9999
    expect(lineAmount('1.5', '25', 'JPY').toString()).toBe('38'); // 37.5
    expect(lineAmount('0.5', '0.01', 'USD').toString()).toBe('0.01'); // 0.005
    expect(lineAmount('2.5', '0.0001', 'USD').toString()).toBe('0.00'); // 0.00025
    expect(lineAmount('1.0001', '1.2345', 'KWD').toString()).toBe('1.235'); // 1.23462345
    expect(lineAmount('7', '0.1235', 'KWD').toString()).toBe('0.865'); // 0.8645
    expect(lineAmount('3', '0.0001', 'CLF').toString()).toBe('0.0003');
  });

  it('totals a JPY document with no decimals anywhere', () => {
    const t = computeTotals({ currency: 'JPY', items: [item(3, '333.3333'), item('0.5', 999)], taxRate: 10 });
    expect(t.json).toEqual({
      totals: { subtotal: 1500, discount: 0, tax: 150, total: 1650, paid: 0, credited: 0, due: 1650 },
      items: [{ amount: 1000 }, { amount: 500 }], // 999.9999 → 1000; 499.5 → 500
    });
  });

  it('totals a KWD document to three decimals', () => {
    const t = computeTotals({
      currency: 'KWD',
      items: [item(1, '1.2345'), item(3, '0.3333', false)],
      taxRate: 5,
      discount: { type: 'fixed', value: '0.101' },
    });
    // amounts 1.235 (1.2345) and 1.000 (0.9999); discount shares 0.056 / 0.045 (quotas 0.0559…, 0.0453…)
    expect(t.lines.map((l) => [l.amount.toString(), l.discount.toString()])).toEqual([
      ['1.235', '0.056'],
      ['1.000', '0.045'],
    ]);
    expect(t.taxableAmount.toString()).toBe('1.179');
    expect(t.tax.toString()).toBe('0.059'); // 0.05895
    expect(t.json.totals).toEqual({ subtotal: 2.235, discount: 0.101, tax: 0.059, total: 2.193, paid: 0, credited: 0, due: 2.193 });
  });
});

describe('computeTotals: discount', () => {
  it('splits a percent discount over three lines by largest remainder', () => {
    const t = computeTotals({
      currency: 'USD',
      items: [item(1, '10.00'), item(2, '10.00'), item(1, '3.33')],
      discount: { type: 'percent', value: 10 },
    });
    expect(t.subtotal.toString()).toBe('33.33');
    expect(t.discount.toString()).toBe('3.33'); // 3.333
    // quotas 0.9990…, 1.9981…, 0.3330…: floors 0.99 + 1.99 + 0.33 leave 0.02 for the two largest remainders
    expect(t.lines.map((l) => l.discount.toString())).toEqual(['1.00', '2.00', '0.33']);
    expect(t.total.toString()).toBe('30.00');
  });

  it('rounds a percent discount half away from zero', () => {
    expect(computeTotals({ currency: 'USD', items: [item(1, '0.25')], discount: { type: 'percent', value: 10 } }).discount.toString()).toBe(
      '0.03',
    );
    expect(computeTotals({ currency: 'USD', items: [item(1, '0.25')], discount: { type: 'percent', value: 100 } }).total.toString()).toBe(
      '0.00',
    );
    expect(computeTotals({ currency: 'JPY', items: [item(1, 25)], discount: { type: 'percent', value: '12.5' } }).discount.toString()).toBe(
      '3',
    );
  });

  it('splits a fixed discount exactly, ties going to taxable lines first', () => {
    const t = computeTotals({
      currency: 'USD',
      items: [item(1, 1, false), item(1, 1, true), item(1, 1, false)],
      discount: { type: 'fixed', value: '0.10' },
    });
    expect(t.lines.map((l) => l.discount.toString())).toEqual(['0.03', '0.04', '0.03']);
    const u = computeTotals({ currency: 'USD', items: [item(1, 1), item(1, 1), item(1, 1)], discount: { type: 'fixed', value: '0.10' } });
    expect(u.lines.map((l) => l.discount.toString())).toEqual(['0.04', '0.03', '0.03']);
  });

  it('allows a fixed discount equal to the subtotal, and no discount on an empty subtotal', () => {
    expect(computeTotals({ currency: 'USD', items: [item(2, '5.00')], discount: { type: 'fixed', value: 10 } }).total.toString()).toBe(
      '0.00',
    );
    const free = computeTotals({ currency: 'USD', items: [item(2, 0)], discount: { type: 'percent', value: 50 }, taxRate: 20 });
    expect(free.json.totals).toEqual({ subtotal: 0, discount: 0, tax: 0, total: 0, paid: 0, credited: 0, due: 0 });
  });

  it('refuses a fixed discount above the subtotal with a 400 rest_invalid_param on discount', () => {
    let error: unknown;
    try {
      computeTotals({ currency: 'USD', items: [item(1, '9.99')], discount: { type: 'fixed', value: 10 } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DiscountExceedsSubtotalError);
    expect(error).toBeInstanceOf(InvalidAmountError);
    expect(error).toBeInstanceOf(BillingError);
    const e = error as DiscountExceedsSubtotalError;
    expect(e.code).toBe('rest_invalid_param');
    expect(e.status).toBe(400);
    expect(e.message).toBe('The fixed discount (10.00 USD) is above the subtotal (9.99 USD).');
    expect(e.data.params).toEqual({ discount: e.message });
  });

  it('refuses malformed discounts', () => {
    const run = (discount: unknown) => () => computeTotals({ currency: 'USD', items: [item(1, 10)], discount: discount as never });
    expect(run({ type: 'amount', value: 1 })).toThrow('discount must be {"type": "percent" or "fixed", "value": number}.');
    expect(run({ type: 'percent', value: 100.5 })).toThrow('A percent discount must be at most 100.');
    expect(run({ type: 'percent', value: -1 })).toThrow('discount must not be negative.');
    expect(run({ type: 'percent', value: '1.23456' })).toThrow('discount must have at most 4 decimals.');
    expect(run({ type: 'fixed', value: '1.005' })).toThrow('discount must have at most 2 decimals in USD.');
    expect(run({ type: 'fixed', value: -1 })).toThrow('discount must not be negative.');
    expect(run({ type: 'fixed', value: 'ten' })).toThrow(InvalidAmountError);
  });
});

describe('computeTotals: tax', () => {
  it('taxes the taxable lines only, after their discount share', () => {
    const t = computeTotals({
      currency: 'EUR',
      items: [item(1, 100, true), item(1, 50, false)],
      discount: { type: 'percent', value: 10 },
      taxRate: 20,
    });
    expect(t.lines.map((l) => l.discount.toString())).toEqual(['10.00', '5.00']);
    expect(t.taxableAmount.toString()).toBe('90.00');
    expect(t.json.totals).toEqual({ subtotal: 150, discount: 15, tax: 18, total: 153, paid: 0, credited: 0, due: 153 });
  });

  it('rounds tax once for the document, not per line', () => {
    // per line: 0.005 → 0.01 each, 0.03 in all; once: 0.015 → 0.02
    const t = computeTotals({ currency: 'USD', items: [item(1, '0.05'), item(1, '0.05'), item(1, '0.05')], taxRate: 10 });
    expect(t.tax.toString()).toBe('0.02');
    expect(t.total.toString()).toBe('0.17');
  });

  it('takes fractional rates exactly', () => {
    expect(computeTotals({ currency: 'USD', items: [item(1, '19.99')], taxRate: 7.25 }).tax.toString()).toBe('1.45'); // 1.449275
    expect(computeTotals({ currency: 'USD', items: [item(1, '200')], taxRate: '0.0025' }).tax.toString()).toBe('0.01'); // 0.005
    expect(computeTotals({ currency: 'USD', items: [item(1, '10')] }).tax.isZero()).toBe(true);
  });

  it('refuses rates that are not percentages', () => {
    expect(() => computeTotals({ currency: 'USD', items: [item(1, 1)], taxRate: -1 })).toThrow('tax_rate must not be negative.');
    expect(() => computeTotals({ currency: 'USD', items: [item(1, 1)], taxRate: 101 })).toThrow('tax_rate must be at most 100.');
    expect(() => computeTotals({ currency: 'USD', items: [item(1, 1)], taxRate: '0.00001' })).toThrow(InvalidAmountError);
  });
});

describe('computeTotals: paid, credited, due', () => {
  it('counts completed payments less refunds, and credit notes', () => {
    const t = computeTotals({
      currency: 'USD',
      items: [item(1, 100)],
      taxRate: 10,
      payments: [
        { amount: '50.00', status: 'completed', refunded: '10.00' },
        { amount: 20, status: 'refunded', refunded: 20 },
        { amount: 30, status: 'pending' },
        { amount: 40, status: 'failed' },
        { amount: '5.5', status: 'completed', currency: 'USD' },
      ],
      creditNotes: [{ amount: '10.00' }, { amount: 4.5, currency: 'USD' }],
    });
    expect(t.json.totals).toEqual({ subtotal: 100, discount: 0, tax: 10, total: 110, paid: 45.5, credited: 14.5, due: 50 });
  });

  it('never lets due go below zero', () => {
    const t = computeTotals({
      currency: 'USD',
      items: [item(1, 10)],
      payments: [{ amount: 8, status: 'completed' }],
      creditNotes: [{ amount: 5 }],
    });
    expect(t.due.toString()).toBe('0.00');
    expect(t.paid.plus(t.credited).minus(t.total).toString()).toBe('3.00');
  });

  it('refuses foreign-currency records and impossible refunds', () => {
    expect(() =>
      computeTotals({ currency: 'USD', items: [item(1, 10)], payments: [{ amount: 1, status: 'completed', currency: 'EUR' }] }),
    ).toThrow(CurrencyMismatchError);
    expect(() => computeTotals({ currency: 'USD', items: [item(1, 10)], creditNotes: [{ amount: 1, currency: 'EUR' }] })).toThrow(
      CurrencyMismatchError,
    );
    expect(() =>
      computeTotals({ currency: 'USD', items: [item(1, 10)], payments: [{ amount: 1, status: 'completed', refunded: 2 }] }),
    ).toThrow(RangeError);
    expect(() => computeTotals({ currency: 'JPY', items: [item(1, 10)], payments: [{ amount: '1.5', status: 'completed' }] })).toThrow(
      'payments[0].amount must be a whole number in JPY.',
    );
  });
});

describe('computeTotals: item validation', () => {
  it('refuses unusable quantities and prices under the items parameter', () => {
    const run = (quantity: unknown, price: unknown) => () =>
      computeTotals({ currency: 'USD', items: [item(1, 1), { quantity, price, taxable: true } as LineInput] });
    const problem = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e instanceof InvalidAmountError ? [e.param, e.problem, e.message] : e;
      }
      return null;
    };
    expect(problem(run(0, 1))).toEqual(['items', 'not_positive', 'items[1].quantity must be greater than 0.']);
    expect(problem(run(-1, 1))).toEqual(['items', 'not_positive', 'items[1].quantity must be greater than 0.']);
    expect(problem(run(1, -0.01))).toEqual(['items', 'negative', 'items[1].price must not be negative.']);
    expect(problem(run('1.00001', 1))).toEqual(['items', 'too_many_decimals', 'items[1].quantity must have at most 4 decimals.']);
    expect(problem(run(1, 0.12345))).toEqual(['items', 'too_many_decimals', 'items[1].price must have at most 4 decimals.']);
    expect(problem(run('x', 1))).toEqual(['items', 'not_a_number', 'items[1].quantity must be a number.']);
    expect(problem(run('1000000000', '100000000'))).toEqual(['items', 'too_large', 'The document total is too large.']);
    expect(problem(() => computeTotals({ currency: 'ABC' as never, items: [] }))).toEqual([
      'currency',
      'unknown_currency',
      '"ABC" is not an ISO 4217 currency code.',
    ]);
  });

  it('totals an empty document to zero', () => {
    expect(computeTotals({ currency: 'EUR', items: [], discount: { type: 'fixed', value: 0 } }).json).toEqual({
      totals: { subtotal: 0, discount: 0, tax: 0, total: 0, paid: 0, credited: 0, due: 0 },
      items: [],
    });
  });
});

describe('computeTotals: tax per rate group', () => {
  const rated = (quantity: number | string, price: number | string, taxRate: number | string | null, taxable = true): LineInput => ({
    quantity,
    price,
    taxable,
    taxRate,
  });

  it('taxes each rate group on its own basis, rounding once per group', () => {
    // 19 %: 0.05 + 0.05 → 0.019 → 0.02; 7 %: 0.05 → 0.0035 → 0.00; exempt 1.00
    const t = computeTotals({
      currency: 'EUR',
      items: [rated(1, '0.05', null), rated(1, '0.05', 7), rated(1, '0.05', null), rated(1, 1, null, false)],
      taxRate: 19,
    });
    expect(t.taxGroups.map((g) => [g.taxable, g.rate.toString(), g.basis.toString(), g.tax.toString(), g.lines])).toEqual([
      [true, '19', '0.10', '0.02', [0, 2]],
      [true, '7', '0.05', '0.00', [1]],
      [false, '0', '1.00', '0.00', [3]],
    ]);
    expect(t.tax.toString()).toBe('0.02');
    expect(t.lines.map((l) => l.taxRate.toString())).toEqual(['19', '7', '19', '0']);
  });

  it('spreads the discount before grouping, so each group is taxed after its share', () => {
    const t = computeTotals({
      currency: 'EUR',
      items: [rated(1, 100, 19), rated(1, 100, 7), rated(1, 100, null, false)],
      discount: { type: 'percent', value: 10 },
      taxRate: 19,
    });
    expect(t.taxGroups.map((g) => [g.rate.toString(), g.amount.toString(), g.discount.toString(), g.tax.toString()])).toEqual([
      ['19', '100.00', '10.00', '17.10'],
      ['7', '100.00', '10.00', '6.30'],
      ['0', '100.00', '10.00', '0.00'],
    ]);
    expect(t.json.totals).toEqual({ subtotal: 300, discount: 30, tax: 23.4, total: 293.4, paid: 0, credited: 0, due: 293.4 });
  });

  it('is exact in JPY and KWD', () => {
    const jpy = computeTotals({ currency: 'JPY', items: [rated(3, 333, 10), rated(1, 999, 8)], taxRate: 10 });
    expect(jpy.taxGroups.map((g) => g.tax.toString())).toEqual(['100', '80']); // 99.9, 79.92
    const kwd = computeTotals({ currency: 'KWD', items: [rated(1, '1.2345', 5), rated(1, '0.333', '2.5')] });
    expect(kwd.taxGroups.map((g) => g.tax.toString())).toEqual(['0.062', '0.008']); // 0.06175, 0.008325
  });

  it('refuses a rate on a non-taxable item and rates that are not percentages', () => {
    expect(() => computeTotals({ currency: 'USD', items: [rated(1, 1, 5, false)] })).toThrow(
      'items[0].tax_rate is set on an item that is not taxable.',
    );
    expect(() => computeTotals({ currency: 'USD', items: [rated(1, 1, 101)] })).toThrow('items[0].tax_rate must be at most 100.');
    expect(() => computeTotals({ currency: 'USD', items: [rated(1, 1, '1.00001')] })).toThrow(InvalidAmountError);
  });
});
