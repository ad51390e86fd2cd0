// The recurring addon (docs/recurring.md) on a real database, over real HTTP and SMTP, with two instances:
// profiles over REST; the job run by both instances at once generates each (profile, period) once, with
// gap-free numbers; after downtime every missed period gets its invoice once; the day-31 rule; count and
// date ends; pause/resume; a failing profile records last_error and does not stop the others; auto_send
// mails through the outbox and issues the invoice; deactivated, the job is gone and the data stays.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { siteDate } from '../../core/time/site-time.ts';
import { bootKernel, useService, waitFor, type MailCatcher, type TestUser } from '../../testing/index.ts';
import { PERIODS_PER_RUN } from '../../plugins/recurring/generate.ts';

const JOB = 'billing_generate_recurring_invoices';
const svc = useService({ mail: true, options: { company_email: 'office@example.com' }, plugins: ['recurring'] });
let smtp: MailCatcher;
let a: Kernel;
let b: Kernel;
let admin: TestUser;
const created: Array<{ id: number; source: string }> = [];

const item = { name: 'Hosting', quantity: 1, price: 25 };
const template = (email = 'customer@example.com', extra: Record<string, unknown> = {}) => ({
  customer_name: 'Monthly Customer',
  customer_email: email,
  items: [item],
  ...extra,
});

async function rest(method: string, path: string, body?: unknown) {
  const res = await svc.rest(admin).request(method, path, body);
  return { status: res.status, body: res.body, total: res.headers.get('x-wp-total') };
}

const today = () => siteDate(new Date(), 'UTC');
/** `Y-m-d` of today moved by whole months (day kept, or the 1st when asked). */
function monthsAgo(months: number, day?: number): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  if (day) d.setUTCDate(day);
  return d.toISOString().slice(0, 10);
}
const daysAgo = (days: number) => new Date(Date.now() - days * 86400000).toISOString().slice(0, 10);

/**
 * A profile saved long ago, the server off since: created today, then its schedule moved back to
 * `start` in the database (a new profile may not start more than one period back).
 */
async function savedLongAgo(body: Record<string, unknown>, start: string) {
  const p = await rest('POST', '/recurring', { ...body, start_date: today() });
  expect(p.status).toBe(201);
  await a.db.query(`update recurring_profiles set status = 'active', start_date = $2, next_date = $2, next_period = 0 where id = $1`, [
    p.body.id,
    start,
  ]);
  return p.body;
}

async function invoicesOf(profileId: number) {
  const r = await rest('GET', `/invoices?recurring_id=${profileId}&per_page=100&orderby=date&order=asc`);
  expect(r.status).toBe(200);
  return { items: r.body as any[], total: Number(r.total) };
}

beforeAll(async () => {
  a = svc.kernel;
  smtp = svc.mail;
  b = await bootKernel(svc.databaseUrl, { config: { smtpUrl: smtp.url } });
  // the b of the moment: a test replaces it
  svc.beforeStop(() => b.stop());
  admin = await svc.makeUser('boss', 'administrator');
  await waitFor(() => a.plugins.isLoaded('recurring') && b.plugins.isLoaded('recurring'), { what: 'both instances to load recurring' });
  for (const k of [a, b]) {
    k.hooks.addAction('billing_invoice_created', (id, _inv, ctx) => void created.push({ id, source: ctx.source }), 10, 'test');
  }
}, 60000);

