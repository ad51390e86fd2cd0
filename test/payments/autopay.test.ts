// Saved payment methods and autopay (docs/payments.md, Autopay) over real HTTP against gateways A and B
// faked as real local HTTP servers (cards and off-session PaymentIntents; customers, mandates and
// recurring payments), with the recurring addon's jobs run by hand and the clock moved by moving the
// attempts' dates back: a card saved through the pay page, monthly autopay across three months with a
// decline that succeeds on retry, duplicates and a racing reconcile, the 1-3-7 retries and the hand-over
// to the reminders, payment by other means, removal, B's mandate, and no token in any REST body.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { timestamp } from '../../core/db/database.ts';
import type { Kernel } from '../../core/kernel.ts';
import { siteDate } from '../../core/time/site-time.ts';
import { deliver, useService, waitFor, type RestClient, type TestUser } from '../../testing/index.ts';
import { gatewayA, gatewayB, type Driver } from '../gateways/drivers.ts';

const GENERATE = 'billing_generate_recurring_invoices';
const RETRIES = 'billing_autopay_retries';
const svc = useService({ mail: true, plugins: ['recurring', 'reminders'], options: { company_email: 'office@example.com' } });
let k: Kernel;
let admin: TestUser;
/** Every REST call of this file goes through this one client, which keeps every body it received (`seen`). */
let api: RestClient;
let A: Driver;
let B: Driver;

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  api = svc.rest(admin);
  for (const make of [gatewayA, gatewayB]) {
    const d = await make();
    await k.plugins.activate(d.plugin, CLI);
    await d.configure(k);
    if (d.name === 'A') A = d;
    else B = d;
  }
});

// after useService's afterAll: the service stops before the fake gateways
afterAll(async () => {
  await A?.fake.close();
  await B?.fake.close();
});

const rest = (method: string, path: string, body?: unknown) => api.request(method, path, body);
const today = () => siteDate(new Date(), 'UTC');
function monthsAgo(months: number): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}
const webhook = (d: Driver, body: string) => deliver(k.url, d.webhook, body, d.headers(body));

