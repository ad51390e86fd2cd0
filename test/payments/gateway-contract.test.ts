import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import pg from 'pg';
import {
  FakeGateway,
  TestService,
  bootKernel,
  deliver as post,
  useService,
  usingPostgres,
  waitFor,
  type TestUser,
} from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

/**
 * The gateway provider contract over real HTTP (docs/gateways.md), with the worked example plugin of
 * test/fixtures/plugins/example-gateway against a fake Example Pay running as a local HTTP server: the
 * core owns the pay route, the webhook and its answers, the keys, the origin and reconciliation.
 */
const SECRET = 'whsec_example_0123456789';
const METHOD = 'gateway_example';
const WEBHOOK = `billing_${METHOD}_webhook`;

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS] });
let k: Kernel;
let other: Kernel;
let fake: FakeGateway;
let admin: TestUser;
let events = 0;

const sign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');

function event(type: string, reference: string, amount: number, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ id: `evt_${++events}`, type, data: { reference, amount, currency: 'usd', ...extra } });
}

function deliver(body: string, signature: string | null = sign(body), on: Kernel = k) {
  return post(on.url, WEBHOOK, body, signature === null ? {} : { 'x-example-signature': signature });
}

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

async function pay(id: number, key: string, fields: Record<string, string> = { gateway: METHOD }) {
  return fetch(`${k.url}/billing/invoice/${id}/pay?key=${encodeURIComponent(key)}`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
}

const payments = (invoiceId: number) =>
  k.db.query<{ reference: string; status: string; amount: string; transaction_id: string | null }>(
    `select reference, status, amount::text, transaction_id from billing_payments where invoice_id = $1 order by id`,
    [invoiceId],
  );

async function inbox() {
  return k.db.query<{ id: string; status: string; outcomes: any }>(
    'select id, status, outcomes from billing_gateway_deliveries order by id',
  );
}

beforeAll(async () => {
  k = svc.kernel;
  fake = await new FakeGateway().start();
  let checkouts = 0;
  fake.on('POST /checkouts', (req) => ({
    status: 201,
    body: { id: `co_${++checkouts}`, url: `${fake.url}/hosted/co_${checkouts}?ref=${req.json.reference}` },
  }));
  other = await bootKernel(svc.databaseUrl, { pluginDirs: [FIXTURE_PLUGINS] });
  svc.beforeStop(() => other.stop());
  admin = await svc.makeUser('boss', 'administrator');
  await k.plugins.activate('example-gateway', CLI);
  await k.options.set('example_gateway_api_base', fake.url, CLI);
  await k.options.set('example_gateway_secret', SECRET, CLI);
});

// after useService's afterAll: the service stops before its gateway goes
afterAll(() => fake?.close());

describe('a gateway that is not configured', () => {
  it('answers its webhook with 503 and shows no pay button', async () => {
    await k.options.delete('example_gateway_secret', CLI);
    const { doc, key } = await invoice();
    const page = await (await fetch(`${k.url}/billing/invoice/${doc.id}?key=${encodeURIComponent(key)}`)).text();
    expect(page).not.toContain('Example Pay');
    const body = event('payment.succeeded', 'P000001', 100);
    expect(await deliver(body)).toMatchObject({ status: 503, body: { success: false, data: { code: 'billing_gateway_not_configured' } } });
    expect(await inbox()).toEqual([]);
    await k.options.set('example_gateway_secret', SECRET, CLI);
  });
});

describe('paying an invoice', () => {
  it('shows a button per configured gateway; the pay route makes a pending payment, one creation call, and a 303', async () => {
    const { doc, key } = await invoice('120.00');
    const page = await fetch(`${k.url}/billing/invoice/${doc.id}?key=${encodeURIComponent(key)}`);
    const html = await page.text();
    expect(html).toContain('Pay $120.00 with Example Pay');
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' https: ${fake.url}`);

    const res = await pay(doc.id, key);
    expect(res.status).toBe(303);
    // the fake numbers its checkouts co_1, co_2, …: this one is the latest
    const checkout = `co_${fake.requests('POST /checkouts').length}`;
    const [created] = await payments(doc.id);
    expect(created).toMatchObject({ status: 'pending', amount: '120.00', transaction_id: checkout });
    expect(res.headers.get('location')).toBe(`${fake.url}/hosted/${checkout}?ref=${created!.reference}`);
    const call = fake.requests('POST /checkouts').at(-1)!;
    expect(call.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(call.json).toMatchObject({ reference: created!.reference, amount: 12000, currency: 'USD' });
    // the way back carries no access key
    expect(call.json.return_url).toMatch(new RegExp(`/billing/payment/${created!.reference}/return\\?sig=[0-9a-f]{32}$`));
    expect(call.body).not.toContain(encodeURIComponent(key));
    const back = await (await fetch(call.json.return_url)).text();
    expect(back).toContain(`for invoice ${doc.number}`);
    expect(back).toContain('is being confirmed');
    expect((await fetch(call.json.return_url.replace(/sig=.{4}/, 'sig=0000'))).status).toBe(404);
  });

  it('never doubles a payment on retry: a newer checkout cancels the older pending one', async () => {
    const { doc, key } = await invoice('50.00');
    await pay(doc.id, key);
    await pay(doc.id, key);
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['cancelled', 'pending']);
  });

  it('answers a clear page when the gateway API fails, leaves no pending payment, and a retry works', async () => {
    const { doc, key } = await invoice('75.00');
    fake.failing = 500;
    const down = await pay(doc.id, key);
    fake.failing = null;
    expect(down.status).toBe(503);
    expect(await down.text()).toContain('The payment service cannot be reached right now. Nothing was charged.');
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['cancelled']);
    expect((await pay(doc.id, key)).status).toBe(303);
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['cancelled', 'pending']);
  });

  it('refuses an unknown gateway and an invoice with nothing to pay, in words', async () => {
    const { doc, key } = await invoice('10.00');
    const unknown = await pay(doc.id, key, { gateway: 'gateway_nope' });
    expect([unknown.status, await unknown.text()]).toEqual([400, expect.stringContaining('This payment method is not available.')]);
    await k.api.payments.record(doc.id, { amount: '10.00', method: 'cash', status: 'completed' }, CLI);
    const paid = await pay(doc.id, key);
    expect([paid.status, await paid.text()]).toEqual([409, expect.stringContaining('has nothing left to pay')]);
    expect((await fetch(`${k.url}/billing/invoice/${doc.id}/pay?key=wrong-key-wrong-key`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the webhook', () => {
  async function pending(total = '120.00') {
    const { doc, key } = await invoice(total);
    await pay(doc.id, key);
    const [p] = await payments(doc.id);
    return { doc, reference: p!.reference };
  }

  it('completes the pending payment once, however often the same event arrives, even at once', async () => {
    const { doc, reference } = await pending('120.00');
    const body = event('payment.succeeded', reference, 12000, { transaction: 'ch_1' });
    const stored = (await inbox()).length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body)))).toEqual(new Set(['{"success":true}']));
    expect(await payments(doc.id)).toEqual([{ reference, status: 'completed', amount: '120.00', transaction_id: 'ch_1' }]);
    const inv = await k.api.invoices.get(doc.id);
    expect([inv.status, inv.totals.paid, inv.totals.due]).toEqual(['paid', '120.00', '0.00']);
    const keys = await k.db.query('select key from billing_payment_events where key like $1', [`${METHOD}:%`]);
    expect(keys.length).toBe(1);
    // deliveries that came after the first was applied are answered from the key alone, storing nothing
    const rows = (await inbox()).slice(stored);
    expect(rows.map((r) => r.outcomes[0].result).sort()).toEqual(['applied', ...Array(rows.length - 1).fill('duplicate')]);
    expect(await deliver(body)).toEqual({ status: 200, body: { success: true } });
    expect((await inbox()).length).toBe(stored + rows.length);
  });

  it('refuses a changed byte, a wrong or missing signature with 401, and stores nothing', async () => {
    const { reference } = await pending();
    const body = event('payment.succeeded', reference, 12000);
    const before = (await inbox()).length;
    const tampered = body.replace('12000', '12001');
    for (const [b, sig] of [
      [tampered, sign(body)],
      [body, sign(body, 'wrong')],
      [body, null],
    ] as const) {
      expect(await deliver(b, sig)).toMatchObject({ status: 401, body: { success: false, data: { code: 'billing_invalid_signature' } } });
    }
    expect((await inbox()).length).toBe(before);
  });

  it('answers 200 for an unknown event type or payment, and 400 for an unreadable body', async () => {
    const { doc, reference } = await pending();
    expect(await deliver(event('payment.disputed', reference, 12000))).toMatchObject({ status: 200, body: { success: true } });
    expect(await deliver(event('payment.succeeded', 'P999999', 12000))).toMatchObject({ status: 200, body: { success: true } });
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['pending']);
    expect(await deliver('{not json')).toMatchObject({ status: 400, body: { data: { code: 'billing_bad_request' } } });
  });

  it('marks a payment confirmed with another amount for review, and completes nothing', async () => {
    const { doc, reference } = await pending('120.00');
    expect((await deliver(event('payment.succeeded', reference, 11999))).status).toBe(200);
    const [p] = await k.db.query<{ status: string; review: string }>('select status, review from billing_payments where reference = $1', [
      reference,
    ]);
    expect(p).toEqual({ status: 'pending', review: 'confirmed 119.99 USD, expected 120.00' });
    expect((await k.api.invoices.get(doc.id)).status).toBe('available');
  });

  it('answers 200 to a refusal of the payment core, logs it, and writes nothing', async () => {
    const { doc, reference } = await pending('120.00');
    await deliver(event('payment.succeeded', reference, 12000));
    // a refund above the payment: refused by the core, and retries would be refused alike
    const answer = await deliver(event('refund.succeeded', reference, 12000, { refunded: 99999 }));
    expect(answer).toMatchObject({ status: 200, body: { success: true } });
    expect((await inbox()).at(-1)!.outcomes[0]).toMatchObject({
      result: 'refused',
      note: expect.stringContaining('billing_rest_amount_exceeds'),
    });
    expect((await payments(doc.id))[0]!.status).toBe('completed');
    expect(await deliver(event('refund.succeeded', reference, 12000, { refunded: 2000 }))).toMatchObject({ status: 200 });
    const inv = await k.api.invoices.get(doc.id);
    expect([inv.status, inv.totals.paid]).toEqual(['partial', '100.00']);
  });

  it('is replayed from the inbox, counting once', async () => {
    const { doc, reference } = await pending('30.00');
    await deliver(event('payment.succeeded', reference, 3000));
    const id = Number((await inbox()).at(-1)!.id);
    const replay = await k.payments.gateways.replay(id);
    expect(replay).toMatchObject({ id, status: 200, outcomes: [{ result: 'duplicate' }] });
    expect((await payments(doc.id)).map((p) => p.status)).toEqual(['completed']);
  });
});

