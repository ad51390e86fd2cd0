// Items with their own tax rates: the breakdown per rate in the REST representation, on the public page,
// in the PDF and in the invoice mail, and credit notes restating it.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { useService, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const svc = useService({
  options: {
    tax_rate: 19,
    currency: 'EUR',
    business_country: 'DE',
    tax_exempt_items_statement: 'Disbursements paid in the name of the customer.',
  },
});
let admin: TestUser;

beforeAll(async () => {
  admin = await svc.makeUser('boss', 'administrator');
});

const call = (method: string, path: string, body?: unknown) => svc.rest(admin).request(method, path, body);

const items = [
  { name: 'Consulting', quantity: 2, price: 100 },
  { name: 'Books', quantity: 3, price: '9.99', tax_rate: 7 },
  { name: 'Court fee', quantity: 1, price: 25, taxable: false },
];

describe('items with their own tax rate', () => {
  it('answers the breakdown per rate, each group taxed once, and the item rates', async () => {
    const res = await call('POST', '/invoices', {
      items,
      customer_name: 'Jane Roe',
      customer_country: 'DE',
      discount: { type: 'percent', value: 10 },
      status: 'available',
    });
    expect(res.status).toBe(201);
    // 200 − 20 = 180 at 19 % = 34.20; 29.97 − 3.00 = 26.97 at 7 % = 1.8879 → 1.89; 25 − 2.50 exempt
    expect(res.body.tax_breakdown).toEqual([
      { category: 'S', rate: 19, taxable_amount: 180, tax: 34.2, exemption_reason: '' },
      { category: 'S', rate: 7, taxable_amount: 26.97, tax: 1.89, exemption_reason: '' },
      { category: 'E', rate: 0, taxable_amount: 22.5, tax: 0, exemption_reason: 'Disbursements paid in the name of the customer.' },
    ]);
    expect(res.body.totals).toMatchObject({ subtotal: 254.97, discount: 25.5, tax: 36.09, total: 265.56 });
    expect(res.body.items.map((i: { tax_rate: number | null }) => i.tax_rate)).toEqual([null, 7, null]);

    const pdf = await call('GET', `/invoices/${res.body.id}/pdf`);
    const { text } = await pdfText(pdf.bytes);
    expect(text).toContain('Tax 19 % on €180.00');
    expect(text).toContain('Tax 7 % on €26.97');
    expect(text).toContain('Exempt on €22.50');
    expect(text).toContain('Disbursements paid in the name of the customer.');

    const key = await svc.kernel.api.invoices.accessKey(res.body.id);
    const page = await (await fetch(`${svc.url}/billing/invoice/${res.body.id}?key=${key}`)).text();
    expect(page).toContain('Tax 7 % on €26.97');
    expect(page).toContain('Disbursements paid in the name of the customer.');
  });

  it('keeps one rate and one rounding for documents without item rates', async () => {
    const res = await call('POST', '/invoices', {
      items: [
        { name: 'A', quantity: 1, price: '0.05' },
        { name: 'B', quantity: 1, price: '0.05' },
        { name: 'C', quantity: 1, price: '0.05' },
      ],
    });
    expect(res.body.totals.tax).toBe(0.03); // 0.0285 → 0.03, once
    expect(res.body.tax_breakdown).toEqual([{ category: 'S', rate: 19, taxable_amount: 0.15, tax: 0.03, exemption_reason: '' }]);
  });

  it('puts every line of a reverse-charged document in AE with its statement, ignoring item rates', async () => {
    const res = await call('POST', '/invoices', {
      items,
      customer_name: 'Client SARL',
      customer_country: 'FR',
      customer_vat_number: 'FR40303265045',
    });
    expect(res.body.tax_treatment.category).toBe('reverse_charge');
    expect(res.body.totals.tax).toBe(0);
    expect(res.body.tax_breakdown).toEqual([
      { category: 'AE', rate: 0, taxable_amount: 254.97, tax: 0, exemption_reason: res.body.tax_treatment.statement },
    ]);
  });

  it('refuses a rate on a non-taxable item and a rate above 100', async () => {
    const a = await call('POST', '/invoices', { items: [{ name: 'X', quantity: 1, price: 1, taxable: false, tax_rate: 7 }] });
    expect(a.status).toBe(400);
    expect(a.body.code).toBe('rest_invalid_param');
    const b = await call('POST', '/invoices', { items: [{ name: 'X', quantity: 1, price: 1, tax_rate: 120 }] });
    expect(b.status).toBe(400);
  });

  it('credits per rate group, in proportion, summing exactly to the amount', async () => {
    const inv = await call('POST', '/invoices', { items, customer_name: 'Jane Roe', status: 'available' });
    const res = await call('POST', `/invoices/${inv.body.id}/credit-notes`, { amount: 100, reason: 'Goodwill' });
    expect(res.status).toBe(201);
    const note = await svc.kernel.api.creditNotes.get(res.body.id);
    expect(note.taxBreakdown.map((e) => e.category)).toEqual(['S', 'S', 'E']);
    const sum = note.taxBreakdown.reduce((s, e) => s + Math.round(Number(e.basis) * 100) + Math.round(Number(e.tax) * 100), 0);
    expect(sum).toBe(10000);
    expect(note.items).toHaveLength(3);
  });
});

describe('item rates travel', () => {
  it('from a quote to the invoice made from it, and into a duplicate', async () => {
    const quote = await svc.kernel.api.quotes.create(
      { items: [{ name: 'Books', quantity: 1, price: 10, tax_rate: 7 }], customer_name: 'Jane Roe', status: 'available' },
      { actor: CLI, source: 'api' },
    );
    const token = await svc.kernel.api.quotes.mintToken(quote.id); // what the public quote page puts in its forms
    const accepted = await fetch(`${svc.url}/wp-admin/admin-ajax.php`, {
      method: 'POST',
      body: new URLSearchParams({ action: 'billing_accept_quote', quote_id: String(quote.id), token: token! }),
    });
    const body = await accepted.json();
    expect(body.success).toBe(true);
    const invoice = await svc.kernel.api.invoices.get(body.data.invoice_id);
    expect(invoice.items[0]!.tax_rate).toBe('7');
    expect(invoice.totals.tax).toBe('0.70');
    const copy = await svc.kernel.api.invoices.duplicate(invoice.id, { actor: CLI, source: 'api' });
    expect(copy.taxBreakdown).toEqual(invoice.taxBreakdown);
  });
});