/** A client whose card (A) or mandate (B) is saved the way a customer saves one: paying an invoice with the box ticked. */
async function savedClient(login: string, d: Driver): Promise<{ client: TestUser; label: string }> {
  const client = await svc.makeUser(login, 'billing_client');
  const doc = await k.api.invoices.create(
    { client_id: client.id, items: [{ name: 'Setup', quantity: 1, price: '10.00', taxable: false }], status: 'available' },
    { actor: CLI, source: 'api' },
  );
  const key = await k.api.invoices.accessKey(doc.id);
  const page = await (await fetch(`${k.url}/billing/invoice/${doc.id}?key=${encodeURIComponent(key)}`)).text();
  expect(page).toContain('Save for future invoices');
  const res = await fetch(`${k.url}/billing/invoice/${doc.id}/pay?key=${encodeURIComponent(key)}`, {
    method: 'POST',
    body: new URLSearchParams({ gateway: d.method, save_method: '1' }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const [p] = await k.db.query<{ reference: string }>('select reference from billing_payments where invoice_id = $1', [doc.id]);
  // nothing is saved from the browser's side: only the verified success does it
  expect((await rest('GET', `/clients/${client.id}/payment-methods`)).body).toEqual([]);
  expect((await webhook(d, d.paid(p!.reference))).status).toBe(200);
  const methods = (await rest('GET', `/clients/${client.id}/payment-methods`)).body as any[];
  expect(methods).toHaveLength(1);
  expect(methods[0]).toEqual({ id: expect.any(Number), gateway: d.method, label: expect.any(String), created: expect.any(String) });
  return { client, label: methods[0].label };
}

/** A monthly auto_charge profile for `client`, its first invoice `months` months back (as if saved then). */
async function autopayProfile(client: TestUser, months: number, price = '25.00'): Promise<number> {
  const p = await rest('POST', '/recurring', {
    template: { client_id: client.id, items: [{ name: 'Hosting', quantity: 1, price, taxable: false }] },
    frequency: 'monthly',
    start_date: today(),
    auto_charge: true,
  });
  expect(p.status).toBe(201);
  expect(p.body.auto_charge).toBe(true);
  const start = months ? monthsAgo(months) : today();
  await k.db.query(`update recurring_profiles set start_date = $2, next_date = $2, next_period = 0 where id = $1`, [p.body.id, start]);
  return p.body.id;
}

const attempts = (profileId: number) =>
  k.db.query<{
    invoice_id: string;
    attempt: number;
    status: string;
    payment_reference: string | null;
    note: string | null;
    due_at: string;
  }>(
    `select invoice_id, attempt, status, payment_reference, note, due_at from recurring_autopay_attempts where profile_id = $1 order by invoice_id, attempt`,
    [profileId],
  );

/** Waits until no attempt of the profile is still waiting for the outbox to charge it. */
const charged = (profileId: number) =>
  waitFor(async () => (await attempts(profileId)).every((a) => a.status !== 'scheduled'), {
    what: 'the charges to be made',
    timeoutMs: 15000,
  });

/** The gateway's webhook for every submitted charge, delivered `times` times at once, with a reconcile racing them. */
async function answerCharges(d: Driver, profileId: number, times = 1) {
  const submitted = (await attempts(profileId)).filter((a) => a.status === 'submitted');
  await Promise.all([
    ...submitted.flatMap((a) => Array.from({ length: times }, () => webhook(d, d.saving!.outcome(a.payment_reference!)))),
    k.jobs.runNow(d.job),
  ]);
}

/** Moves the clock: every scheduled retry of the profile falls due now. */
const timePasses = (profileId: number) =>
  k.db.query(`update recurring_autopay_attempts set due_at = now() - interval '1 second' where profile_id = $1 and status = 'scheduled'`, [
    profileId,
  ]);

const completedPayments = (invoiceId: number) =>
  k.db.query<{ reference: string }>(`select reference from billing_payments where invoice_id = $1 and status = 'completed'`, [invoiceId]);

describe('autopay with gateway A', () => {
  it('done when: a card saved through the pay page, monthly autopay over three months with one decline that succeeds on retry — three paid invoices, one payment each, under 10 duplicate deliveries and a racing reconcile', async () => {
    const { client, label } = await savedClient('card-owner', A);
    expect(label).toBe('Visa •••• 4242');
    const profile = await autopayProfile(client, 2);
    A.saving!.declineNext = 1;
    const chargesBefore = A.fake.requests('POST /v1/payment_intents').length;
    expect((await k.jobs.runNow(GENERATE)).status).toBe('succeeded');
    await charged(profile);
    const first = await attempts(profile);
    expect(first.map((a) => [a.attempt, a.status])).toEqual([
      [0, 'submitted'],
      [0, 'submitted'],
      [0, 'submitted'],
    ]);
    // one off-session intent per charge, on the saved card, keyed by our reference
    const calls = A.fake.requests('POST /v1/payment_intents').slice(chargesBefore);
    expect(calls).toHaveLength(3);
    for (const c of calls) {
      expect(c.json).toMatchObject({ off_session: 'true', confirm: 'true', customer: expect.stringMatching(/^cus_/) });
      expect(c.headers['idempotency-key']).toBe(c.json['metadata[billing_payment_reference]']);
    }
    await answerCharges(A, profile, 10);
    expect((await k.jobs.runNow(RETRIES)).status).toBe('succeeded');
    let rows = await attempts(profile);
    expect(rows.filter((a) => a.status === 'succeeded')).toHaveLength(2);
    const declined = rows.find((a) => a.status === 'failed')!;
    const retry = rows.find((a) => a.status === 'scheduled')!;
    expect(retry).toMatchObject({ invoice_id: declined.invoice_id, attempt: 1 });
    // due one day after the first charge: not before
    expect(timestamp(retry.due_at)!.getTime() - timestamp(declined.due_at)!.getTime()).toBe(86_400_000);
    await k.jobs.runNow(RETRIES);
    expect((await attempts(profile)).find((a) => a.attempt === 1)!.status).toBe('scheduled');

    await timePasses(profile);
    await k.jobs.runNow(RETRIES);
    await charged(profile);
    await answerCharges(A, profile, 10);
    await k.jobs.runNow(RETRIES);
    rows = await attempts(profile);
    expect(rows.map((a) => a.status).sort()).toEqual(['failed', 'succeeded', 'succeeded', 'succeeded']);

    const invoices = (await rest('GET', `/invoices?recurring_id=${profile}&per_page=100`)).body as any[];
    expect(invoices).toHaveLength(3);
    for (const inv of invoices) {
      expect(inv.status).toBe('paid');
      expect(await completedPayments(inv.id)).toHaveLength(1);
    }
    // visible on the profile and its own list
    const p = await rest('GET', `/recurring/${profile}`);
    expect(p.body.last_autopay).toMatchObject({ status: 'succeeded' });
    const listed = ((await rest('GET', '/recurring')).body as any[]).find((x) => x.id === profile);
    expect(listed.last_autopay).toEqual(p.body.last_autopay);
    const list = await rest('GET', `/recurring/${profile}/autopay`);
    expect(list.body).toHaveLength(4);
  }, 60000);

  it('a declined charge is retried after 1, 3 and 7 days, then the invoice is left to the reminders', async () => {
    const { client } = await savedClient('always-declined', A);
    const profile = await autopayProfile(client, 0);
    A.saving!.declineNext = 4;
    await k.jobs.runNow(GENERATE);
    for (const days of [1, 3, 7]) {
      await charged(profile);
      await answerCharges(A, profile);
      await k.jobs.runNow(RETRIES);
      const rows = await attempts(profile);
      const first = rows.find((a) => a.attempt === 0)!;
      const next = rows.find((a) => a.status === 'scheduled')!;
      expect(timestamp(next.due_at)!.getTime() - timestamp(first.due_at)!.getTime()).toBe(days * 86_400_000);
      await timePasses(profile);
      await k.jobs.runNow(RETRIES);
    }
    await charged(profile);
    await answerCharges(A, profile);
    await k.jobs.runNow(RETRIES);
    const rows = await attempts(profile);
    expect(rows.map((a) => [a.attempt, a.status])).toEqual([
      [0, 'failed'],
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
    ]);
    expect(rows[3]!.note).toMatch(/left to the reminders/);
    await timePasses(profile);
    await k.jobs.runNow(RETRIES);
    expect(await attempts(profile)).toHaveLength(4);
    // the reminders take over: the invoice, past due, gets its reminder
    const invoiceId = Number(rows[0]!.invoice_id);
    await k.db.query(`update billing_documents set issue_date = issue_date - 40, due_date = due_date - 40 where id = $1`, [invoiceId]);
    await k.jobs.runNow('billing_send_payment_reminders');
    await waitFor(() => svc.mail.received.find((m) => m.envelope.to.includes(client.email)), { what: 'the reminder', timeoutMs: 15000 });
  }, 60000);

  it('a payment by other means stops the retries', async () => {
    const { client } = await savedClient('pays-by-bank', A);
    const profile = await autopayProfile(client, 0);
    A.saving!.declineNext = 1;
    await k.jobs.runNow(GENERATE);
    await charged(profile);
    await answerCharges(A, profile);
    await k.jobs.runNow(RETRIES);
    const [first] = await attempts(profile);
    const paid = await rest('POST', `/invoices/${first!.invoice_id}/payments`, {
      amount: 25,
      method: 'bank_transfer',
      status: 'completed',
    });
    expect([paid.status, paid.body.message]).toEqual([201, undefined]);
    const before = A.fake.requests('POST /v1/payment_intents').length;
    await timePasses(profile);
    await k.jobs.runNow(RETRIES);
    await charged(profile);
    const rows = await attempts(profile);
    expect(rows[1]).toMatchObject({ attempt: 1, status: 'skipped', payment_reference: null });
    expect(A.fake.requests('POST /v1/payment_intents').length).toBe(before);
    expect(await completedPayments(Number(first!.invoice_id))).toHaveLength(1);
  }, 60000);

  it('a charge the gateway never answers is expired after 48 hours and not charged again (a slow debit could still arrive)', async () => {
    const { client } = await savedClient('silent-gateway', A);
    const profile = await autopayProfile(client, 0);
    await k.jobs.runNow(GENERATE);
    await charged(profile);
    const [first] = await attempts(profile);
    await k.db.query(`update billing_payments set created_at = created_at - interval '49 hours' where reference = $1`, [
      first!.payment_reference,
    ]);
    await k.jobs.runNow('billing_gateway_cleanup');
    await k.jobs.runNow(RETRIES);
    await timePasses(profile);
    await k.jobs.runNow(RETRIES);
    expect(await attempts(profile)).toMatchObject([{ attempt: 0, status: 'failed', note: expect.stringMatching(/not retried/) }]);
  }, 60000);

  it('removing the saved method stops autopay; the removal is the staff route (and the service function the portal will use)', async () => {
    const { client } = await savedClient('removes-card', A);
    const [pm] = (await rest('GET', `/clients/${client.id}/payment-methods`)).body as any[];
    expect((await rest('DELETE', `/clients/${client.id}/payment-methods/${pm.id}`)).body).toEqual({ deleted: true, previous: pm });
    expect((await rest('DELETE', `/clients/${client.id}/payment-methods/${pm.id}`)).status).toBe(404);
    expect((await rest('GET', `/clients/${client.id}/payment-methods`)).body).toEqual([]);
    const profile = await autopayProfile(client, 0);
    const before = A.fake.requests('POST /v1/payment_intents').length;
    await k.jobs.runNow(GENERATE);
    await charged(profile);
    expect(await attempts(profile)).toMatchObject([{ attempt: 0, status: 'skipped', note: 'no saved payment method' }]);
    expect(A.fake.requests('POST /v1/payment_intents').length).toBe(before);
  }, 60000);
});

describe('autopay with gateway B', () => {
  it('a first payment makes a mandate; recurring payments on it pay each invoice once, under duplicate notifications', async () => {
    const { client, label } = await savedClient('mandate-owner', B);
    expect(label).toBe('SEPA mandate NL•• 4300');
    const first = B.fake.requests('POST /v2/payments').at(-1)!;
    expect(first.json).toMatchObject({ sequenceType: 'first', customerId: expect.stringMatching(/^cst_/) });
    const profile = await autopayProfile(client, 1);
    await k.jobs.runNow(GENERATE);
    await charged(profile);
    const recurring = B.fake.requests('POST /v2/payments').filter((r) => r.json.sequenceType === 'recurring');
    expect(recurring).toHaveLength(2);
    expect(recurring[0]!.json).toMatchObject({ customerId: first.json.customerId, mandateId: expect.stringMatching(/^mdt_/) });
    await answerCharges(B, profile, 10);
    await k.jobs.runNow(RETRIES);
    expect((await attempts(profile)).map((a) => a.status)).toEqual(['succeeded', 'succeeded']);
    for (const a of await attempts(profile)) expect(await completedPayments(Number(a.invoice_id))).toHaveLength(1);
  }, 60000);
});

describe('what is saved', () => {
  it('a payment whose checkout did not ask saves nothing, even when the gateway reports a saved card', async () => {
    const client = await svc.makeUser('no-box', 'billing_client');
    const doc = await k.api.invoices.create(
      { client_id: client.id, items: [{ name: 'Once', quantity: 1, price: '5.00', taxable: false }], status: 'available' },
      { actor: CLI, source: 'api' },
    );
    const key = await k.api.invoices.accessKey(doc.id);
    const res = await fetch(`${k.url}/billing/invoice/${doc.id}/pay?key=${encodeURIComponent(key)}`, {
      method: 'POST',
      body: new URLSearchParams({ gateway: A.method }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(A.fake.requests('POST /v1/checkout/sessions').at(-1)!.json['payment_intent_data[setup_future_usage]']).toBeUndefined();
    const [p] = await k.db.query<{ reference: string }>('select reference from billing_payments where invoice_id = $1', [doc.id]);
    // the gateway's side claims a card was kept for this payment all the same
    Object.assign(A.ledger.get(p!.reference)!, { save: 'first', customer: 'cus_claimed' });
    expect((await webhook(A, A.paid(p!.reference))).status).toBe(200);
    expect((await k.api.invoices.get(doc.id)).status).toBe('paid');
    expect((await rest('GET', `/clients/${client.id}/payment-methods`)).body).toEqual([]);
  });
});

describe('what leaves the service', () => {
  it("an autopay invoice's pay page says it saves; no REST body ever carried a saved method's gateway token", async () => {
    // a client with no saved method yet: the charge is skipped and the invoice waits, its page offering to save
    const profile = await autopayProfile(await svc.makeUser('new-subscriber', 'billing_client'), 0);
    await k.jobs.runNow(GENERATE);
    await charged(profile);
    const id = Number((await attempts(profile))[0]!.invoice_id);
    const key = await k.api.invoices.accessKey(id);
    const page = await (await fetch(`${k.url}/billing/invoice/${id}?key=${encodeURIComponent(key)}`)).text();
    expect(page).toContain('paid automatically');
    const tokens = await k.db.query<{ token: string; gateway_customer: string | null }>(
      'select token, gateway_customer from billing_payment_methods',
    );
    expect(tokens.length).toBeGreaterThan(0);
    const seen = api.seen.join('\n');
    expect(seen).toContain('"label":"Visa •••• 4242"');
    for (const t of tokens) {
      expect(seen).not.toContain(t.token);
      if (t.gateway_customer) expect(seen).not.toContain(t.gateway_customer);
    }
  });
});
