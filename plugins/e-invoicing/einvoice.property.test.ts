// Random invoices and credit notes through every format, checked by the official rules of their
// receivers (no fatal assertion): every UBL by EN 16931 and Peppol BIS 3, every XRechnung by EN 16931 and
// XRechnung, the CII by EN 16931 and its D16B schema; and the amounts read back equal to the document's.
// A service period (closed or open at one end) is the invoice period of both syntaxes; without one, the
// issue date is the date of supply.
// A document the service refuses (409 billing_einvoice_incomplete) must be one those rules do reject:
// written anyway, it breaks them. The rules run in SaxonJS; see test/helpers/en16931.ts.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { BillingDocument } from '../../core/documents/document.ts';
import { Money, type CurrencyCode } from '../../core/money/index.ts';
import { creditNoteOf, invoiceOf, SELLER, type DocSpec, type ItemSpec } from '../../test/helpers/einvoice-documents.ts';
import { ciiSchemaErrors, en16931Fatal, peppolFatal, xrechnungFatal, type FailedAssert } from '../../test/helpers/en16931.ts';
import type { ClientEinvoice } from './client-einvoice.ts';
import type { DocumentEinvoice } from './document-einvoice.ts';
import { ciiXml } from './cii.ts';
import { einvoiceModel, type EinvoiceFormat, type SellerSettings } from './einvoice-model.ts';
import { readEinvoiceNow } from './reader.ts';
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

/** Sellers in the countries whose receivers matter most; some without the data only some receivers need. */
// prettier-ignore
const sellerArb: fc.Arbitrary<SellerSettings> = fc
  .record({
    base: fc.constantFrom<Partial<SellerSettings>>(
      {}, // Lieferant GmbH, Berlin
      { company_name: 'Fournisseur SAS', business_country: 'FR', company_vat_number: 'FR40303265045', company_street: '5 avenue Foch', company_city: 'Lyon', company_postcode: '69006', einvoice_iban: 'FR7630006000011234567890189', einvoice_bic: '' },
      { company_name: 'Leverancier BV', business_country: 'NL', company_vat_number: 'NL123456789B01', company_street: 'Keizersgracht 1', company_city: 'Amsterdam', company_postcode: '1015 CJ', einvoice_iban: 'NL91ABNA0417164300' },
      { company_name: 'Leverancier NV', business_country: 'BE', company_vat_number: 'BE0123456749', company_street: 'Grote Markt 1', company_city: 'Brussel', company_postcode: '1000', einvoice_iban: 'BE68539007547034', einvoice_seller_scheme: '0208', einvoice_seller_id: '0123456749' },
      { company_name: 'Lieferant GesmbH', business_country: 'AT', company_vat_number: 'ATU12345678', company_street: 'Ring 1', company_city: 'Wien', company_postcode: '1010', einvoice_iban: 'AT611904300234573201' },
    ),
    phone: fc.constantFrom('+49 30 1234567', ''),
    iban: fc.boolean(),
  })
  .map(({ base, phone, iban }) => {
    const seller = { ...SELLER, ...base, einvoice_contact_phone: phone };
    return iban ? seller : { ...seller, einvoice_iban: '' };
  });

/** Buyers: domestic and cross-border, with and without VAT numbers and addresses. */
// prettier-ignore
const customerArb = fc.constantFrom(
  { name: 'Käufer AG', country: 'DE', vat: 'DE987654321', address: 'Marktplatz 2\n80331 München', email: 'ap@kaeufer.test' },
  { name: 'Stadt Musterhausen', country: 'DE', vat: '', address: 'Rathausplatz 1\n12345 Musterhausen', email: 'rechnung@musterhausen.test' },
  { name: 'Käufer KG', country: 'DE', vat: 'DE811234567', address: '', email: 'ap@kaeufer-kg.test' }, // no address
  { name: 'Client SARL', country: 'FR', vat: 'FR40303265045', address: '12 rue de la Paix\n75002 Paris', email: 'compta@client.test' },
  { name: 'Particulier', country: 'FR', vat: '', address: '3 rue Nationale\n59000 Lille', email: 'moi@particulier.test' },
  { name: 'Buyer Inc.', country: 'US', vat: '', address: '1 Main Street\nSpringfield 62701', email: 'ap@buyer.test' }, // export
  { name: 'Koper BV', country: 'NL', vat: '', address: 'Damrak 1\n1012 LG Amsterdam', email: 'ap@koper.test' },
  { name: 'Klant NV', country: 'BE', vat: 'BE0403019261', address: 'Meir 1\n2000 Antwerpen', email: 'ap@klant.test' },
  { name: 'Kunde GmbH', country: 'AT', vat: 'ATU13585627', address: 'Hauptplatz 1\n8010 Graz', email: 'ap@kunde.test' },
);

