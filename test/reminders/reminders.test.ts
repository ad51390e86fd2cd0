import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { addDays, siteDate } from '../../core/time/site-time.ts';
import { billing } from '../helpers/cli.ts';
import { bootKernel, useService, waitFor, type MailCatcher, type ReceivedMail } from '../../testing/index.ts';
import { REMINDERS_PER_ADDRESS } from '../../plugins/reminders/run.ts';
import { DEFAULT_STEPS } from '../../plugins/reminders/steps.ts';

const svc = useService({ mail: true, options: { company_name: 'Lee & Partners' } });
let k: Kernel;
let k2: Kernel;
let smtp: MailCatcher;

const today = () => siteDate(new Date(), 'UTC');
const JOB = 'billing_send_payment_reminders';

/** Steps whose subjects name them, so each mail says which step it is. */
const STEPS = [-3, 1, 7, 14].map((offset_days) => ({
  offset_days,
  subject: `Step ${offset_days}: {{invoice_number}} for {{client_name}}`,
  body: '<p>Dear {{client_name}},</p>\nInvoice {{invoice_number}} ({{total_amount}}, due {{due_date}}): {{amount_due}} left.\n{{invoice_url}}\n{{company_name}}',
}));

let counter = 0;
async function overdueInvoice(daysOverdue: number, extra: Record<string, unknown> = {}) {
  const due = addDays(today(), -daysOverdue);
  counter++;
  return k.api.invoices.create(
    {
      items: [{ name: 'Consulting', quantity: 10, price: 150 }],
      customer_name: `Client ${counter}`,
      customer_email: `client${counter}@example.com`,
      issue_date: addDays(due, -30),
      due_date: due,
      status: 'available',
      ...extra,
    } as never,
    { actor: CLI, source: 'api' },
  );
}

let seen = 0;
/** The reminder mails received since the last call, once the outbox is drained on both instances. */
async function newReminders(): Promise<ReceivedMail[]> {
  await k.outbox.drain();
  await k2.outbox.drain();
  // the server took each message before the test server finished parsing it: wait for every one logged as sent
  const [{ n }] = await k.db.query<{ n: string }>(`select count(*) as n from billing_mail_log where result = 'sent'`);
  await waitFor(() => smtp.received.length >= Number(n), { what: `the test server to parse the ${n} mails logged as sent` });
  const fresh = smtp.received.slice(seen);
  seen = smtp.received.length;
  return fresh.filter((m) => /^Step /.test(m.parsed.subject ?? ''));
}

const rows = (invoiceId: number) =>
  k.db.query<{ offset_days: number; status: string }>(
    'select offset_days, status from reminders_sent where invoice_id = $1 order by offset_days',
    [invoiceId],
  );

beforeAll(async () => {
  k = svc.kernel;
  smtp = svc.mail;
  k2 = await bootKernel(svc.databaseUrl, { config: { smtpUrl: smtp.url } });
  svc.beforeStop(() => k2.stop());
  // activated the way a newcomer does it: the CLI, in its own process; both instances load it
  const activated = await billing(svc.databaseUrl, ['plugin', 'activate', 'reminders']);
  expect(activated.code).toBe(0);
  await waitFor(() => k.plugins.isLoaded('reminders') && k2.plugins.isLoaded('reminders'), { what: 'both instances to load reminders' });
  await k.options.set('reminder_steps', STEPS as never, CLI);
}, 60_000);

beforeEach(async () => {
  await newReminders();
  await k.options.set('late_fee_enabled', false, CLI);
});

