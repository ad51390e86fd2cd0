// The service period of invoices and credit notes (docs/documents.md): over REST and the builder's AJAX
// action, kept as given and answered in the representation; a period ending before it starts is a 400
// that writes nothing (no document, no number taken, no audit row); printed on the PDF and the public
// page only when set; a credit note bills its invoice's period unless given its own.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { AjaxClient } from '../../testing/session.ts';
import { useService, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const svc = useService();
let admin: TestUser;
let builder: AjaxClient;

const item = { name: 'Support', quantity: 1, price: 120 };
const call = (method: string, path: string, body?: unknown) => svc.rest(admin).request(method, path, body);

beforeAll(async () => {
  admin = await svc.makeUser('boss', 'administrator', 'boss-pass-1');
  builder = await svc.ajax('boss', 'boss-pass-1');
});

/** What a reader of the PDF finds, spaces collapsed. */
async function pdfOf(path: string): Promise<string> {
  const res = await call('GET', path);
  expect(res.status).toBe(200);
  return (await pdfText(res.bytes)).text;
}

async function publicPage(id: number): Promise<string> {
  const key = await svc.kernel.api.invoices.accessKey(id);
  const res = await fetch(`${svc.url}/billing/invoice/${id}?key=${key}`);
  expect(res.status).toBe(200);
  return (await res.text()).replace(/\s+/g, ' ');
}

/** Documents, audit rows and the invoice sequence: what a refused request must leave as it was. */
async function written() {
  const [row] = await svc.kernel.db.query<{ docs: string; audit: string; next: string }>(
    `select (select count(*) from billing_documents) as docs, (select count(*) from billing_audit_log) as audit,
            (select next_value from billing_sequences where kind = 'invoice') as next`,
  );
  return row;
}

describe('the service period of an invoice', () => {
  it('is created and read over REST, printed on the PDF and the public page', async () => {
    const created = await call('POST', '/invoices', {
      items: [item],
      customer_name: 'Jane Roe',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      status: 'available',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ period_start: '2026-01-01', period_end: '2026-01-31' });
    const read = await call('GET', `/invoices/${created.body.id}`);
    expect(read.body).toMatchObject({ period_start: '2026-01-01', period_end: '2026-01-31' });

    expect(await pdfOf(`/invoices/${created.body.id}/pdf`)).toContain('Service period 1 Jan 2026 – 31 Jan 2026');
    expect(await publicPage(created.body.id)).toContain('Service period 1 Jan 2026 – 31 Jan 2026');
  });

  it('is left out when not set; one end alone is kept and printed open', async () => {
    const none = await call('POST', '/invoices', { items: [item], customer_name: 'No Period', status: 'available' });
    expect(none.body).toMatchObject({ period_start: null, period_end: null });
    expect(await pdfOf(`/invoices/${none.body.id}/pdf`)).not.toContain('Service period');
    expect(await publicPage(none.body.id)).not.toContain('Service period');

    const open = await call('POST', '/invoices', { items: [item], customer_name: 'Open', period_start: '2026-03-15' });
    expect(open.body).toMatchObject({ period_start: '2026-03-15', period_end: null });
    expect(await pdfOf(`/invoices/${open.body.id}/pdf`)).toContain('Service period 15 Mar 2026 –');
    const day = await call('POST', '/invoices', {
      items: [item],
      customer_name: 'One day',
      period_start: '2026-03-15',
      period_end: '2026-03-15',
    });
    expect(day.status).toBe(201);
    expect(await pdfOf(`/invoices/${day.body.id}/pdf`)).toContain('Service period 15 Mar 2026');
  });

  it('refuses an end before the start with 400 naming period_end, and writes nothing', async () => {
    const before = await written();
    const res = await call('POST', '/invoices', {
      items: [item],
      customer_name: 'Backwards',
      period_start: '2026-02-01',
      period_end: '2026-01-31',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { period_end: expect.stringContaining('period_start') } },
    });
    expect((await call('POST', '/invoices', { items: [item], period_start: '2026-13-01' })).status).toBe(400);
    expect(await written()).toEqual(before);
  });

  it('is saved by the builder (admin-ajax), changed on a draft, and locked on an issued invoice', async () => {
    const save = (doc: unknown, id?: number) =>
      builder.call('billing_save_invoice', { invoice: JSON.stringify(doc), ...(id ? { id: String(id) } : {}) });
    const draft = await save({ items: [item], customer_name: 'Builder', period_start: '2026-04-01', period_end: '2026-04-30' });
    expect(draft.body.data).toMatchObject({ period_start: '2026-04-01', period_end: '2026-04-30' });
    const id = draft.body.data.id;
    const changed = await save({ items: [item], customer_name: 'Builder', period_start: '2026-05-01', period_end: '2026-05-31' }, id);
    expect(changed.body.data).toMatchObject({ period_start: '2026-05-01', period_end: '2026-05-31' });
    const refused = await save({ items: [item], customer_name: 'Builder', period_start: '2026-05-31', period_end: '2026-05-01' }, id);
    expect(refused.body).toMatchObject({ success: false, data: { code: 'rest_invalid_param' } });
    expect((await call('GET', `/invoices/${id}`)).body).toMatchObject({ period_start: '2026-05-01', period_end: '2026-05-31' });

    const issued = await save(
      { items: [item], customer_name: 'Builder', period_start: '2026-05-01', period_end: '2026-05-31', status: 'available' },
      id,
    );
    expect(issued.body.data.status).toBe('available');
    const moved = await save({ items: [item], customer_name: 'Builder', period_start: '2026-06-01', period_end: '2026-06-30' }, id);
    expect(moved.body).toMatchObject({ success: false, data: { code: 'billing_rest_invalid_state' } });
    // its notes still change, the period kept
    const notes = await save(
      { items: [item], customer_name: 'Builder', period_start: '2026-05-01', period_end: '2026-05-31', notes: 'Thanks' },
      id,
    );
    expect(notes.body.data).toMatchObject({ notes: 'Thanks', period_start: '2026-05-01' });
  });
});

