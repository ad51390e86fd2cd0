import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let boss: TestUser;
let clerk: TestUser;

beforeAll(async () => {
  k = svc.kernel;
  boss = await svc.makeUser('boss', 'administrator');
  clerk = await svc.makeUser('clerk', 'administrator');
});

function post(path: string, body: unknown, key?: string, who: TestUser = boss) {
  return svc.rest(who).post(path, body, key ? { 'idempotency-key': key } : {});
}

const count = async (table: string) => (await k.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
const invoice = (price: number, status = 'available') => ({
  items: [{ name: 'Work', quantity: 1, price }],
  customer_name: 'Jane Roe',
  status,
});

describe('Idempotency-Key on POSTs that create', () => {
  it('creates an invoice once: the same request again answers the first answer', async () => {
    const before = await count('billing_documents');
    const first = await post('/invoices', invoice(100), 'inv-1');
    expect(first.status).toBe(201);
    const created = first.body;
    // key order differs: the same request all the same
    const again = await post(
      '/invoices',
      { status: 'available', customer_name: 'Jane Roe', items: [{ price: 100, quantity: 1, name: 'Work' }] },
      'inv-1',
    );
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.body).toEqual(created);
    expect(await count('billing_documents')).toBe(before + 1);
  });

  it('refuses the same key with another request: 409 billing_rest_idempotency_mismatch, nothing created', async () => {
    await post('/invoices', invoice(100), 'inv-2');
    const before = await count('billing_documents');
    const other = await post('/invoices', invoice(999), 'inv-2');
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'billing_rest_idempotency_mismatch', data: { status: 409 } });
    // another route with that key is another request too
    const quote = await post('/quotes', invoice(100, 'draft'), 'inv-2');
    expect(quote.status).toBe(409);
    expect(await count('billing_documents')).toBe(before);
  });

  it('creates once when the same request arrives several times at once', async () => {
    const before = await count('billing_documents');
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('/invoices', invoice(55), 'inv-race')));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(answers.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(await count('billing_documents')).toBe(before + 1);
  });

  it('keeps keys per user', async () => {
    const a = (await post('/invoices', invoice(10), 'mine')).body;
    const b = (await post('/invoices', invoice(10), 'mine', clerk)).body;
    expect(a.id).not.toBe(b.id);
  });

  it('stores nothing for a refused request: the corrected request may take its key', async () => {
    const before = await count('billing_documents');
    const bad = await post('/invoices', { items: [{ name: 'Work', quantity: 1, price: 'lots' }] }, 'inv-3');
    expect(bad.status).toBe(400);
    expect(await count("billing_idempotency where key = 'inv-3'")).toBe(0);
    expect((await post('/invoices', invoice(20), 'inv-3')).status).toBe(201);
    expect(await count('billing_documents')).toBe(before + 1);
  });

  it('records a payment, a credit note and a refund once, and refuses a changed retry', async () => {
    const inv = (await post('/invoices', invoice(300), 'inv-pay')).body;
    const pay = { amount: 100, method: 'bank_transfer', status: 'completed' };
    const p1 = await post(`/invoices/${inv.id}/payments`, pay, 'pay-1');
    expect(p1.status).toBe(201);
    const paymentId = p1.body.id;
    const p2 = await post(`/invoices/${inv.id}/payments`, pay, 'pay-1');
    expect(p2.headers.get('idempotent-replayed')).toBe('true');
    expect(p2.body.id).toBe(paymentId);
    expect((await post(`/invoices/${inv.id}/payments`, { ...pay, amount: 50 }, 'pay-1')).status).toBe(409);
    expect(await count(`billing_payments where invoice_id = ${inv.id}`)).toBe(1);

    const c1 = await post(`/invoices/${inv.id}/credit-notes`, { amount: 20, reason: 'discount' }, 'cn-1');
    expect(c1.status).toBe(201);
    const c2 = await post(`/invoices/${inv.id}/credit-notes`, { amount: 20, reason: 'discount' }, 'cn-1');
    expect(c2.body.id).toBe(c1.body.id);
    const c3 = await post(`/invoices/${inv.id}/credit-notes`, { amount: 25, reason: 'discount' }, 'cn-1');
    expect(c3.status).toBe(409);
    expect(c3.body.code).toBe('billing_rest_idempotency_mismatch');
    expect(await count(`billing_documents where kind = 'credit_note' and (invoice_id = ${inv.id} or parent_id = ${inv.id})`)).toBe(1);

    // the reproduction: a refund's key reused with another amount was answered with the first refund
    expect((await post(`/payments/${paymentId}/refund`, { amount: 10, reason: 'goodwill' }, 'ref-1')).status).toBe(200);
    const changed = await post(`/payments/${paymentId}/refund`, { amount: 30, reason: 'goodwill' }, 'ref-1');
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('billing_rest_idempotency_mismatch');
    expect((await k.api.payments.get(paymentId)).refunded).toBe('10.00');
  });

  it('refuses a payment transaction_id recorded before with another amount (409), and answers the same one for the same', async () => {
    const inv = (await post('/invoices', invoice(300), 'inv-txn')).body;
    const pay = { amount: 100, method: 'bank_transfer', status: 'completed', transaction_id: 'BANK-42' };
    const first = (await post(`/invoices/${inv.id}/payments`, pay)).body;
    const same = await post(`/invoices/${inv.id}/payments`, pay);
    expect(same.status).toBeLessThan(300);
    expect(same.body.id).toBe(first.id);
    const other = await post(`/invoices/${inv.id}/payments`, { ...pay, amount: 150 });
    expect(other.status).toBe(409);
    const body = other.body;
    expect(body.code).toBe('billing_rest_idempotency_mismatch');
    expect(body.message).toContain('BANK-42');
    expect(await count(`billing_payments where invoice_id = ${inv.id}`)).toBe(1);
  });

  it('refuses a malformed key with a 400 and creates nothing', async () => {
    const before = await count('billing_documents');
    const res = await post('/invoices', invoice(1), 'has spaces');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(await count('billing_documents')).toBe(before);
  });
});