describe('the walkthrough: activated with the CLI, run with `billing cron run`', () => {
  it('gives an overdue invoice exactly one reminder and one late fee, however often it runs', async () => {
    await k.options.set('late_fee_enabled', true, CLI);
    await k.options.set('late_fee_type', 'flat', CLI);
    await k.options.set('late_fee_amount', '25', CLI);
    await k.options.set('late_fee_after_days', 7, CLI);
    const invoice = await overdueInvoice(8);

    for (let i = 0; i < 2; i++) {
      const run = await billing(svc.databaseUrl, ['cron', 'run', JOB, '--format', 'json']);
      expect(run.code).toBe(0);
    }
    const mails = await newReminders();
    const mine = mails.filter((m) => m.envelope.to.includes(invoice.customer.email));
    expect(mine.map((m) => m.parsed.subject)).toEqual([`Step 7: ${invoice.number} for ${invoice.customer.name}`]);

    const after = await k.api.invoices.get(invoice.id);
    expect(after.items.filter((i) => i.name === 'Late fee')).toEqual([
      { name: 'Late fee', description: '', quantity: '1', price: '25.00', amount: '25.00', taxable: false },
    ]);
    expect(after.totals.total).toBe('1525.00');
    expect(after.totals.due).toBe('1525.00');
    expect(after.totals.tax).toBe(invoice.totals.tax);

    const log = await k.api.mail.deliveries(invoice.id);
    expect(log.filter((d) => d.template === 'payment_reminder').map((d) => d.result)).toEqual(['sent']);
    const audit = await k.db.query(`select action from billing_audit_log where object_id = $1 and action = 'invoice.charge'`, [invoice.id]);
    expect(audit).toHaveLength(1);
  }, 60_000);
});

describe('after downtime', () => {
  it('sends only the latest due step and records the earlier ones as skipped', async () => {
    const invoice = await overdueInvoice(20);
    const fired: number[] = [];
    k.hooks.addAction(
      'billing_reminder_sent' as never,
      ((id: number, _inv: unknown, step: { offset_days: number }) => {
        if (id === invoice.id) fired.push(step.offset_days);
      }) as never,
    );
    await k.jobs.runNow(JOB);
    const mails = (await newReminders()).filter((m) => m.envelope.to.includes(invoice.customer.email));
    expect(mails.map((m) => m.parsed.subject)).toEqual([`Step 14: ${invoice.number} for ${invoice.customer.name}`]);
    expect(await rows(invoice.id)).toEqual([
      { offset_days: -3, status: 'skipped' },
      { offset_days: 1, status: 'skipped' },
      { offset_days: 7, status: 'skipped' },
      { offset_days: 14, status: 'sent' },
    ]);
    await waitFor(() => fired.length === 1, { what: 'the hook to fire once' });
    expect(fired).toEqual([14]);

    await k.jobs.runNow(JOB);
    expect(await newReminders()).toHaveLength(0);
  });

  it('sends each step on its day and nothing in between', async () => {
    const invoice = await overdueInvoice(-2); // due in two days: the -3 step has come
    await k.jobs.runNow(JOB);
    expect((await newReminders()).map((m) => m.parsed.subject)).toEqual([`Step -3: ${invoice.number} for ${invoice.customer.name}`]);
    await k.jobs.runNow(JOB);
    expect(await newReminders()).toHaveLength(0);
    // three days later (simulated by moving the due date back), the +1 step
    await k.db.query('update billing_documents set due_date = due_date - 3 where id = $1', [invoice.id]);
    await k.jobs.runNow(JOB);
    expect((await newReminders()).map((m) => m.parsed.subject)).toEqual([`Step 1: ${invoice.number} for ${invoice.customer.name}`]);
    expect((await rows(invoice.id)).map((r) => r.status)).toEqual(['sent', 'sent']);
  });
});