describe('reconciliation', () => {
  it('settles a payment whose webhook never came; the late webhook then counts nothing', async () => {
    const { doc, key } = await invoice('64.00');
    await pay(doc.id, key);
    const [p] = await payments(doc.id);
    fake.on(`GET /payments/${p!.reference}`, () => ({
      status: 200,
      body: { status: 'succeeded', amount: 6400, currency: 'usd', refunded: 0 },
    }));
    const outcome = await k.jobs.runNow(`billing_check_pending_${METHOD}_payments`);
    expect(outcome).toMatchObject({ ran: true, status: 'succeeded', result: { applied: 1, unreachable: 0 } });
    expect((await payments(doc.id)).map((x) => x.status)).toEqual(['completed']);
    expect(await deliver(event('payment.succeeded', p!.reference, 6400))).toMatchObject({ status: 200 });
    expect((await inbox()).at(-1)!.outcomes[0].result).toBe('unchanged');
    const inv = await k.api.invoices.get(doc.id);
    expect([inv.status, inv.totals.paid]).toEqual(['paid', '64.00']);
  });
});

describe('what a plugin can never do', () => {
  it("act as another method: a gateway naming another gateway's payment is ignored", async () => {
    await k.plugins.activate('rogue-gateway', CLI);
    try {
      const { doc, key } = await invoice('40.00');
      await pay(doc.id, key);
      const [p] = await payments(doc.id);
      const res = await fetch(`${k.url}/wp-admin/admin-ajax.php?action=billing_gateway_rogue_webhook`, {
        method: 'POST',
        body: JSON.stringify({ id: 'x1', reference: p!.reference }),
      });
      expect(res.status).toBe(200);
      expect((await payments(doc.id)).map((x) => x.status)).toEqual(['pending']);
      expect((await inbox()).at(-1)!.outcomes[0]).toMatchObject({
        result: 'ignored',
        note: expect.stringContaining('is not a gateway_rogue payment'),
      });
    } finally {
      await k.plugins.deactivate('rogue-gateway', CLI);
    }
  });

  it('move money through the service API: its payments are read-only', async () => {
    await k.plugins.activate('rogue-gateway', CLI);
    try {
      const res = await svc.rest(admin).get('/rogue/payment-api');
      expect((res.body as string[]).sort()).toEqual(['find', 'findByReference', 'forInvoice', 'get', 'list']);
    } finally {
      await k.plugins.deactivate('rogue-gateway', CLI);
    }
  });
});

