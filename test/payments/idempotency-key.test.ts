import { describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { useService, type RestClient } from '../../testing/index.ts';

const svc = useService();

/** A cashier's REST client and a completed payment of 100 of its own: each test runs alone. */
async function paid(login: string): Promise<{ rest: RestClient; paymentId: number }> {
  const rest = svc.rest(await svc.makeUser(login, 'administrator'));
  const invoice = await svc.kernel.api.invoices.create(
    { items: [{ name: 'Work', quantity: 1, price: 100 }], status: 'available' },
    { actor: CLI, source: 'api' },
  );
  const { payment } = await svc.kernel.api.payments.record(invoice.id, { amount: 100, method: 'bank_transfer', status: 'completed' }, CLI);
  return { rest, paymentId: payment.id };
}

const refund = (rest: RestClient, paymentId: number, amount: number, key?: string) =>
  rest.post(`/payments/${paymentId}/refund`, { amount, reason: 'goodwill' }, key ? { 'idempotency-key': key } : {});

describe('POST /payments/{id}/refund with Idempotency-Key', () => {
  it('refunds once however often the same request is retried, even at once', async () => {
    const { rest, paymentId } = await paid('cashier-retry');
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(rest, paymentId, 10, 'retry-me-1')));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    for (const r of answers) expect(r.body.refunded).toBe(10);
    expect((await svc.kernel.api.payments.get(paymentId)).refunded).toBe('10.00');
  });

  it('treats another key, or none, as another refund', async () => {
    const { rest, paymentId } = await paid('cashier-other');
    expect((await refund(rest, paymentId, 10, 'retry-me-1')).body.refunded).toBe(10);
    expect((await refund(rest, paymentId, 5, 'retry-me-2')).body.refunded).toBe(15);
    expect((await refund(rest, paymentId, 5)).body.refunded).toBe(20);
    const invoice = await svc.kernel.api.invoices.get((await svc.kernel.api.payments.get(paymentId)).invoiceId);
    expect(invoice.totals.paid).toBe('80.00');
  });

  it('refuses a malformed key with a 400 and refunds nothing', async () => {
    const { rest, paymentId } = await paid('cashier-bad-key');
    const res = await refund(rest, paymentId, 5, 'has spaces in it');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect((await svc.kernel.api.payments.get(paymentId)).refunded).toBe('0.00');
  });
});
