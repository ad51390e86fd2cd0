// Random invoices and credit notes through every format, checked by the official EN 16931 rules (no
// fatal assertion), the CII also against its D16B schema, and the amounts read back equal to the
// document's; a service period (closed or open at one end) is the invoice period of both syntaxes. The rules run in SaxonJS; see test/helpers/en16931.ts.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { BillingDocument } from '../../core/documents/document.ts';
import { Money, type CurrencyCode } from '../../core/money/index.ts';
import { creditNoteOf, invoiceOf, SELLER, type DocSpec, type ItemSpec } from '../../test/helpers/einvoice-documents.ts';
import { ciiSchemaErrors, en16931Fatal } from '../../test/helpers/en16931.ts';
import { ciiXml } from './cii.ts';
import { einvoiceModel, type EinvoiceFormat } from './einvoice-model.ts';
import { readEinvoice } from './reader.ts';
import { ublXml } from './ubl.ts';

const decimal = (maxUnits: number, minUnits = 0) =>
  fc
    .tuple(fc.integer({ min: minUnits, max: maxUnits }), fc.integer({ min: 0, max: 4 }))
    .map(([units, scale]) => (units / 10 ** scale).toFixed(scale));

const RATES = ['0', '5', '5.5', '7', '8.1', '10', '19', '20', '21', '25'];

const itemArb: fc.Arbitrary<ItemSpec> = fc
  .record({
    name: fc.constantFrom('Consulting', 'Widgets <small> & "large"', 'Бумага', 'Café crème', 'Kurs über XML'),
    description: fc.constantFrom('', 'Per hour', 'Zeile 1\nZeile 2'),
    quantity: decimal(50_000, 1),
    price: decimal(2_000_000),
    taxable: fc.boolean(),
    tax_rate: fc.option(fc.constantFrom(...RATES), { nil: undefined, freq: 2 }),
  })
  .map((i) => (i.taxable ? i : { ...i, tax_rate: undefined }));

const customerArb = fc.constantFrom(
  { name: 'Käufer AG', country: 'DE', vat: 'DE987654321', address: 'Marktplatz 2\n80331 München', email: 'ap@kaeufer.test' },
  { name: 'Client SARL', country: 'FR', vat: 'FR40303265045', address: '12 rue de la Paix\n75002 Paris', email: 'compta@client.test' }, // reverse charge
  { name: 'Buyer Inc.', country: 'US', vat: '', address: '1 Main Street\nSpringfield 62701', email: 'ap@buyer.test' }, // export
  { name: 'Koper BV', country: 'NL', vat: '', address: 'Damrak 1\n1012 LG Amsterdam', email: 'ap@koper.test' }, // EU, no VAT number: standard
);

/** The service period (BG-14): none, closed (one day or more), or open at either end. */
const periodArb = fc
  .tuple(fc.integer({ min: Date.UTC(2020, 0, 1) / 86400000, max: Date.UTC(2030, 0, 1) / 86400000 }), fc.integer({ min: 0, max: 400 }))
  .chain(([day, length]) => {
    const ymd = (d: number) => new Date(d * 86400000).toISOString().slice(0, 10);
    const [start, end] = [ymd(day), ymd(day + length)];
    return fc.constantFrom({ start: null, end: null }, { start, end }, { start, end: null }, { start: null, end });
  });

const specArb: fc.Arbitrary<DocSpec> = fc.record({
  currency: fc.constantFrom('EUR', 'EUR', 'USD', 'GBP', 'JPY', 'SEK', 'CHF', 'HUF'),
  taxRate: fc.constantFrom(...RATES),
  customer: customerArb,
  items: fc.array(itemArb, { minLength: 1, maxLength: 6 }),
  discount: fc.oneof(
    fc.constant(null),
    fc.integer({ min: 1, max: 500_000 }).map((u) => ({ type: 'percent' as const, value: (u / 10_000).toFixed(4) })),
    fc.integer({ min: 0, max: 30 }).map((u) => ({ type: 'fixed' as const, value: String(u) })),
  ),
  exemptItemsStatement: fc.constant('Disbursement paid in the name and for the account of the customer.'),
  exemptStatement: fc.constantFrom('', '', '', 'VAT exempt under §19 UStG (small business).'),
  paidShare: fc.constantFrom(0, 0, 0.5, 1),
  notes: fc.constantFrom('', 'Thank you & goodbye <3'),
  terms: fc.constantFrom('', 'Payment within 30 days.'),
  period: periodArb,
});

/** A spec whose fixed discount fits its subtotal (a larger one is refused long before any e-invoice). */
function invoiceFor(spec: DocSpec, id: number): BillingDocument | null {
  try {
    return invoiceOf(spec, id);
  } catch {
    return null;
  }
}

function xmlOf(doc: BillingDocument, format: EinvoiceFormat, parent?: BillingDocument): string {
  const { model, missing, invalid } = einvoiceModel(doc, SELLER, format, parent);
  expect({ missing, invalid }).toEqual({ missing: [], invalid: {} });
  return format === 'cii' || format === 'facturx' ? ciiXml(model) : ublXml(model);
}

