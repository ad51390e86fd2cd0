import { describe, expect, it } from '@jest/globals';
import { creditNoteOf, invoiceOf, SELLER, type DocSpec } from '../../test/helpers/einvoice-documents.ts';
import type { ClientEinvoice } from './client-einvoice.ts';
import { einvoiceModel, splitAddress } from './einvoice-model.ts';
import { parseInvoiceXml as parseXml, readEinvoiceNow } from './reader.ts';
import { ublXml } from './ubl.ts';

const spec: DocSpec = {
  currency: 'EUR',
  taxRate: '19',
  customer: { name: 'Käufer AG', country: 'DE', vat: 'DE987654321', address: 'Marktplatz 2\n80331 München', email: 'ap@kaeufer.test' },
  items: [
    { name: 'A', quantity: '2', price: '50', taxable: true },
    { name: 'B', quantity: '1', price: '10', taxable: true, tax_rate: '7' },
    { name: 'Fee', quantity: '1', price: '5', taxable: false },
  ],
  discount: { type: 'fixed', value: '11' },
  exemptItemsStatement: 'Disbursement.',
  exemptStatement: '',
};

describe('einvoiceModel', () => {
  it('carries the stored amounts: allowances per category and rate, prepaid = what is settled', () => {
    const doc = invoiceOf({ ...spec, paidShare: 0.5 });
    const { model, missing } = einvoiceModel(doc, SELLER, 'ubl');
    expect(missing).toEqual([]);
    expect(model.lines.map((l) => [l.category, l.rate, l.amount])).toEqual([
      ['S', '19', '100.00'],
      ['S', '7', '10.00'],
      ['E', '0', '5.00'],
    ]);
    // 11 spread 100 : 10 : 5 → 9.565…, 0.956…, 0.478… → 9.56, 0.96, 0.48 (largest remainder)
    expect(model.allowances).toEqual([
      { amount: '9.56', category: 'S', rate: '19' },
      { amount: '0.96', category: 'S', rate: '7' },
      { amount: '0.48', category: 'E', rate: '0' },
    ]);
    expect(model.totals).toEqual({
      lines: '115.00',
      allowances: '11.00',
      taxExclusive: '104.00',
      tax: '17.81', // 90.44 × 19 % = 17.1836 → 17.18; 9.04 × 7 % = 0.6328 → 0.63
      taxInclusive: '121.81',
      prepaid: doc.totals.paid,
      payable: doc.totals.due,
    });
  });

  it('lists every missing field at once, per format', () => {
    const doc = invoiceOf({ ...spec, customer: { name: '', country: '', vat: '', address: '', email: '' } });
    const empty = { ...SELLER, company_vat_number: '', company_street: ' ', company_city: '', company_postcode: '', business_country: '' };
    expect(einvoiceModel(doc, empty, 'ubl').missing).toEqual([
      'company_vat_number',
      'company_street',
      'company_city',
      'company_postcode',
      'business_country',
      'customer_name',
      'customer_country',
      // Peppol's electronic addresses: no VAT number in a known scheme, no own address (e-mail is none)
      'einvoice_seller_id',
      'customer_einvoice_address',
    ]);
    expect(einvoiceModel(doc, empty, 'cii').missing).not.toContain('customer_einvoice_address');
    const xr = einvoiceModel(doc, { ...empty, company_email: '', einvoice_iban: '', einvoice_contact_phone: '' }, 'xrechnung').missing;
    expect(xr).toEqual(expect.arrayContaining(['company_email', 'einvoice_contact_phone', 'einvoice_iban', 'customer_address']));
    const noReason = invoiceOf({ ...spec, exemptItemsStatement: '' });
    expect(einvoiceModel(noReason, SELLER, 'cii').missing).toEqual(['tax_exempt_items_statement']);
  });

  it('refuses currencies with three decimals', () => {
    const doc = invoiceOf({ ...spec, currency: 'KWD', discount: null });
    expect(einvoiceModel(doc, SELLER, 'ubl').invalid.currency).toMatch(/at most 2/);
  });

  it('escapes every value it writes', async () => {
    const doc = invoiceOf({
      ...spec,
      items: [{ name: '</cbc:Name><evil/>&amp;"', quantity: '1', price: '1', taxable: true }],
      discount: null,
    });
    const xml = ublXml(einvoiceModel(doc, SELLER, 'ubl').model);
    expect(xml).toContain('&lt;/cbc:Name&gt;&lt;evil/&gt;&amp;amp;&quot;');
    expect((await readEinvoiceNow(Buffer.from(xml))).lines[0]!.name).toBe('</cbc:Name><evil/>&amp;"');
  });
});

