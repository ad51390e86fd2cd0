import { shippedTranslator } from '../i18n/translator.ts';
import { describe, expect, it } from '@jest/globals';
import { Money } from '../money/money.ts';
import { computeTotals, type LineInput } from '../money/totals.ts';
import { breakdownLabel, creditParts, taxBreakdown, taxStatements, vatCategory } from './breakdown.ts';
import { Decimal } from '../money/decimal.ts';

const line = (price: number, taxRate: number | null, taxable = true): LineInput => ({ quantity: 1, price, taxable, taxRate });
const groups = (items: LineInput[], taxRate = 19) => computeTotals({ currency: 'EUR', items, taxRate }).taxGroups;

describe('taxBreakdown', () => {
  it('names a standard document’s groups S, Z and E, the exempt group with the items statement', () => {
    const b = taxBreakdown({
      treatment: { category: 'standard', statement: '' },
      groups: groups([line(100, null), line(50, 7), line(10, 0), line(20, null, false)]),
      exemptItemsStatement: ' Disbursement in the name of the customer ',
    });
    expect(b).toEqual([
      { category: 'S', rate: '19', amount: '100.00', discount: '0.00', basis: '100.00', tax: '19.00', statement: '' },
      { category: 'S', rate: '7', amount: '50.00', discount: '0.00', basis: '50.00', tax: '3.50', statement: '' },
      { category: 'Z', rate: '0', amount: '10.00', discount: '0.00', basis: '10.00', tax: '0.00', statement: '' },
      {
        category: 'E',
        rate: '0',
        amount: '20.00',
        discount: '0.00',
        basis: '20.00',
        tax: '0.00',
        statement: 'Disbursement in the name of the customer',
      },
    ]);
    expect(b.map((e) => breakdownLabel(e, shippedTranslator()))).toEqual(['Tax 19 %', 'Tax 7 %', 'Tax 0 %', 'Exempt']);
  });

  it('puts every line of a reverse-charged, exported or exempt document in one group with its statement', () => {
    for (const [category, code] of [
      ['reverse_charge', 'AE'],
      ['export', 'G'],
      ['exempt', 'E'],
    ] as const) {
      const b = taxBreakdown({
        treatment: { category, statement: 'Why.' },
        groups: groups([line(100, null), line(20, null, false)], 0),
        exemptItemsStatement: 'Not this one.',
      });
      expect(b).toEqual([
        { category: code, rate: '0', amount: '120.00', discount: '0.00', basis: '120.00', tax: '0.00', statement: 'Why.' },
      ]);
    }
    expect(vatCategory('reverse_charge', true, Decimal.from(19))).toBe('AE');
    expect(vatCategory('standard', false, Decimal.from(19))).toBe('E');
  });

  it('lists each statement once', () => {
    const b = taxBreakdown({
      treatment: { category: 'standard', statement: '' },
      groups: groups([line(100, null), line(20, null, false)]),
      exemptItemsStatement: 'Exempt under article 132.',
    });
    expect(taxStatements({ tax: { statement: '' }, taxBreakdown: b })).toEqual(['Exempt under article 132.']);
  });
});

describe('creditParts', () => {
  it('splits a credit over the groups by gross, then each into net and tax, summing exactly', () => {
    const b = taxBreakdown({
      treatment: { category: 'standard', statement: '' },
      groups: groups([line(100, null), line(100, 7), line(10, null, false)]),
      exemptItemsStatement: 'E.',
    });
    const amount = Money.parse('50.00', 'EUR');
    const parts = creditParts(amount, b);
    expect(parts.map((p) => [p.entry.category, p.entry.rate, p.net.toString(), p.tax.toString()])).toEqual([
      ['S', '19', '21.18', '4.03'], // 50 × 119 / 236 = 25.21
      ['S', '7', '21.19', '1.48'], // 22.67
      ['E', '0', '2.12', '0.00'],
    ]);
    expect(
      Money.sum(
        parts.flatMap((p) => [p.net, p.tax]),
        'EUR',
      ).equals(amount),
    ).toBe(true);
  });
});
