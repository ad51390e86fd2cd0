// Items with their own tax rates: the breakdown per rate in the REST representation, on the public page,
// in the PDF and in the invoice mail, and credit notes restating it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { bootKernel } from '../helpers/kernel.ts';
import { makeUser, type TestUser } from '../identity/support.ts';
import { pdfText } from '../pdf/pdf-text.ts';

let db: TestDatabase;
let k: Kernel;
let admin: TestUser;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${k.url}/wp-json/billing/v1${path}`, {
    method,
    headers: { authorization: admin.authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

beforeAll(async () => {
  db = await freshDatabase();
  k = await bootKernel(db.url);
  admin = await makeUser(k, 'boss', 'administrator');
  await k.options.set('tax_rate', 19, CLI);
  await k.options.set('currency', 'EUR', CLI);
  await k.options.set('business_country', 'DE', CLI);
  await k.options.set('tax_exempt_items_statement', 'Disbursements paid in the name of the customer.', CLI);
});

afterAll(async () => {
  await k?.stop();
  await db?.drop();
});

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

    const pdf = await fetch(`${k.url}/wp-json/billing/v1/invoices/${res.body.id}/pdf`, { headers: { authorization: admin.authorization } });
    const { text } = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain('Tax 19 % on €180.00');
    expect(text).toContain('Tax 7 % on €26.97');
    expect(text).toContain('Exempt on €22.50');
    expect(text).toContain('Disbursements paid in the name of the customer.');

    const key = await k.api.invoices.accessKey(res.body.id);
    const page = await (await fetch(`${k.url}/billing/invoice/${res.body.id}?key=${key}`)).text();
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
    const note = await k.api.creditNotes.get(res.body.id);
    expect(note.taxBreakdown.map((e) => e.category)).toEqual(['S', 'S', 'E']);
    const sum = note.taxBreakdown.reduce((s, e) => s + Math.round(Number(e.basis) * 100) + Math.round(Number(e.tax) * 100), 0);
    expect(sum).toBe(10000);
    expect(note.items).toHaveLength(3);
  });
});

describe('item rates travel', () => {
  it('from a quote to the invoice made from it, and into a duplicate', async () => {
    const quote = await k.api.quotes.create(
      { items: [{ name: 'Books', quantity: 1, price: 10, tax_rate: 7 }], customer_name: 'Jane Roe', status: 'available' },
      { actor: CLI, source: 'api' },
    );
    const token = await k.api.quotes.mintToken(quote.id); // what the public quote page puts in its forms
    const accepted = await fetch(`${k.url}/wp-admin/admin-ajax.php`, {
      method: 'POST',
      body: new URLSearchParams({ action: 'billing_accept_quote', quote_id: String(quote.id), token: token! }),
    });
    const body = await accepted.json();
    expect(body.success).toBe(true);
    const invoice = await k.api.invoices.get(body.data.invoice_id);
    expect(invoice.items[0]!.tax_rate).toBe('7');
    expect(invoice.totals.tax).toBe('0.70');
    const copy = await k.api.invoices.duplicate(invoice.id, { actor: CLI, source: 'api' });
    expect(copy.taxBreakdown).toEqual(invoice.taxBreakdown);
  });
});
