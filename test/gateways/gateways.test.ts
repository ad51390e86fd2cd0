import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { deliver as post, useService } from '../../testing/index.ts';
import { DRIVERS, sentToGateway, type Driver } from './drivers.ts';

/**
 * What gateways A–E share, run over each of them through real HTTP against its fake gateway (a local
 * HTTP server keeping a ledger): the pay route, a webhook applied once however often it comes, bad
 * signatures, unknown payments, mismatched amounts, a failure after success, refunds, a gateway API that
 * fails, and reconciliation — alone and racing the webhook of the same payment.
 */
const svc = useService();
let k: Kernel;
const drivers: Record<string, Driver> = {};

beforeAll(async () => {
  k = svc.kernel;
  for (const [name, make] of Object.entries(DRIVERS)) {
    const d = await make();
    drivers[name] = d;
    await k.plugins.activate(d.plugin, CLI);
    await d.configure(k);
  }
});

// after useService's afterAll: the service stops before the fake gateways
afterAll(async () => {
  for (const d of Object.values(drivers)) await d.fake.close();
});

async function invoice(total = '120.00') {
  const doc = await k.api.invoices.create(
    {
      items: [{ name: 'Design', quantity: 1, price: total, taxable: false }],
      customer_name: 'Ann Buyer',
      customer_email: 'ann@example.com',
      status: 'available',
    },
    { actor: CLI, source: 'api' },
  );
  return { doc, key: await k.api.invoices.accessKey(doc.id) };
}

const pay = (id: number, key: string, gateway: string) =>
  fetch(`${k.url}/billing/invoice/${id}/pay?key=${encodeURIComponent(key)}`, {
    method: 'POST',
    body: new URLSearchParams({ gateway }),
    redirect: 'manual',
  });

const payments = (invoiceId: number) =>
  k.db.query<{ reference: string; status: string; amount: string; refunded: string; review: string | null }>(
    `select reference, status, amount::text, refunded::text, review from billing_payments where invoice_id = $1 order by id`,
    [invoiceId],
  );

async function totals(id: number) {
  const inv = await k.api.invoices.get(id);
  return [inv.status, inv.totals.paid, inv.totals.due];
}

const count = async (table: string) => Number((await k.db.query<{ n: string }>(`select count(*) n from ${table}`))[0]!.n);