describe('under concurrent runs', () => {
  it('sends each step at most once per invoice when two instances run the job at once', async () => {
    await k.options.set('late_fee_enabled', true, CLI);
    await k.options.set('late_fee_type', 'percent', CLI);
    await k.options.set('late_fee_amount', '10', CLI);
    const invoices = [];
    for (let i = 0; i < 25; i++) invoices.push(await overdueInvoice(i % 2 ? 9 : 2));
    await Promise.all([k.jobs.runNow(JOB), k2.jobs.runNow(JOB), k.jobs.runNow(JOB), k2.jobs.runNow(JOB)]);
    const mails = await newReminders();
    for (const inv of invoices) {
      const mine = mails.filter((m) => m.envelope.to.includes(inv.customer.email));
      expect(mine).toHaveLength(1);
      const after = await k.api.invoices.get(inv.id);
      const fees = after.items.filter((i) => i.name === 'Late fee');
      expect(fees).toHaveLength(inv.dueDate! <= addDays(today(), -7) ? 1 : 0);
      if (fees.length) expect(after.totals.total).toBe('1650.00'); // 10 % of 1500.00, exactly once
    }
    const [{ n }] = await k.db.query<{ n: string }>(
      `select count(*) as n from reminders_sent where invoice_id = any($1) and status = 'sent'`,
      [invoices.map((i) => i.id)],
    );
    expect(Number(n)).toBe(25);
  }, 60_000);
});

describe('who gets nothing', () => {
  it('skips drafts, paid, cancelled and trashed invoices, and invoices without an e-mail address', async () => {
    await k.options.set('late_fee_enabled', true, CLI);
    await k.options.set('late_fee_type', 'flat', CLI);
    await k.options.set('late_fee_amount', '25', CLI);
    await k.options.set('late_fee_after_days', 2, CLI);
    const draft = await overdueInvoice(3, { status: 'draft' });
    const paid = await overdueInvoice(3);
    await k.api.payments.record(paid.id, { amount: '1500.00', method: 'cheque', status: 'completed' }, CLI);
    const cancelled = await overdueInvoice(3);
    await k.api.creditNotes.create(cancelled.id, { amount: '1500.00', reason: 'not delivered' } as never, CLI);
    const trashed = await overdueInvoice(3);
    await k.api.invoices.trash(trashed.id, CLI);
    const noMail = await overdueInvoice(3, { customer_email: '' });
    const partial = await overdueInvoice(3);
    await k.api.payments.record(partial.id, { amount: '500.00', method: 'cheque', status: 'completed' }, CLI);
    expect((await k.api.invoices.get(cancelled.id)).status).toBe('cancelled');

    await k.jobs.runNow(JOB);
    const mails = await newReminders();
    for (const doc of [draft, paid, cancelled, trashed, noMail]) {
      expect(await rows(doc.id)).toEqual([]);
      // no fee either (an open invoice without an e-mail address does owe one: it is overdue all the same)
      const fees = await k.db.query('select 1 from reminders_late_fees where invoice_id = $1', [doc.id]);
      expect(fees).toHaveLength(doc === noMail ? 1 : 0);
      expect(mails.filter((m) => doc.customer.email && m.envelope.to.includes(doc.customer.email))).toHaveLength(0);
    }
    // a partly paid invoice is still open: its fee first, then reminded of what is left with it
    const mine = mails.filter((m) => m.envelope.to.includes(partial.customer.email));
    expect(mine).toHaveLength(1);
    expect(String(mine[0]!.parsed.text)).toContain('$1,025.00 left');
  });

  it('sends nothing for a reminder queued before the invoice was paid, and retries a server that was down', async () => {
    const invoice = await overdueInvoice(1);
    smtp.reject = { code: 451, message: 'try again later' };
    await k.jobs.runNow(JOB);
    await newReminders().finally(() => (smtp.reject = null));
    const log = () => k.api.mail.deliveries(invoice.id);
    expect((await log()).map((d) => [d.template, d.result])).toEqual([['payment_reminder', 'failed']]);
    expect((await rows(invoice.id)).map((r) => r.status)).toEqual(['skipped', 'queued']);

    // paid before the retry comes: the queued reminder is dropped, not sent
    await k.api.payments.record(invoice.id, { amount: '1500.00', method: 'cheque', status: 'completed' }, CLI);
    await waitFor(async () => (await rows(invoice.id))[1]!.status === 'cancelled', {
      timeoutMs: 15_000,
      everyMs: 200,
      what: 'the queued reminder to be cancelled',
    });
    const mails = (await newReminders()).filter((m) => m.envelope.to.includes(invoice.customer.email));
    expect(mails).toHaveLength(0);
    expect((await log()).filter((d) => d.template === 'payment_reminder')).toHaveLength(1);
  }, 30_000);
});