describe('profiles over REST', () => {
  it('creates, reads, lists, changes and deletes; bad input is a 400 that changes nothing', async () => {
    expect((await rest('POST', '/recurring', { frequency: 'monthly' })).body.code).toBe('rest_missing_callback_param');
    expect((await rest('POST', '/recurring', { template: { items: [] }, frequency: 'monthly', start_date: today() })).body.code).toBe(
      'rest_invalid_param',
    );
    const numbered = await rest('POST', '/recurring', {
      template: template('x@example.com', { number: 'X-1' }),
      frequency: 'monthly',
      start_date: today(),
    });
    expect(numbered.body.code).toBe('rest_invalid_param');
    expect((await rest('POST', '/recurring', { template: template(), frequency: 'hourly', start_date: today() })).status).toBe(400);
    expect(
      (await rest('POST', '/recurring', { template: template(), frequency: 'monthly', start_date: today(), end: { type: 'count' } }))
        .status,
    ).toBe(400);
    expect((await rest('GET', '/recurring')).total).toBe('0');

    const future = '2999-01-31';
    const p = await rest('POST', '/recurring', { template: template(), frequency: 'monthly', start_date: future });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({
      status: 'active',
      frequency: 'monthly',
      start_date: future,
      end: { type: 'never' },
      next_date: future,
      generated_count: 0,
      last_invoice_id: null,
      auto_send: false,
    });
    expect((await rest('GET', `/recurring/${p.body.id}`)).body.id).toBe(p.body.id);
    expect((await rest('GET', '/recurring')).total).toBe('1');
    const put = await rest('PUT', `/recurring/${p.body.id}`, { end: { type: 'count', count: 2 }, frequency: 'quarterly' });
    expect(put.body).toMatchObject({ end: { type: 'count', count: 2 }, frequency: 'quarterly' });
    expect((await rest('DELETE', `/recurring/${p.body.id}`)).body.deleted).toBe(true);
    expect((await rest('GET', `/recurring/${p.body.id}`)).body.code).toBe('billing_rest_not_found');
    const audit = await a.db.query<{ action: string }>(`select action from billing_audit_log where object_type = 'recurring' order by id`);
    expect(audit.map((r) => r.action)).toEqual(['recurring.create', 'recurring.update', 'recurring.delete']);
  });

  it("POST /recurring/from-invoice (the Recurring screen's form): the template is the invoice's; bad input changes nothing", async () => {
    const inv = await rest('POST', '/invoices', {
      ...template('repeat@example.com'),
      title: 'Retainer',
      items: [item, { name: 'Support', quantity: 2, price: 40, taxable: false }],
      notes: 'Thank you',
      status: 'available',
    });
    expect(inv.status).toBe(201);
    const before = (await rest('GET', '/recurring')).total;
    expect((await rest('POST', '/recurring/from-invoice', { invoice_id: inv.body.id })).body.code).toBe('rest_missing_callback_param');
    expect(
      (await rest('POST', '/recurring/from-invoice', { invoice_id: 999999, frequency: 'monthly', start_date: '2999-01-01' })).status,
    ).toBe(404);
    expect((await rest('GET', '/recurring')).total).toBe(before);

    const p = await rest('POST', '/recurring/from-invoice', { invoice_id: inv.body.id, frequency: 'weekly', start_date: '2999-01-01' });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ status: 'active', frequency: 'weekly', next_date: '2999-01-01', auto_send: false });
    expect(p.body.template).toMatchObject({
      customer_name: 'Monthly Customer',
      customer_email: 'repeat@example.com',
      title: 'Retainer',
      notes: 'Thank you',
    });
    expect(p.body.template.items.map((i: { name: string }) => i.name)).toEqual(['Hosting', 'Support']);
    // nothing of the source invoice that must not repeat: its number, dates and status
    for (const key of ['number', 'issue_date', 'due_date', 'status']) expect(p.body.template).not.toHaveProperty(key);
    expect((await rest('DELETE', `/recurring/${p.body.id}`)).status).toBe(200);

    // by the number a person knows it by: the same template; an unknown number is a 404, naming neither a 400
    const byNumber = await rest('POST', '/recurring/from-invoice', {
      invoice_number: inv.body.number,
      frequency: 'monthly',
      start_date: '2999-01-01',
    });
    expect(byNumber.status).toBe(201);
    expect(byNumber.body.template).toEqual(p.body.template);
    const unknown = await rest('POST', '/recurring/from-invoice', {
      invoice_number: 'NO-SUCH-1',
      frequency: 'monthly',
      start_date: '2999-01-01',
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'billing_rest_not_found']);
    const neither = await rest('POST', '/recurring/from-invoice', { frequency: 'monthly', start_date: '2999-01-01' });
    expect([neither.status, neither.body.code, neither.body.data.params]).toEqual([400, 'rest_missing_callback_param', ['invoice_number']]);
    expect((await rest('DELETE', `/recurring/${byNumber.body.id}`)).status).toBe(200);
  });

  it('POST /recurring/from-invoice without a start date continues from the invoice: one period after its date, not in the past', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10); // the site is on UTC
    const issued = async (issue_date: string) =>
      (await rest('POST', '/invoices', { ...template('again@example.com'), issue_date, status: 'available' })).body.id as number;
    // weekly, issued ten days ago: a week after it is past, two weeks after it is in four days
    const weekly = await rest('POST', '/recurring/from-invoice', { invoice_id: await issued(day(-10)), frequency: 'weekly' });
    expect(weekly.status).toBe(201);
    expect({ start: weekly.body.start_date, next: weekly.body.next_date }).toEqual({ start: day(-10), next: day(4) });
    // monthly, issued on 31 January 2026: each month's last day from there on, the first that is not past
    const today = day(0);
    let next = '';
    for (let m = 1; next < today; m++) next = new Date(Date.UTC(2026, m + 1, 0)).toISOString().slice(0, 10);
    const monthly = await rest('POST', '/recurring/from-invoice', { invoice_id: await issued('2026-01-31'), frequency: 'monthly' });
    expect({ start: monthly.body.start_date, next: monthly.body.next_date }).toEqual({ start: '2026-01-31', next });
    for (const p of [weekly, monthly]) expect((await rest('DELETE', `/recurring/${p.body.id}`)).status).toBe(200);
  });
});