describe('switching the gateway off', () => {
  it('removes its webhook, pay button and method on every instance within seconds', async () => {
    const { doc, key } = await invoice('12.00');
    const onOther = async () => (await fetch(`${other.url}/billing/invoice/${doc.id}?key=${encodeURIComponent(key)}`)).text();
    expect(await onOther()).toContain('with Example Pay');
    await k.plugins.deactivate('example-gateway', CLI);
    await waitFor(async () => !(await onOther()).includes('Example Pay'), {
      timeoutMs: 5000,
      what: 'the other instance to drop the pay button',
    });
    const gone = await fetch(`${other.url}/wp-admin/admin-ajax.php?action=${WEBHOOK}`, { method: 'POST', body: '{}' });
    expect([gone.status, await gone.text()]).toEqual([400, '0']);
    // its method no longer exists for new payments; the payments it made stay
    await expect(k.api.payments.record(doc.id, { amount: '1.00', method: METHOD, status: 'pending' }, CLI)).rejects.toMatchObject({
      code: 'rest_invalid_param',
    });
    await k.plugins.activate('example-gateway', CLI);
  });
});

describe('an unreachable database', () => {
  (usingPostgres ? it : it.skip)('answers a verified webhook with 503 so that the gateway retries', async () => {
    const own = await new TestService({ pluginDirs: [FIXTURE_PLUGINS], plugins: ['example-gateway'] }).start();
    const lone = own.kernel;
    await own.setOption('example_gateway_secret', SECRET);
    const name = new URL(own.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      // the database goes away under the running service: its connections cut, new ones refused
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      const body = event('payment.succeeded', 'P000001', 100);
      expect(await deliver(body, sign(body), lone)).toMatchObject({
        status: 503,
        body: { success: false, data: { code: 'billing_unavailable' } },
      });
    } finally {
      await admin.query(`alter database ${name} allow_connections true`);
      await admin.end();
      await own.stop();
    }
  });
});