describe('bounds of a run', () => {
  it('gives one address at most REMINDERS_PER_ADDRESS reminders per run, one per invoice; the next runs send the rest', async () => {
    expect(REMINDERS_PER_ADDRESS).toBe(10);
    // one address on 15 overdue invoices (written two ways), and someone else's
    const flooded = [];
    for (let i = 0; i < 15; i++)
      flooded.push(await overdueInvoice(20, { customer_email: i % 2 ? 'Many@Example.com' : 'many@example.com' }));
    const other = await overdueInvoice(20);
    const toMany = (mails: ReceivedMail[]) => mails.filter((m) => m.envelope.to.some((t) => t.toLowerCase() === 'many@example.com'));
    const subjects = (mails: ReceivedMail[]) => mails.map((m) => m.parsed.subject ?? '');

    const first = await k.jobs.runNow(JOB);
    expect(first.result).toMatchObject({ deferred: 5 });
    const run1 = await newReminders();
    expect(toMany(run1)).toHaveLength(10);
    // the oldest invoices first, one reminder each (its latest due step)
    expect(subjects(toMany(run1)).sort()).toEqual(
      flooded
        .slice(0, 10)
        .map((i) => `Step 14: ${i.number} for ${i.customer.name}`)
        .sort(),
    );
    expect(run1.filter((m) => m.envelope.to.includes(other.customer.email))).toHaveLength(1);

    await k.jobs.runNow(JOB);
    const run2 = await newReminders();
    expect(subjects(toMany(run2)).sort()).toEqual(
      flooded
        .slice(10)
        .map((i) => `Step 14: ${i.number} for ${i.customer.name}`)
        .sort(),
    );
    await k.jobs.runNow(JOB);
    expect(toMany(await newReminders())).toEqual([]);
    const sent = await k.db.query<{ n: number }>(
      `select count(*)::int as n from reminders_sent where invoice_id = any($1) and status = 'sent'`,
      [flooded.map((i) => i.id)],
    );
    expect(sent[0]!.n).toBe(15);
  }, 60_000);
});

describe('deactivated', () => {
  it('stops at once on both instances and keeps what it recorded', async () => {
    const invoice = await overdueInvoice(1);
    const [{ n: before }] = await k.db.query<{ n: string }>('select count(*) as n from reminders_sent');
    const off = await billing(svc.databaseUrl, ['plugin', 'deactivate', 'reminders']);
    expect(off.code).toBe(0);
    await waitFor(() => !k.plugins.isLoaded('reminders') && !k2.plugins.isLoaded('reminders'), {
      what: 'both instances to unload reminders',
    });
    await expect(k.jobs.runNow(JOB)).rejects.toMatchObject({ code: 'billing_unknown_job' });
    expect(await rows(invoice.id)).toEqual([]);
    const [{ n: after }] = await k.db.query<{ n: string }>('select count(*) as n from reminders_sent');
    expect(after).toBe(before);
    expect((await billing(svc.databaseUrl, ['plugin', 'activate', 'reminders'])).code).toBe(0);
    await waitFor(() => k.plugins.isLoaded('reminders') && k2.plugins.isLoaded('reminders'), {
      what: 'both instances to load reminders again',
    });
    await k.jobs.runNow(JOB);
    expect((await newReminders()).filter((m) => m.envelope.to.includes(invoice.customer.email))).toHaveLength(1);
  }, 30_000);
});