describe('the service period of a credit note', () => {
  it("is its invoice's unless given, printed on its PDF; a reversed one is a 400 that writes nothing", async () => {
    const inv = await call('POST', '/invoices', {
      items: [item],
      customer_name: 'Credited',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      status: 'available',
    });
    const inherited = await call('POST', `/invoices/${inv.body.id}/credit-notes`, { amount: 10, reason: 'Outage' });
    expect(inherited.status).toBe(201);
    expect(inherited.body).toMatchObject({ period_start: '2026-01-01', period_end: '2026-01-31' });
    expect((await call('GET', `/credit-notes/${inherited.body.id}`)).body).toMatchObject({ period_start: '2026-01-01' });
    expect(await pdfOf(`/credit-notes/${inherited.body.id}/pdf`)).toContain('Service period 1 Jan 2026 – 31 Jan 2026');

    const own = await call('POST', `/invoices/${inv.body.id}/credit-notes`, {
      amount: 10,
      reason: 'Outage',
      period_start: '2026-01-10',
      period_end: '2026-01-12',
    });
    expect(own.body).toMatchObject({ period_start: '2026-01-10', period_end: '2026-01-12' });
    const viaAjax = await builder.call('billing_create_credit_note', {
      invoice_id: String(inv.body.id),
      amount: '5',
      reason: 'Outage',
      period_start: '2026-01-20',
    });
    expect(viaAjax.body.data.credit_note).toMatchObject({ period_start: '2026-01-20', period_end: '2026-01-31' });

    const before = await written();
    const reversed = await call('POST', `/invoices/${inv.body.id}/credit-notes`, {
      amount: 10,
      reason: 'Outage',
      period_start: '2026-02-01',
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body.data.params).toHaveProperty('period_end');
    expect(await written()).toEqual(before);
    expect((await call('GET', `/invoices/${inv.body.id}`)).body.totals.credited).toBe(25);
  });
});