/** The document's own references: none, a purchase order, its own buyer reference. */
const refsArb: fc.Arbitrary<DocumentEinvoice | undefined> = fc.constantFrom(
  undefined,
  { document_id: 1, buyer_reference: '', purchase_order_reference: 'PO-2026-0815' },
  { document_id: 1, buyer_reference: 'Kostenstelle 4711 & <B>', purchase_order_reference: '' },
);

/** The client's e-invoice details: none, a GLN, a public body with or without its Leitweg-ID. */
const clientArb: fc.Arbitrary<ClientEinvoice | undefined> = fc.constantFrom(
  undefined,
  { client_id: 7, einvoice_address: { scheme: '0088', id: '4000001123452' }, buyer_reference: '', public_body: false },
  { client_id: 7, einvoice_address: { scheme: '0204', id: '991-01234-56' }, buyer_reference: '991-01234-56', public_body: true },
  { client_id: 7, einvoice_address: null, buyer_reference: '', public_body: true },
  { client_id: 7, einvoice_address: null, buyer_reference: 'PO-4711', public_body: false },
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
  seller: sellerArb,
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

function xmlOf(
  doc: BillingDocument,
  format: EinvoiceFormat,
  parent?: BillingDocument,
  seller = SELLER,
  client?: ClientEinvoice,
  refs?: DocumentEinvoice,
): string {
  const { model, missing, invalid } = einvoiceModel(doc, seller, format, parent, client, refs);
  expect({ missing, invalid }).toEqual({ missing: [], invalid: {} });
  return format === 'cii' || format === 'facturx' ? ciiXml(model) : ublXml(model);
}

/** The document's service period is the XML's invoice period (BG-14), in both syntaxes; none when it has none. */
function expectPeriod(xml: string, doc: BillingDocument): void {
  const { start, end } = doc.period;
  const ubl = /<cac:InvoicePeriod>(.*?)<\/cac:InvoicePeriod>/.exec(xml)?.[1];
  const cii = /<ram:BillingSpecifiedPeriod>(.*?)<\/ram:BillingSpecifiedPeriod>/.exec(xml)?.[1];
  const found = ubl ?? cii;
  // without a period the date of supply is the issue date (BT-72); with one, the period says it
  const delivered =
    /<cbc:ActualDeliveryDate>(.*?)</.exec(xml)?.[1] ?? /<ram:OccurrenceDateTime><udt:DateTimeString format="102">(\d{8})</.exec(xml)?.[1];
  if (!start && !end) {
    expect(found).toBeUndefined();
    return expect(delivered).toBe(/<ram:/.test(xml) ? doc.issueDate.replace(/-/g, '') : doc.issueDate);
  }
  expect(delivered).toBeUndefined();
  const date = (d: string | null) => (d && cii ? d.replace(/-/g, '') : d);
  const [s, e] = ubl
    ? [/<cbc:StartDate>(.*?)</.exec(ubl)?.[1], /<cbc:EndDate>(.*?)</.exec(ubl)?.[1]]
    : [
        /<ram:StartDateTime><udt:DateTimeString format="102">(\d{8})</.exec(cii!)?.[1],
        /<ram:EndDateTime><udt:DateTimeString format="102">(\d{8})</.exec(cii!)?.[1],
      ];
  expect([s ?? null, e ?? null]).toEqual([date(start), date(end)]);
}

/** What the receiver's rules reject of the document in `format`: Peppol's for UBL, XRechnung's for XRechnung. */
const RULES: Record<'ubl' | 'xrechnung', (xml: string) => FailedAssert[]> = { ubl: peppolFatal, xrechnung: xrechnungFatal };

/**
 * `doc` as a Peppol UBL or an XRechnung: valid by its receiver's rules when the service writes it, and
 * when the service refuses it, one those rules do reject (the refused fields written anyway break them).
 * Returns whether it was written.
 */
function expectValidOrRightlyRefused(
  doc: BillingDocument,
  format: 'ubl' | 'xrechnung',
  seller: SellerSettings,
  client: ClientEinvoice | undefined,
  refs: DocumentEinvoice | undefined,
  parent?: BillingDocument,
): boolean {
  const { model, missing, invalid } = einvoiceModel(doc, seller, format, parent, client, refs);
  const fatal = RULES[format](ublXml(model));
  if (!missing.length && !Object.keys(invalid).length) {
    expect({ format, fatal }).toEqual({ format, fatal: [] });
    return true;
  }
  // a public body's reference is this service's own requirement: its receivers route by it
  if (missing.every((f) => f === 'buyer_reference') && !Object.keys(invalid).length) return false;
  expect({ format, missing, invalid, fatal: fatal.length > 0 }).toEqual({ format, missing, invalid, fatal: true });
  return false;
}

/** What the reader finds equals the document's amounts, to the minor unit. */
async function expectAmounts(xml: string, doc: BillingDocument): Promise<void> {
  const read = await readEinvoiceNow(Buffer.from(xml)); // in process: the worker's bounds are tested elsewhere
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
  it('pass their receivers’ rules in every format (or are refused for what those rules reject), the CII its schema, and carry the document’s amounts', async () => {
    let id = 0;
    let checked = 0;
    let written = 0;
    await fc.assert(
      fc.asyncProperty(specArb, clientArb, refsArb, fc.constantFrom(0.25, 0.5, 1), async (spec, client, refs, creditShare) => {
        const invoice = invoiceFor(spec, ++id);
        fc.pre(invoice !== null);
        const seller = spec.seller!;
        const cii = xmlOf(invoice!, 'cii', undefined, seller, client, refs);
        expect(en16931Fatal(cii, 'cii')).toEqual([]);
        expect(await ciiSchemaErrors(cii)).toBe('');
        await expectAmounts(cii, invoice!);
        expectPeriod(cii, invoice!);
        if (expectValidOrRightlyRefused(invoice!, 'ubl', seller, client, refs)) {
          written++;
          const ubl = ublXml(einvoiceModel(invoice!, seller, 'ubl', undefined, client, refs).model);
          await expectAmounts(ubl, invoice!);
          expectPeriod(ubl, invoice!);
        }
        expectValidOrRightlyRefused(invoice!, 'xrechnung', seller, client, refs);

        if (Number(invoice!.totals.total) > 0) {
          const note = creditNoteOf(invoice!, creditShare, ++id);
          const creditCii = xmlOf(note, 'cii', invoice!, seller, client, refs);
          expect(en16931Fatal(creditCii, 'cii')).toEqual([]);
          expect(await ciiSchemaErrors(creditCii)).toBe('');
          expectPeriod(creditCii, note);
          for (const format of ['ubl', 'xrechnung'] as const) {
            if (!expectValidOrRightlyRefused(note, format, seller, client, refs, invoice!)) continue;
            const credit = ublXml(einvoiceModel(note, seller, format, invoice!, client, refs).model);
            // a credit note tells nobody to pay the seller: no account of the seller's, no credit transfer
            expect(credit).not.toContain('<cac:PayeeFinancialAccount>');
            expect(credit).not.toMatch(/<cbc:PaymentMeansCode[^>]*>(30|58)</);
            await expectAmounts(credit, note);
            expectPeriod(credit, note);
          }
        }
        checked++;
      }),
      { numRuns: Number(process.env.EINVOICE_RUNS ?? 30) },
    );
    expect(checked).toBeGreaterThan(20);
    expect(written).toBeGreaterThan(5); // most documents are complete: the property is not all refusals
    // thirty documents, each through up to four rule sets in several formats: about 40 s, more than
    // the default minute on a busy machine
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
    const gln: ClientEinvoice = {
      client_id: 7,
      einvoice_address: { scheme: '0088', id: '4000001123452' },
      buyer_reference: '',
      public_body: false,
    };
    const ubl = xmlOf(invoice, 'ubl', undefined, SELLER, gln).replace(
      '<cbc:TaxAmount currencyID="EUR">19.00</cbc:TaxAmount>',
      '<cbc:TaxAmount currencyID="EUR">18.00</cbc:TaxAmount>',
    );
    expect(en16931Fatal(ubl, 'ubl').map((a) => a.id)).toContain('BR-CO-14');
  });
});