/** The document's service period is the XML's invoice period (BG-14), in both syntaxes; none when it has none. */
function expectPeriod(xml: string, doc: BillingDocument): void {
  const { start, end } = doc.period;
  const ubl = /<cac:InvoicePeriod>(.*?)<\/cac:InvoicePeriod>/.exec(xml)?.[1];
  const cii = /<ram:BillingSpecifiedPeriod>(.*?)<\/ram:BillingSpecifiedPeriod>/.exec(xml)?.[1];
  const found = ubl ?? cii;
  if (!start && !end) return expect(found).toBeUndefined();
  const date = (d: string | null) => (d && cii ? d.replace(/-/g, '') : d);
  const [s, e] = ubl
    ? [/<cbc:StartDate>(.*?)</.exec(ubl)?.[1], /<cbc:EndDate>(.*?)</.exec(ubl)?.[1]]
    : [
        /<ram:StartDateTime><udt:DateTimeString format="102">(\d{8})</.exec(cii!)?.[1],
        /<ram:EndDateTime><udt:DateTimeString format="102">(\d{8})</.exec(cii!)?.[1],
      ];
  expect([s ?? null, e ?? null]).toEqual([date(start), date(end)]);
}

/** What the reader finds equals the document's amounts, to the minor unit. */
async function expectAmounts(xml: string, doc: BillingDocument): Promise<void> {
  const read = await readEinvoice(Buffer.from(xml));
  const c = doc.currency as CurrencyCode;
  const m = (v: string) => Money.parse(v, c);
  const t = doc.totals;
  const payable = doc.kind === 'credit_note' ? m(t.total) : m(t.due);
  expect(read.totals).toEqual({
    line_total: m(t.subtotal).toNumber(),
    allowance_total: m(t.discount).toNumber(),
    charge_total: 0,
    tax_exclusive: m(t.subtotal).minus(m(t.discount)).toNumber(),
    tax: m(t.tax).toNumber(),
    tax_inclusive: m(t.total).toNumber(),
    prepaid: m(t.total).minus(payable).toNumber(),
    payable: payable.toNumber(),
  });
  expect(read.vat_breakdown.map((v) => [v.category, v.rate, v.taxable_amount, v.tax])).toEqual(
    doc.taxBreakdown.map((e) => [e.category, Number(e.rate), m(e.basis).toNumber(), m(e.tax).toNumber()]),
  );
  expect(read.lines.map((l) => l.net_amount)).toEqual(doc.items.map((i) => m(i.amount).toNumber()));
}

describe('e-invoices of random documents', () => {
  it('pass the EN 16931 rules in every format, the CII its schema, and carry the document’s amounts', async () => {
    let id = 0;
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(specArb, fc.constantFrom(0.25, 0.5, 1), async (spec, creditShare) => {
        const invoice = invoiceFor(spec, ++id);
        fc.pre(invoice !== null);
        const ubl = xmlOf(invoice!, 'ubl');
        const xrechnung = xmlOf(invoice!, 'xrechnung');
        const cii = xmlOf(invoice!, 'cii');
        expect(en16931Fatal(ubl, 'ubl')).toEqual([]);
        expect(en16931Fatal(xrechnung, 'ubl')).toEqual([]);
        expect(en16931Fatal(cii, 'cii')).toEqual([]);
        expect(await ciiSchemaErrors(cii)).toBe('');
        await expectAmounts(ubl, invoice!);
        await expectAmounts(cii, invoice!);
        expectPeriod(ubl, invoice!);
        expectPeriod(cii, invoice!);

        if (Number(invoice!.totals.total) > 0) {
          const note = creditNoteOf(invoice!, creditShare, ++id);
          const credit = xmlOf(note, 'ubl', invoice!);
          expect(en16931Fatal(credit, 'ubl')).toEqual([]);
          await expectAmounts(credit, note);
          expectPeriod(credit, note);
          const creditCii = xmlOf(note, 'cii', invoice!);
          expect(en16931Fatal(creditCii, 'cii')).toEqual([]);
          expect(await ciiSchemaErrors(creditCii)).toBe('');
          expectPeriod(creditCii, note);
        }
        checked++;
      }),
      { numRuns: Number(process.env.EINVOICE_RUNS ?? 40) },
    );
    expect(checked).toBeGreaterThan(20);
    // forty documents through the official rules: more than the default minute on a busy machine
  }, 300_000);

  it('are checked by rules that do catch a wrong amount (the oracle is awake)', () => {
    const invoice = invoiceOf({
      currency: 'EUR',
      taxRate: '19',
      customer: { name: 'Käufer AG', country: 'DE', vat: '', address: 'Marktplatz 2\n80331 München', email: 'ap@kaeufer.test' },
      items: [{ name: 'A', quantity: '1', price: '100', taxable: true }],
      discount: null,
      exemptItemsStatement: '',
      exemptStatement: '',
    });
    const ubl = xmlOf(invoice, 'ubl').replace(
      '<cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount>',
      '<cbc:TaxAmount currencyID="EUR">18.00</cbc:TaxAmount>',
    );
    expect(en16931Fatal(ubl, 'ubl').map((a) => a.id)).toContain('BR-CO-14');
    // and a period that ends before it starts (BR-29, BR-CO-19's sibling), in both syntaxes
    const reversed = { ...invoice, period: { start: '2026-02-01', end: '2026-01-31' } };
    expect(en16931Fatal(xmlOf(reversed, 'ubl'), 'ubl').map((a) => a.id)).toContain('BR-29');
    expect(en16931Fatal(xmlOf(reversed, 'cii'), 'cii').map((a) => a.id)).toContain('BR-29');
  });
});