describe('what Peppol and XRechnung receivers need', () => {
  const consumer = { name: 'Jeanne', country: 'FR', vat: '', address: '3 rue Nationale\n59000 Lille', email: 'jeanne@example.com' };
  const client = (over: Partial<ClientEinvoice> = {}): ClientEinvoice => ({
    client_id: 1,
    einvoice_address: null,
    buyer_reference: '',
    public_body: false,
    ...over,
  });

  it('addresses a buyer without a VAT number by its own address in Peppol, by e-mail only in XRechnung', () => {
    const doc = invoiceOf({ ...spec, customer: consumer });
    expect(einvoiceModel(doc, SELLER, 'ubl').missing).toEqual(['customer_einvoice_address']);
    expect(einvoiceModel(doc, SELLER, 'xrechnung').model.buyer.endpoint).toEqual({ scheme: 'EM', id: 'jeanne@example.com' });
    const gln = { scheme: '0088', id: '4000001123452' };
    const { model, missing } = einvoiceModel(doc, SELLER, 'ubl', undefined, client({ einvoice_address: gln }));
    expect(missing).toEqual([]);
    expect(model.buyer.endpoint).toEqual(gln);
  });

  it('a seller registered under another identifier sets its own; one Peppol rejects is invalid', () => {
    const doc = invoiceOf(spec);
    const own = { ...SELLER, einvoice_seller_scheme: '0208', einvoice_seller_id: '0403019261' };
    expect(einvoiceModel(doc, own, 'ubl').model.seller.endpoint).toEqual({ scheme: '0208', id: '0403019261' });
    expect(einvoiceModel(doc, { ...own, einvoice_seller_id: '0403019262' }, 'ubl').invalid.einvoice_seller_id).toMatch(/mod 97/);
  });

  it('applies the German rules to a German seller and buyer in Peppol, the Dutch to a Dutch seller', () => {
    const noAddress = invoiceOf({ ...spec, customer: { ...spec.customer, address: '' } });
    const bare = { ...SELLER, einvoice_contact_phone: '', einvoice_iban: '' };
    expect(einvoiceModel(noAddress, bare, 'ubl').missing).toEqual(['einvoice_contact_phone', 'einvoice_iban', 'customer_address']);
    const abroad = invoiceOf({ ...spec, customer: { ...spec.customer, country: 'AT', vat: 'ATU13585627', address: '' } });
    expect(einvoiceModel(abroad, bare, 'ubl').missing).toEqual([]);
    const dutch = { ...bare, business_country: 'NL', company_vat_number: 'NL123456789B01' };
    const toNl = invoiceOf({
      ...spec,
      seller: dutch,
      customer: { ...spec.customer, country: 'NL', vat: 'NL004495445B01', address: 'Amsterdam' },
    });
    expect(einvoiceModel(toNl, dutch, 'ubl').missing).toEqual(['einvoice_iban', 'customer_address']);
  });

  it('a public body needs its buyer reference for XRechnung, which becomes BT-10', () => {
    const doc = invoiceOf(spec);
    expect(einvoiceModel(doc, SELLER, 'xrechnung', undefined, client({ public_body: true })).missing).toEqual(['buyer_reference']);
    const { model } = einvoiceModel(
      doc,
      SELLER,
      'xrechnung',
      undefined,
      client({ public_body: true, buyer_reference: '04011000-1234-56' }),
    );
    expect(model.buyerReference).toBe('04011000-1234-56');
    expect(einvoiceModel(doc, SELLER, 'ubl').model.buyerReference).toBe(doc.number);
  });

  it('a credit note asks nobody to pay the seller', () => {
    const invoice = invoiceOf(spec);
    const note = creditNoteOf(invoice, 0.5);
    for (const format of ['ubl', 'xrechnung'] as const) {
      const { model, missing } = einvoiceModel(note, SELLER, format, invoice);
      expect(missing).toEqual([]);
      expect(model.payment).toBeNull();
      expect(model.settlement).toEqual({ reference: invoice.number }); // German seller and buyer: instructions required
      expect(model.terms).toContain('nothing is to be paid to the seller');
    }
    const toFrance = invoiceOf({ ...spec, customer: consumer });
    const gln = client({ einvoice_address: { scheme: '0088', id: '4000001123452' } });
    expect(einvoiceModel(creditNoteOf(toFrance, 1), SELLER, 'ubl', toFrance, gln).model.settlement).toBeNull();
  });
});

describe('splitAddress', () => {
  it('reads street, postcode and city from the usual shapes', () => {
    expect(splitAddress('Marktplatz 2\n80331 München', 'DE')).toEqual({
      street: 'Marktplatz 2',
      additional: '',
      postcode: '80331',
      city: 'München',
    });
    expect(splitAddress('Damrak 1\n1012 LG Amsterdam', 'NL')).toMatchObject({ postcode: '1012 LG', city: 'Amsterdam' });
    expect(splitAddress('1 Poultry\nLondon EC2R 8EJ\nGB', 'GB')).toMatchObject({
      street: '1 Poultry',
      postcode: 'EC2R 8EJ',
      city: 'London',
    });
    expect(splitAddress('ul. Marszałkowska 84/92\nBudynek B\n00-514 Warszawa', 'PL')).toMatchObject({
      additional: 'Budynek B',
      postcode: '00-514',
      city: 'Warszawa',
    });
    expect(splitAddress('Somewhere\nVaduz', 'LI')).toMatchObject({ city: 'Vaduz', postcode: '' });
    expect(splitAddress('', 'DE')).toEqual({ street: '', additional: '', city: '', postcode: '' });
  });
});

describe('parseXml', () => {
  it('refuses a DTD, undeclared entities, and deep nesting', () => {
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow('DOCTYPE');
    expect(() => parseXml('<a>&x;</a>')).toThrow('not well-formed');
    expect(() => parseXml(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`)).toThrow('deep');
    expect(parseXml('<a b="1">x &amp; &#x41;<![CDATA[<c>]]></a>')).toMatchObject({ name: 'a', attrs: { b: '1' }, text: 'x & A<c>' });
  });
});