describe.each(Object.keys(DRIVERS))('gateway %s', (name) => {
  const d = () => drivers[name]!;

  const deliver = (body: string, headers: Record<string, string> = d().headers(body)) => post(k.url, d().webhook, body, headers);

  /** An invoice with a pending payment of this gateway, made through the pay route. */
  async function pending(total = '120.00') {
    const { doc, key } = await invoice(total);
    expect(await sentToGateway(await pay(doc.id, key, d().method), d())).toBe(true);
    const [p] = await payments(doc.id);
    return { doc, key, reference: p!.reference };
  }

  it('pay route: one creation call carrying the reference and the credentials, then a 303 to the hosted page', async () => {
    const { doc, key } = await invoice('120.00');
    const page = await (await fetch(`${k.url}/billing/invoice/${doc.id}?key=${encodeURIComponent(key)}`)).text();
    expect(page).toContain(`value="${d().method}"`);
    const before = d().fake.requests(d().creation).length;
    const res = await pay(doc.id, key, d().method);
    expect(await sentToGateway(res, d())).toBe(true);
    const [p] = await payments(doc.id);
    expect(p).toMatchObject({ status: 'pending', amount: '120.00' });
    const calls = d().fake.requests(d().creation);
    expect(calls.length).toBe(before + 1);
    const held = d().ledger.get(p!.reference)!;
    expect(held).toMatchObject({ minor: 12000, currency: 'USD' });
    d().checkCreation(calls.at(-1)!, held, expect);
  });

  it('a valid webhook completes the payment once, even delivered 10 times at once', async () => {
    const { doc, reference } = await pending('120.00');
    const body = d().paid(reference);
    const headers = d().headers(body);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(body, headers)));
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array(10).fill([200, { success: true }]));
    expect((await payments(doc.id)).map((p) => [p.status, p.amount])).toEqual([['completed', '120.00']]);
    expect(await totals(doc.id)).toEqual(['paid', '120.00', '0.00']);
    const applied = await k.db.query(
      'select 1 from billing_payment_events e join billing_payments p on p.id = e.payment_id where p.reference = $1',
      [reference],
    );
    expect(applied.length).toBe(1);
  });

  it('refuses a tampered body and a wrong or missing signature (401), storing nothing', async () => {
    if (!d().signed) return; // B carries no signature: gateway-b.test.ts shows that a forged body changes nothing
    const { doc, reference } = await pending('80.00');
    const body = d().paid(reference);
    const inbox = await count('billing_gateway_deliveries');
    const tampered = body.replace('8000', '8001').replace('80', '81');
    expect(tampered).not.toBe(body);
    for (const [b, h] of [
      [tampered, d().headers(body)],
      [body, d().headers(body, true)],
      [body, {}],
    ] as const) {
      expect(await deliver(b, h)).toEqual({
        status: 401,
        body: { success: false, data: { code: 'billing_invalid_signature', message: expect.any(String) } },
      });
    }
    expect(await count('billing_gateway_deliveries')).toBe(inbox);
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['pending']);
  });

  it('answers 200 for a payment it does not know, and writes no payment', async () => {
    const before = await count('billing_payments');
    const events = await count('billing_payment_events');
    const body = d().unknown();
    expect(await deliver(body)).toEqual({ status: 200, body: { success: true } });
    expect([await count('billing_payments'), await count('billing_payment_events')]).toEqual([before, events]);
  });

  it('marks a payment confirmed with another amount for review and completes nothing', async () => {
    const { doc, reference } = await pending('120.00');
    expect((await deliver(d().paid(reference, { minor: 11999 }))).status).toBe(200);
    const [p] = await payments(doc.id);
    expect(p).toMatchObject({ status: 'pending', review: expect.stringContaining('119.99') });
    expect(await totals(doc.id)).toEqual(['available', '0.00', '120.00']);
  });

  it('ignores a failure that comes after the success', async () => {
    const { doc, reference } = await pending('60.00');
    expect((await deliver(d().paid(reference))).status).toBe(200);
    const failure = d().failed(reference);
    if (failure) expect((await deliver(failure)).status).toBe(200);
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['completed']);
    expect(await totals(doc.id)).toEqual(['paid', '60.00', '0.00']);
  });

  it('records a partial and then a full refund, exactly', async () => {
    const { doc, reference } = await pending('120.00');
    await deliver(d().paid(reference));
    const partial = d().refunded(reference, 2000);
    expect((await deliver(partial)).status).toBe(200);
    expect((await deliver(partial)).status).toBe(200); // the same refund again counts once
    expect((await payments(doc.id))[0]).toMatchObject({ status: 'completed', refunded: '20.00' });
    expect(await totals(doc.id)).toEqual(['partial', '100.00', '20.00']);
    expect((await deliver(d().refunded(reference, 10000))).status).toBe(200);
    expect((await payments(doc.id))[0]).toMatchObject({ status: 'refunded', refunded: '120.00' });
    expect((await totals(doc.id)).slice(1)).toEqual(['0.00', '120.00']);
  });

  it('answers the customer 503 while the gateway API fails, and a retry works without doubling', async () => {
    const { doc, key } = await invoice('75.00');
    d().fake.failing = 500;
    const down = await pay(doc.id, key, d().method);
    d().fake.failing = null;
    expect(down.status).toBe(503);
    expect(await down.text()).toContain('Nothing was charged.');
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['cancelled']);
    expect(await sentToGateway(await pay(doc.id, key, d().method), d())).toBe(true);
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['cancelled', 'pending']);
  });

  it('pays part of the invoice when partial payments are on: the gateway is asked for that amount', async () => {
    await k.options.set('allow_partial_payments', true, CLI);
    try {
      const { doc, key } = await invoice('120.00');
      const res = await fetch(`${k.url}/billing/invoice/${doc.id}/pay?key=${encodeURIComponent(key)}`, {
        method: 'POST',
        body: new URLSearchParams({ gateway: d().method, amount: '50.00' }),
        redirect: 'manual',
      });
      expect(await sentToGateway(res, d())).toBe(true);
      const [p] = await payments(doc.id);
      expect(p).toMatchObject({ status: 'pending', amount: '50.00' });
      const held = d().ledger.get(p!.reference)!;
      d().checkCreation(d().fake.requests(d().creation).at(-1)!, held, expect);
      expect(held.minor).toBe(5000);
      expect((await deliver(d().paid(p!.reference))).status).toBe(200);
      expect(await totals(doc.id)).toEqual(['partial', '50.00', '70.00']);
    } finally {
      await k.options.set('allow_partial_payments', false, CLI);
    }
  });

  it('reconciliation settles a payment whose webhook never came', async () => {
    const { doc, reference } = await pending('64.00');
    d().paid(reference); // paid at the gateway; the webhook is lost
    const outcome = await k.jobs.runNow(d().job);
    expect(outcome).toMatchObject({ ran: true, status: 'succeeded' });
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['completed']);
    expect(await totals(doc.id)).toEqual(['paid', '64.00', '0.00']);
    // the gateway still down for a look-up: the job reports it and nothing changes
    const other = await pending('10.00');
    d().fake.failing = 500;
    const failed = await k.jobs.runNow(d().job);
    d().fake.failing = null;
    expect(failed).toMatchObject({ ran: true, result: { unreachable: expect.any(Number) } });
    expect((await payments(other.doc.id)).map((p) => p.status)).toEqual(['pending']);
  });

  it('twenty pays at once leave one pending checkout, and two completions book no more than is due', async () => {
    const { doc, key } = await invoice('100.00');
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(doc.id, key, d().method)));
    for (const a of answers) expect(await sentToGateway(a, d())).toBe(true);
    const made = await payments(doc.id);
    expect(made.map((p) => p.status).sort()).toEqual([...Array(19).fill('cancelled'), 'pending']);
    // the customer paid in two tabs: the open checkout's money and a replaced one's both arrive
    const open = made.find((p) => p.status === 'pending')!;
    const replaced = made.find((p) => p.status === 'cancelled')!;
    expect((await deliver(d().paid(open.reference))).status).toBe(200);
    expect((await deliver(d().paid(replaced.reference))).status).toBe(200);
    expect(await totals(doc.id)).toEqual(['paid', '100.00', '0.00']);
    const after = await payments(doc.id);
    expect(after.find((p) => p.reference === open.reference)).toMatchObject({ status: 'completed', review: null });
    // recorded, not counted: held for a person to refund or accept
    expect(after.find((p) => p.reference === replaced.reference)).toMatchObject({
      status: 'cancelled',
      review: 'overpaid: received 100.00 USD when 0.00 was due',
    });
    // and the invoice takes no new checkout
    const again = await pay(doc.id, key, d().method);
    expect(again.status).toBe(409);
  });

  it('a refund and a failure reach money its success events recorded without a reference of ours', async () => {
    const { doc } = await invoice('90.00');
    const outside = d().outside?.bind(d());
    if (!outside) {
      // this gateway's success events only complete a payment named by our reference: none is created
      const before = await count('billing_payments');
      expect((await deliver(d().unknown())).status).toBe(200);
      expect(await count('billing_payments')).toBe(before);
      return;
    }
    const { key, body } = outside(doc.id, 9000);
    expect((await deliver(body)).status).toBe(200);
    const [made] = await payments(doc.id);
    expect(made).toMatchObject({ status: 'completed', amount: '90.00' });
    const partial = d().refunded(key, 3000);
    expect((await deliver(partial)).status).toBe(200);
    expect((await deliver(partial)).status).toBe(200); // counted once
    expect((await payments(doc.id))[0]).toMatchObject({ status: 'completed', refunded: '30.00' });
    expect(await totals(doc.id)).toEqual(['partial', '60.00', '30.00']);
    const failure = d().failed(key);
    if (failure) {
      expect((await deliver(failure)).status).toBe(200);
      // it reached the payment, which, having received money, does not go back
      const noted = await k.db.query(
        `select 1 from billing_audit_log a join billing_payments p on a.object_id = p.id::text
          where a.action = 'payment.fail_ignored' and p.reference = $1`,
        [made!.reference],
      );
      expect(noted.length).toBe(1);
    }
    expect((await deliver(d().refunded(key, 6000))).status).toBe(200);
    expect((await payments(doc.id))[0]).toMatchObject({ status: 'refunded', refunded: '90.00' });
    expect(await totals(doc.id)).toEqual(['unpaid', '0.00', '90.00']);
  });

  it('a webhook and reconciliation reporting the same payment at once count it once', async () => {
    const { doc, reference } = await pending('48.00');
    const body = d().paid(reference);
    const [answer] = await Promise.all([deliver(body), k.jobs.runNow(d().job), deliver(body)]);
    expect(answer!.status).toBe(200);
    expect((await payments(doc.id)).map((p) => [p.status, p.amount])).toEqual([['completed', '48.00']]);
    expect(await totals(doc.id)).toEqual(['paid', '48.00', '0.00']);
  });
});
