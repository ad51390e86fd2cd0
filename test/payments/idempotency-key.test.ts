import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { json } from '../helpers/http.ts';
import { bootKernel } from '../helpers/kernel.ts';
import { makeUser, type TestUser } from '../identity/support.ts';

let db: TestDatabase;
let k: Kernel;
let admin: TestUser;
let paymentId: number;

beforeAll(async () => {
  db = await freshDatabase();
  k = await bootKernel(db.url);
  admin = await makeUser(k, 'cashier', 'administrator');
  const invoice = await k.api.invoices.create(
    { items: [{ name: 'Work', quantity: 1, price: 100 }], status: 'available' },
    { actor: CLI, source: 'api' },
  );
  const { payment } = await k.api.payments.record(invoice.id, { amount: 100, method: 'bank_transfer', status: 'completed' }, CLI);
  paymentId = payment.id;
});

afterAll(async () => {
  await k?.stop();
  await db?.drop();
});

const refund = (amount: number, key?: string) =>
  fetch(`${k.url}/wp-json/billing/v1/payments/${paymentId}/refund`, {
    method: 'POST',
    headers: { authorization: admin.authorization, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ amount, reason: 'goodwill' }),
  });

describe('POST /payments/{id}/refund with Idempotency-Key', () => {
  it('refunds once however often the same request is retried, even at once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(10, 'retry-me-1')));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const bodies = await Promise.all(answers.map(json));
    for (const b of bodies) expect(b.refunded).toBe(10);
    expect((await k.api.payments.get(paymentId)).refunded).toBe('10.00');
  });

  it('treats another key, or none, as another refund', async () => {
    expect((await json(await refund(5, 'retry-me-2'))).refunded).toBe(15);
    expect((await json(await refund(5))).refunded).toBe(20);
    const invoice = await k.api.invoices.get((await k.api.payments.get(paymentId)).invoiceId);
    expect(invoice.totals.paid).toBe('80.00');
  });

  it('refuses a malformed key with a 400 and refunds nothing', async () => {
    const res = await refund(5, 'has spaces in it');
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe('rest_invalid_param');
    expect((await k.api.payments.get(paymentId)).refunded).toBe('20.00');
  });
});