describe('tags', () => {
  it('fills every tag, escaping the values in the HTML part and keeping them as text in the text part', async () => {
    const name = '<script>alert(1)</script> & "Sons"';
    const invoice = await overdueInvoice(1, { customer_name: name });
    const key = await k.api.invoices.accessKey(invoice.id);
    const link = `${k.config.baseUrl}/billing/invoice/${invoice.id}?key=${encodeURIComponent(key)}`;
    await k.jobs.runNow(JOB);
    const [mail] = (await newReminders()).filter((m) => m.envelope.to.includes(invoice.customer.email));
    expect(mail!.parsed.subject).toBe(`Step 1: ${invoice.number} for ${name}`);
    const htmlPart = String(mail!.parsed.html);
    expect(htmlPart).not.toContain('<script>alert(1)</script>');
    expect(htmlPart).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Sons&quot;');
    expect(htmlPart).toContain('<p>Dear '); // the step's own markup stays markup
    expect(htmlPart).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    const text = String(mail!.parsed.text);
    expect(text).toContain(`Dear ${name},`);
    expect(text).toContain(`Invoice ${invoice.number} ($1,500.00, due `);
    expect(text).toContain(link);
    expect(text).toContain('Lee & Partners');
    expect(text).not.toContain('<p>');
  });
});

describe('the default steps', () => {
  it("are sent in the invoice's language; steps the site wrote itself are sent as written", async () => {
    await k.options.set('reminder_steps', DEFAULT_STEPS as never, CLI);
    try {
      const german = await overdueInvoice(1, { locale: 'de' });
      const english = await overdueInvoice(1);
      await k.jobs.runNow(JOB);
      await newReminders();
      const to = (inv: { customer: { email: string } }) => smtp.received.find((m) => m.envelope.to.includes(inv.customer.email))!.parsed;
      expect(to(german).subject).toBe(`Zahlungserinnerung: Rechnung ${german.number} ist überfällig`);
      expect(String(to(german).text)).toContain(`Guten Tag ${german.customer.name},`);
      expect(String(to(german).text)).toContain('Offener Betrag: 1.500,00');
      expect(String(to(german).html)).toContain(`Rechnung ${german.number} ansehen`);
      expect(to(english).subject).toBe(`Invoice ${english.number} is overdue`);
      expect(String(to(english).text)).toContain('Amount due: $1,500.00');
    } finally {
      await k.options.set('reminder_steps', STEPS as never, CLI);
    }
  });
});

describe('late fee', () => {
  it('is exact money, added once, and leaves a partly paid invoice partial', async () => {
    await k.options.set('late_fee_enabled', true, CLI);
    await k.options.set('late_fee_type', 'percent', CLI);
    await k.options.set('late_fee_amount', '2.5', CLI);
    await k.options.set('late_fee_after_days', 7, CLI);
    const invoice = await k.api.invoices.create(
      {
        items: [{ name: 'Design', quantity: 1, price: '333.33' }],
        customer_name: 'Fee Test',
        customer_email: 'fee@example.com',
        issue_date: addDays(today(), -40),
        due_date: addDays(today(), -10),
        status: 'available',
      } as never,
      { actor: CLI, source: 'api' },
    );
    await k.api.payments.record(invoice.id, { amount: '100.00', method: 'cheque', status: 'completed' }, CLI);
    const applied: string[] = [];
    k.hooks.addAction(
      'billing_late_fee_applied' as never,
      ((id: number, _inv: unknown, amount: string) => {
        if (id === invoice.id) applied.push(amount);
      }) as never,
    );
    await k.jobs.runNow(JOB);
    await k.jobs.runNow(JOB);
    const after = await k.api.invoices.get(invoice.id);
    // 2.5 % of 333.33 + tax = total; the fee is rounded half away from zero to cents
    const base = Number(invoice.totals.total);
    const fee = (Math.round(base * 2.5) / 100).toFixed(2);
    expect(after.items.filter((i) => i.name === 'Late fee').map((i) => i.amount)).toEqual([fee]);
    expect(after.totals.total).toBe(((Math.round(base * 100) + Math.round(Number(fee) * 100)) / 100).toFixed(2));
    expect(after.totals.due).toBe(((Math.round(Number(after.totals.total) * 100) - 10000) / 100).toFixed(2));
    expect(after.status).toBe('partial');
    await waitFor(() => applied.length === 1, { what: 'the late fee hook to fire once' });
    expect(applied).toEqual([fee]);
  });
});
