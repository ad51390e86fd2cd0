import { describe, expect, it } from '@jest/globals';
import { shippedTranslator } from '../i18n/translator.ts';
import { totalsRows, type TotalsSource } from './totals-rows.ts';

const EN = shippedTranslator('en');

const totals = { subtotal: '100.00', discount: '0.00', tax: '0.00', total: '100.00', paid: '0.00', credited: '0.00', due: '100.00' };
const doc = (t: Partial<typeof totals> = {}, taxLines: TotalsSource['taxLines'] = []): TotalsSource => ({
  currency: 'EUR',
  totals: { ...totals, ...t },
  taxLines,
});
const shown = (rows: ReturnType<typeof totalsRows>) => rows.map((r) => [r.label, r.amount]);

describe('totalsRows', () => {
  it('shows a quote its subtotal, tax and total, a zero discount left out', () => {
    expect(shown(totalsRows(doc(), { texts: EN, settlement: false }))).toEqual([
      ['Subtotal', '100.00'],
      ['Tax', '0.00'],
      ['Total', '100.00'],
    ]);
  });

  it('leaves a zero tax out when asked (the mails)', () => {
    expect(totalsRows(doc(), { texts: EN, settlement: false, hideZeroTax: true }).map((r) => r.key)).toEqual(['subtotal', 'total']);
  });

  it('gives an invoice paid and credited when not zero, then the amount due; the total and due stand out', () => {
    const rows = totalsRows(doc({ discount: '10.00', paid: '50.00', due: '40.00' }), { texts: EN, settlement: true });
    expect(rows.map((r) => [r.key, r.deducted, r.grand])).toEqual([
      ['subtotal', false, false],
      ['discount', true, false],
      ['tax', false, false],
      ['total', false, true],
      ['paid', true, false],
      ['due', false, true],
    ]);
  });

  it('writes a row per rate when there are several, with the basis in the document currency', () => {
    const lines = [
      { label: 'Tax 19 %', basis: '50.00', tax: '9.50' },
      { label: 'Tax 7 %', basis: '50.00', tax: '3.50' },
    ];
    const rows = totalsRows(doc({ tax: '13.00' }, lines), {
      texts: EN,
      settlement: false,
      taxLabel: 'Tax (exempt)',
      totalLabel: 'Credit total',
    });
    expect(shown(rows)).toEqual([
      ['Subtotal', '100.00'],
      ['Tax 19 % on €50.00', '9.50'],
      ['Tax 7 % on €50.00', '3.50'],
      ['Credit total', '100.00'],
    ]);
  });
});