describe('the generation job', () => {
  it('catches up after the server was off: each missed month once, dated by its period, then waits', async () => {
    const start = monthsAgo(3, 1);
    const p = await savedLongAgo({ template: template(), frequency: 'monthly' }, start);
    // the server is off: both instances stop, and a new one starts later
    await b.stop();
    b = await bootKernel(svc.databaseUrl, { config: { smtpUrl: smtp.url } });
    await waitFor(() => b.plugins.isLoaded('recurring'), { what: 'the new instance to load recurring' });
    b.hooks.addAction('billing_invoice_created', (id, _inv, ctx) => void created.push({ id, source: ctx.source }), 10, 'test');
    const outcome = await b.jobs.runNow(JOB);
    expect(outcome).toMatchObject({ status: 'succeeded' });
    const { items, total } = await invoicesOf(p.id);
    expect(total).toBe(4);
    expect(items.map((i) => i.issue_date)).toEqual([monthsAgo(3, 1), monthsAgo(2, 1), monthsAgo(1, 1), monthsAgo(0, 1)]);
    for (const i of items) {
      expect(i.recurring_id).toBe(p.id);
      expect(i.status).toBe('available');
      const due = new Date(`${i.issue_date}T00:00:00Z`);
      due.setUTCDate(due.getUTCDate() + 30);
      expect(i.due_date).toBe(due.toISOString().slice(0, 10));
    }
    const ids = items.map((i) => i.id);
    expect(created.filter((c) => ids.includes(c.id)).map((c) => c.source)).toEqual(['recurring', 'recurring', 'recurring', 'recurring']);
    const after = (await rest('GET', `/recurring/${p.id}`)).body;
    expect(after).toMatchObject({
      status: 'active',
      generated_count: 4,
      last_invoice_id: ids[3],
      next_date: monthsAgo(-1, 1),
      last_error: null,
    });
    // a repeat run, on either instance, adds nothing
    await a.jobs.runNow(JOB);
    await b.jobs.runNow(JOB);
    expect((await invoicesOf(p.id)).total).toBe(4);
  });

  it('monthly on the 31st: the last day of shorter months, back to the 31st after them; a count end finishes it', async () => {
    const p = await savedLongAgo({ template: template(), frequency: 'monthly', end: { type: 'count', count: 4 } }, '2025-12-31');
    await a.jobs.runNow(JOB);
    const { items } = await invoicesOf(p.id);
    expect(items.map((i) => i.issue_date)).toEqual(['2025-12-31', '2026-01-31', '2026-02-28', '2026-03-31']);
    expect((await rest('GET', `/recurring/${p.id}`)).body).toMatchObject({ status: 'finished', next_date: null, generated_count: 4 });
  });

  it('a date end: no period after it, then finished', async () => {
    const p = await savedLongAgo({ template: template(), frequency: 'weekly', end: { type: 'date', date: '2025-02-15' } }, '2025-01-15');
    await b.jobs.runNow(JOB);
    const { items } = await invoicesOf(p.id);
    expect(items.map((i) => i.issue_date)).toEqual(['2025-01-15', '2025-01-22', '2025-01-29', '2025-02-05', '2025-02-12']);
    expect((await rest('GET', `/recurring/${p.id}`)).body.status).toBe('finished');
  });

  it('two instances running the job at once: every (profile, period) once, numbers without a gap', async () => {
    const profiles: number[] = [];
    for (let i = 0; i < 12; i++) {
      profiles.push((await savedLongAgo({ template: template(`c${i}@example.com`), frequency: 'weekly' }, daysAgo(14))).id);
    }
    const before = (await a.db.query<{ n: number }>(`select count(*)::int as n from billing_documents where kind = 'invoice'`))[0]!.n;
    // a few milliseconds apart, so the scheduler's claim (one run per due time) lets them run side by side
    const runs = await Promise.all([a, b, a, b].map((k, i) => new Promise((r) => setTimeout(r, i * 7)).then(() => k.jobs.runNow(JOB))));
    const ran = runs.filter((r) => r.ran);
    expect(ran.length).toBeGreaterThanOrEqual(2);
    expect(ran.every((r) => r.status === 'succeeded')).toBe(true);
    // each invoice was generated by exactly one of the overlapping runs
    expect(ran.reduce((n, r) => n + (r.result as { generated: number }).generated, 0)).toBe(36);
    for (const id of profiles) expect((await invoicesOf(id)).total).toBe(3);
    const dup = await a.db.query(
      `select recurring_id, issue_date from billing_documents where recurring_id is not null group by 1, 2 having count(*) > 1`,
    );
    expect(dup).toEqual([]);
    const numbers = await a.db.query<{ number: string }>(`select number from billing_documents where kind = 'invoice' order by number`);
    expect(numbers.length).toBe(before + 36);
    expect(numbers.map((r) => Number(r.number.replace(/\D/g, '')))).toEqual(numbers.map((_, i) => i + 1));
  });

  it('the unique key itself refuses a second invoice for a period', async () => {
    const [row] = await a.db.query<{ profile_id: string; period_date: string; invoice_id: string }>(
      `select profile_id, period_date::text, invoice_id from recurring_periods limit 1`,
    );
    const other = await a.api.invoices.create({ items: [item], customer_name: 'x' } as never, { actor: CLI, source: 'api' });
    await expect(
      a.db.query('insert into recurring_periods (profile_id, period_date, period, invoice_id) values ($1, $2, 0, $3)', [
        row!.profile_id,
        row!.period_date,
        other.id,
      ]),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('a failing profile records last_error and does not stop the others; fixed, it catches up', async () => {
    const bad = (
      await rest('POST', '/recurring', {
        template: template('c@example.com', { client_id: 999999 }),
        frequency: 'daily',
        start_date: daysAgo(1),
      })
    ).body;
    const good = (await rest('POST', '/recurring', { template: template(), frequency: 'daily', start_date: daysAgo(1) })).body;
    const outcome = await a.jobs.runNow(JOB);
    expect(outcome.result).toMatchObject({ failed: 1 });
    expect((await invoicesOf(good.id)).total).toBe(2);
    const failed = (await rest('GET', `/recurring/${bad.id}`)).body;
    expect(failed).toMatchObject({ status: 'active', generated_count: 0, last_error: { code: 'billing_rest_no_client' } });
    expect((await invoicesOf(bad.id)).total).toBe(0);
    await rest('PUT', `/recurring/${bad.id}`, { template: template() });
    await b.jobs.runNow(JOB);
    expect((await invoicesOf(bad.id)).total).toBe(2);
    expect((await rest('GET', `/recurring/${bad.id}`)).body.last_error).toBeNull();
  });

  it('pause stops generation; resume picks up from today, without the periods of the pause', async () => {
    const p = (await rest('POST', '/recurring', { template: template(), frequency: 'daily', start_date: daysAgo(1) })).body;
    expect((await rest('POST', `/recurring/${p.id}/pause`)).body.status).toBe('paused');
    await a.jobs.runNow(JOB);
    expect((await invoicesOf(p.id)).total).toBe(0);
    const resumed = (await rest('POST', `/recurring/${p.id}/resume`)).body;
    expect(resumed).toMatchObject({ status: 'active', next_date: today() });
    await a.jobs.runNow(JOB);
    const { items } = await invoicesOf(p.id);
    expect(items.map((i) => i.issue_date)).toEqual([today()]);
    const done = (
      await rest('POST', '/recurring', {
        template: template(),
        frequency: 'daily',
        start_date: daysAgo(1),
        end: { type: 'count', count: 1 },
      })
    ).body;
    await a.jobs.runNow(JOB);
    expect((await rest('POST', `/recurring/${done.id}/resume`)).body.code).toBe('billing_rest_invalid_state');
  });

  it('auto_send: the generated invoice is mailed through the outbox, which issues it', async () => {
    const p = (
      await rest('POST', '/recurring', {
        template: template('auto@example.com'),
        frequency: 'monthly',
        start_date: today(),
        auto_send: true,
      })
    ).body;
    await a.jobs.runNow(JOB);
    await waitFor(() => smtp.received.some((m) => m.envelope.to.includes('auto@example.com')), {
      timeoutMs: 10000,
      what: 'the auto_send mail',
    });
    const [invoice] = (await invoicesOf(p.id)).items;
    await waitFor(async () => (await rest('GET', `/invoices/${invoice.id}`)).body.status === 'available', {
      what: 'the mailed invoice to be issued',
    });
    await a.jobs.runNow(JOB);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received.filter((m) => m.envelope.to.includes('auto@example.com'))).toHaveLength(1);
  });

  it('deactivated: the job and routes are gone on every instance, the profiles and invoices stay', async () => {
    const count = (await a.db.query<{ n: number }>(`select count(*)::int as n from recurring_profiles`))[0]!.n;
    await a.plugins.deactivate('recurring', CLI);
    await waitFor(() => !a.plugins.isLoaded('recurring') && !b.plugins.isLoaded('recurring'), {
      what: 'both instances to unload recurring',
    });
    await expect(b.jobs.runNow(JOB)).rejects.toMatchObject({ code: 'billing_unknown_job' });
    expect((await rest('GET', '/recurring')).body.code).toBe('rest_no_route');
    expect((await a.db.query<{ n: number }>(`select count(*)::int as n from recurring_profiles`))[0]!.n).toBe(count);
    await a.plugins.activate('recurring', CLI);
    await waitFor(() => a.plugins.isLoaded('recurring'), { what: 'recurring to load again' });
  });
});

describe('bounded catch-up', () => {
  const daily = (email: string, extra: Record<string, unknown> = {}) => ({ template: template(email), frequency: 'daily', ...extra });
  const count = async (sql: string, params: unknown[] = []) => (await a.db.query<{ n: number }>(sql, params))[0]!.n;

  it('refuses a start date further back than one period, naming start_date: the year-2000 daily profile is never saved', async () => {
    const before = await count('select count(*)::int as n from recurring_profiles');
    const old = await rest('POST', '/recurring', { ...daily('flood@example.com', { auto_send: true }), start_date: '2000-01-01' });
    expect(old.status).toBe(400);
    expect(old.body.code).toBe('rest_invalid_param');
    expect(Object.keys(old.body.data.params)).toEqual(['start_date']);
    // one period back is the limit: a daily profile may start yesterday, not the day before
    expect((await rest('POST', '/recurring', { ...daily('edge@example.com'), start_date: daysAgo(2) })).body.code).toBe(
      'rest_invalid_param',
    );
    const edge = await rest('POST', '/recurring', { ...daily('edge@example.com'), start_date: daysAgo(1) });
    expect(edge.status).toBe(201);
    // nor can a profile be moved back there before its first invoice
    const moved = await rest('PUT', `/recurring/${edge.body.id}`, { start_date: '2000-01-01' });
    expect([moved.status, Object.keys(moved.body.data.params)]).toEqual([400, ['start_date']]);
    expect(await count('select count(*)::int as n from recurring_profiles')).toBe(before + 1);
    await rest('DELETE', `/recurring/${edge.body.id}`);
  });

  it('a profile behind by many periods (after downtime) gets at most PERIODS_PER_RUN invoices per run; the next runs go on', async () => {
    const p = await savedLongAgo(daily('behind@example.com'), daysAgo(30));
    const totals: number[] = [];
    for (let run = 0; run < 4; run++) {
      const outcome = await a.jobs.runNow(JOB);
      expect(outcome.status).toBe('succeeded');
      totals.push((await invoicesOf(p.id)).total);
      if (run === 0) expect(outcome.result).toMatchObject({ behind: 1 });
    }
    expect(PERIODS_PER_RUN).toBe(12);
    // 31 periods due (30 days back and today): 12, 12, then the 7 left, then nothing
    expect(totals).toEqual([12, 24, 31, 31]);
    const { items } = await invoicesOf(p.id);
    expect(items[0].issue_date).toBe(daysAgo(30));
    expect(items.at(-1).issue_date).toBe(today());
  });

  it('a receipt mail is not behind a flood of recurring mails', async () => {
    // the flood's mails are slow: the server takes none of them until the end of the test
    smtp.hold = (to) => to.includes('flood@example.com');
    try {
      const p = await savedLongAgo(daily('flood@example.com', { auto_send: true }), daysAgo(30));
      await a.jobs.runNow(JOB);
      const floodPending = () =>
        count(
          `select count(*)::int as n from billing_outbox where topic = 'recurring.send' and status = 'pending' and payload->>'profile_id' = $1`,
          [String(p.id)],
        );
      expect(await floodPending()).toBe(PERIODS_PER_RUN);
      await waitFor(() => smtp.held > 0, { what: 'the mail server to hold a flood mail' });
      const invoice = await a.api.invoices.create(
        { items: [item], customer_name: 'Payer', customer_email: 'payer@example.com', status: 'available' } as never,
        { actor: CLI, source: 'api' },
      );
      await a.api.payments.record(invoice.id, { amount: '25.00', method: 'cash', status: 'completed' }, CLI);
      const receipt = () =>
        smtp.received.some((m) => m.envelope.to.includes('office@example.com') && m.parsed.text?.includes(invoice.number));
      await waitFor(receipt, { timeoutMs: 10000, what: 'the receipt mail' });
      // it went out while the flood was still outstanding: one at a time per profile, and not ahead of it
      expect(await floodPending()).toBeGreaterThanOrEqual(PERIODS_PER_RUN - 2);
      expect(smtp.received.some((m) => m.envelope.to.includes('flood@example.com'))).toBe(false);
    } finally {
      smtp.release();
    }
    await a.outbox.drain();
  }, 60000);
});

describe('repeating an invoice by its number, with team roles', () => {
  it('a sales user held to their own documents cannot reach another’s invoice by its number (nor by its id)', async () => {
    await a.plugins.activate('team-roles', CLI);
    await waitFor(() => a.plugins.isLoaded('team-roles'), { what: 'team-roles to load' });
    await a.options.set('team_sales_scope', 'own', CLI);
    try {
      const [mine, other] = [await svc.makeUser('sally', 'billing_sales'), await svc.makeUser('sam', 'billing_sales')];
      const as = (who: TestUser, method: string, path: string, body: unknown) => svc.rest(who).request(method, path, body);
      const theirs = await as(other, 'POST', '/invoices', { ...template('sam@example.com'), title: 'Sam’s', status: 'available' });
      const own = await as(mine, 'POST', '/invoices', { ...template('sally@example.com'), title: 'Sally’s', status: 'available' });
      expect([theirs.status, own.status]).toEqual([201, 201]);
      const schedule = { frequency: 'monthly', start_date: '2999-01-01' };
      const before = (await rest('GET', '/recurring')).total;
      for (const named of [{ invoice_number: theirs.body.number }, { invoice_id: theirs.body.id }]) {
        const r = await as(mine, 'POST', '/recurring/from-invoice', { ...named, ...schedule });
        expect([r.status, r.body.code]).toEqual([404, 'billing_rest_not_found']);
      }
      expect((await rest('GET', '/recurring')).total).toBe(before);
      const made = await as(mine, 'POST', '/recurring/from-invoice', { invoice_number: own.body.number, ...schedule });
      expect([made.status, made.body.template.title]).toEqual([201, 'Sally’s']);
      // the administrator reaches both
      expect((await rest('POST', '/recurring/from-invoice', { invoice_number: theirs.body.number, ...schedule })).status).toBe(201);
    } finally {
      await a.options.set('team_sales_scope', 'all', CLI);
      await a.plugins.deactivate('team-roles', CLI);
    }
  });
});
