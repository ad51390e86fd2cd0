import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, useService, type MailCatcher } from '../../testing/index.ts';
import { runUntilKilled } from '../helpers/kill-after.ts';

/**
 * The mails that follow a payment are durable (docs/decisions.md, "Durable side effects"): written to
 * the outbox in the payment's transaction, sent after commit by whichever instance claims them. A
 * rolled-back change sends nothing; a process killed right after its commits loses nothing; two
 * instances draining one outbox send each mail once.
 */
const DIE = resolve(import.meta.dirname, 'fixtures/pay-and-die.ts');

const svc = useService({ mail: true, options: { company_email: 'office@example.com' } });
let smtp: MailCatcher;
let a: Kernel;

async function issued(email: string) {
  return a.api.invoices.create(
    {
      items: [{ name: 'Hours', quantity: 1, price: '1000.00', taxable: false }],
      customer_name: 'Pat',
      customer_email: email,
      status: 'available',
    },
    { actor: CLI, source: 'api' },
  );
}

beforeAll(() => {
  a = svc.kernel;
  smtp = svc.mail;
});

describe('a mail that follows a change', () => {
  it('is never sent when the change rolls back', async () => {
    const invoice = await issued('rollback@example.com');
    await expect(
      a.db.transaction(async (tx) => {
        const payment = {
          id: 1,
          reference: 'P000001',
          amount: '1.00',
          currency: 'USD',
          method: 'cash',
          status: 'completed',
          date: new Date(),
        };
        await a.hooks.fire(tx, 'billing_payment_completed', invoice.id, invoice, payment as never);
        throw new Error('the payment failed after all');
      }),
    ).rejects.toThrow('the payment failed after all');
    await a.outbox.drain();
    expect(smtp.received.filter((m) => m.envelope.to.includes('rollback@example.com'))).toEqual([]);
    expect(await a.db.query(`select id from billing_outbox where payload::text like '%rollback@example.com%'`)).toEqual([]);
  });

  it('is retried until the server takes it, and its failures are kept', async () => {
    const invoice = await issued('later@example.com');
    smtp.reject = { code: 451, message: 'try again later' };
    await a.api.payments.record(invoice.id, { amount: '1.00', method: 'cash', status: 'completed' }, CLI);
    await a.outbox.drain();
    smtp.reject = null;
    const [item] = await a.db.query<{ id: string; status: string; attempts: number; last_error: string }>(
      `select id, status, attempts, last_error from billing_outbox where topic = 'mail.payment_received' order by id desc limit 1`,
    );
    expect(item).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('451') });
    // both mails of the payment (the customer's and the office's receipt) were refused; due again now
    expect(await a.db.query(`update billing_outbox set run_after = now() where status = 'pending' returning id`)).toHaveLength(2);
    await a.outbox.drain();
    expect(smtp.received.filter((m) => m.envelope.to.includes('later@example.com'))).toHaveLength(1);
    expect(await a.db.query(`select id from billing_outbox where status <> 'done'`)).toEqual([]);
    const log = await a.db.query<{ result: string }>(
      `select result from billing_mail_log where recipient = 'later@example.com' order by id`,
    );
    expect(log.map((r) => r.result)).toEqual(['failed', 'sent']);
  });
});

describe('a process killed after committing payments', () => {
  it('loses none of their mails: two instances then send each exactly once', async () => {
    const invoices = await Promise.all(['x1@example.com', 'x2@example.com', 'x3@example.com'].map(issued));
    const before = smtp.received.length;
    const done = await runUntilKilled(DIE, [svc.databaseUrl, invoices.map((i) => i.id).join(',')], 40);
    expect(done.length).toBeGreaterThanOrEqual(40);

    const payments = await a.db.query<{ id: string }>(
      `select p.id from billing_payments p where p.invoice_id = any($1) and p.status = 'completed'`,
      [invoices.map((i) => i.id)],
    );
    // every committed payment, and only those, left its two mails
    expect(payments.length).toBeGreaterThanOrEqual(done.length);

    const b = await bootKernel(svc.databaseUrl, { config: { smtpUrl: smtp.url } });
    try {
      await Promise.all([a.outbox.drain(), b.outbox.drain()]);
    } finally {
      await b.stop();
    }
    const fresh = smtp.received.slice(before);
    // One message per payment and recipient. SMTP is at-least-once: an instance stopped between the
    // server's "250 OK" and our record of it sends again — then with the same Message-ID, one message.
    const messages = (to: (address: string) => boolean) =>
      new Set(fresh.filter((m) => to(m.envelope.to[0]!)).map((m) => m.parsed.messageId));
    const toCustomers = messages((a) => /^x\d@example\.com$/.test(a));
    const receipts = messages((a) => a === 'office@example.com');
    expect(toCustomers.size).toBe(payments.length);
    expect(receipts.size).toBe(payments.length);
    expect(new Set(fresh.map((m) => m.parsed.messageId)).size).toBe(2 * payments.length);
    expect(fresh.length).toBeLessThanOrEqual(2 * payments.length + 2);
    // the Message-ID names the mail and the payment, so a resend is recognisably the same message
    const ids = new Set(payments.map((p) => String(p.id)));
    for (const m of fresh) expect(ids.has(/^<[a-z_]+\.(\d+)@/.exec(m.parsed.messageId ?? '')?.[1] ?? '')).toBe(true);
    const perPayment = await a.db.query<{ payment_id: string; template: string; n: string }>(
      `select payment_id, template, count(*) as n from billing_mail_log where payment_id = any($1) and result = 'sent'
        group by payment_id, template having count(*) <> 1`,
      [payments.map((p) => p.id)],
    );
    expect(perPayment).toEqual([]);
  }, 120_000);
});
