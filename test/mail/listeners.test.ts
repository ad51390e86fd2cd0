import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type MailCatcher, type ReceivedMail } from '../../testing/index.ts';

const svc = useService({ mail: true, options: { company_name: 'Lee & Partners', company_email: 'office@lee.test' } });
let k: Kernel;
let smtp: MailCatcher;

const items = [{ name: 'Consulting', quantity: 10, price: 150 }];

/** The mails received since the last call, once the listeners' background sends are done. */
let seen = 0;
async function newMail(): Promise<ReceivedMail[]> {
  await k.outbox.drain();
  const fresh = smtp.received.slice(seen);
  seen = smtp.received.length;
  return fresh;
}

const to = (m: ReceivedMail) => m.envelope.to.join(',');

async function issuedInvoice() {
  return k.api.invoices.create({ items, customer_name: 'Pat Lee', customer_email: 'pat@example.com', status: 'available' } as never, {
    actor: CLI,
    source: 'api',
  });
}

async function openQuote() {
  const quote = await k.api.quotes.create(
    { items, customer_name: 'Pat Lee', customer_email: 'pat@example.com', status: 'available', expiry_date: '2099-01-01' } as never,
    { actor: CLI, source: 'api' },
  );
  return { quote, token: await k.api.quotes.mintToken(quote.id) };
}

beforeAll(async () => {
  k = svc.kernel;
  smtp = svc.mail;
  await svc.makeUser('owner', 'administrator');
});

beforeEach(async () => {
  await newMail();
});

describe('after a completed payment (billing_payment_completed)', () => {
  it('thanks the customer with what is still due, and sends the administrator a receipt', async () => {
    const invoice = await issuedInvoice();
    const key = await k.api.invoices.accessKey(invoice.id);
    const { payment } = await k.api.payments.record(invoice.id, { amount: '400.00', method: 'cheque', status: 'completed' }, CLI);
    const mails = await newMail();
    expect(mails.map(to).sort()).toEqual(['office@lee.test', 'pat@example.com']);

    const customer = mails.find((m) => to(m) === 'pat@example.com')!.parsed;
    expect(customer.subject).toBe('Payment received for invoice INV-0001');
    expect(String(customer.text)).toContain('Lee & Partners has received your payment of $400.00 (cheque) for invoice INV-0001.');
    expect(String(customer.text)).toContain('$1,100.00 is still due on invoice INV-0001.');
    expect(String(customer.text)).toContain(`Payment reference: ${payment.reference}`);
    expect(String(customer.html)).toContain(`href="${k.config.baseUrl}/billing/invoice/${invoice.id}?key=${encodeURIComponent(key)}"`);

    const admin = mails.find((m) => to(m) === 'office@lee.test')!.parsed;
    expect(admin.subject).toBe('Payment received: $400.00 for invoice INV-0001');
    expect(String(admin.text)).toContain('Still due: $1,100.00');
    expect(String(admin.text)).toContain('Method: cheque');
    // the administrator's receipt carries no customer link, so no access key
    expect(String(admin.html)).not.toContain(key);

    const log = await k.api.mail.deliveries(invoice.id);
    expect(log.map((d) => [d.template, d.payment_id, d.result]).sort()).toEqual([
      ['payment_receipt', payment.id, 'sent'],
      ['payment_received', payment.id, 'sent'],
    ]);

    // the rest: paid in full
    await k.api.payments.record(invoice.id, { amount: '1100.00', method: 'bank_transfer', status: 'completed' }, CLI);
    const final = (await newMail()).find((m) => to(m) === 'pat@example.com')!.parsed;
    expect(String(final.text)).toContain('Invoice INV-0001 is now paid in full.');
  });

  it('sends nothing for a payment that is only pending, and the receipt to the first administrator without company_email', async () => {
    const invoice = await issuedInvoice();
    const { payment } = await k.api.payments.record(invoice.id, { amount: '100.00', method: 'bank_transfer', status: 'pending' }, CLI);
    expect(await newMail()).toEqual([]);
    await k.options.set('company_email', '', CLI);
    try {
      await k.api.payments.complete(payment.id, CLI);
      // the first start's administrator, made before 'owner'
      const [first] = await k.db.query<{ email: string }>(
        `select email from billing_users where role = 'administrator' order by id limit 1`,
      );
      expect(first!.email).not.toBe('owner@example.com');
      expect((await newMail()).map(to).sort()).toEqual([first!.email, 'pat@example.com'].sort());
    } finally {
      await k.options.set('company_email', 'office@lee.test', CLI);
    }
  });

  it('a refused mail does not undo the payment: it is in the delivery log', async () => {
    const invoice = await issuedInvoice();
    smtp.reject = { code: 554, message: '5.0.0 Transaction failed' };
    try {
      await k.api.payments.record(invoice.id, { amount: '50.00', method: 'cash', status: 'completed' }, CLI);
      await k.outbox.drain();
    } finally {
      smtp.reject = null;
    }
    expect((await k.api.invoices.get(invoice.id)).status).toBe('partial');
    const log = await k.api.mail.deliveries(invoice.id);
    expect(log.map((d) => [d.result, d.response])).toEqual([
      ['failed', '554 5.0.0 Transaction failed'],
      ['failed', '554 5.0.0 Transaction failed'],
    ]);
  });
});

describe('after a customer answers a quote', () => {
  it('tells the administrator of an acceptance, naming the invoice made from it', async () => {
    const { quote, token } = await openQuote();
    const { invoice } = await k.api.quotes.accept(quote.id, { token });
    const [notice, ...rest] = await newMail();
    expect(rest).toEqual([]);
    expect(to(notice!)).toBe('office@lee.test');
    expect(notice!.parsed.subject).toBe(`Quote ${quote.number} accepted by Pat Lee`);
    expect(String(notice!.parsed.text)).toContain(`Invoice ${invoice!.number} was created from it (available).`);
  });

  it('tells the administrator of a refusal, with the reason', async () => {
    const { quote, token } = await openQuote();
    await k.api.quotes.decline(quote.id, { token, reason: 'Too <expensive> & late' });
    const [notice] = await newMail();
    expect(notice!.parsed.subject).toBe(`Quote ${quote.number} declined by Pat Lee`);
    expect(String(notice!.parsed.text)).toContain('Reason: Too <expensive> & late');
    expect(String(notice!.parsed.html)).toContain('Too &lt;expensive&gt; &amp; late');
  });

  it('sends the new invoice to the customer when quote_accept_action is convert_and_send', async () => {
    await k.options.set('quote_accept_action', 'convert_and_send', CLI);
    try {
      const { quote, token } = await openQuote();
      const { invoice } = await k.api.quotes.accept(quote.id, { token });
      const mails = await newMail();
      expect(mails.map(to).sort()).toEqual(['office@lee.test', 'pat@example.com']);
      const sent = mails.find((m) => to(m) === 'pat@example.com')!.parsed;
      expect(sent.subject).toBe(`Invoice ${invoice!.number} from Lee & Partners`);
      const [row] = await k.db.query<{ sent_at: string | null }>('select sent_at from billing_documents where id = $1', [invoice!.id]);
      expect(row!.sent_at).not.toBeNull();
    } finally {
      await k.options.set('quote_accept_action', 'convert_available', CLI);
    }
  });
});
