import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { createLogger } from '../../core/log.ts';
import { MailCatcher, useService, type AjaxAnswer, type AjaxClient } from '../../testing/index.ts';

/** A 1×1 PNG: the company logo, carried in the mail as an inline part. */
const LOGO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const CUSTOMER = 'Zoë <b>Quinn</b> & Co';

/** Every JSON line the service logged: none may hold an access key. */
const logLines: string[] = [];
/** The documents' access keys, read as the service stops. */
const keys: string[] = [];
const svc = useService({
  mail: true,
  log: createLogger('debug', {
    write: (line: string) => {
      logLines.push(line);
    },
  }),
  options: {
    company_name: 'Acme Studio',
    company_address: 'Rue Haute 1\n1000 Brussels',
    company_email: 'billing@acme.test',
    company_logo_url: LOGO,
    tax_rate: 21,
  },
});
let k: Kernel;
let smtp: MailCatcher;
const as: Record<string, AjaxClient> = {};
const events: Array<[string, number, string]> = [];

async function signIn(login: string, role: string): Promise<void> {
  await svc.makeUser(login, role, `${login}-pass-1`);
  as[login] = await svc.ajax(login, `${login}-pass-1`);
}

const ajax = (who: string, fields: Record<string, string>) => as[who]!.post({ _wpnonce: as[who]!.nonce, ...fields });

const items = [
  { name: 'Design work', description: 'Logo & <brand>', quantity: 3, price: 120.5, taxable: true },
  { name: 'Hosting', quantity: 12, price: 9.99, taxable: true },
];

async function draftInvoice(over: Record<string, unknown> = {}) {
  return k.api.invoices.create({ items, customer_name: CUSTOMER, customer_email: 'zoe@example.com', ...over } as never, {
    actor: CLI,
    source: 'api',
  });
}

async function docRow(id: number) {
  const [row] = await k.db.query<{ status: string; sent_at: string | null; updated_at: string }>(
    'select status, sent_at, updated_at from billing_documents where id = $1',
    [id],
  );
  return row!;
}

beforeAll(async () => {
  k = svc.kernel;
  smtp = svc.mail;
  await signIn('boss', 'administrator');
  await signIn('peek', 'billing_viewer');
  for (const hook of ['billing_invoice_sent', 'billing_quote_sent'] as const) {
    k.hooks.addAction(hook, (id, doc) => {
      events.push([hook, id, doc.status]);
    });
  }
  k.hooks.addAction('billing_invoice_status_changed', (id, _doc, from, to) => {
    events.push(['billing_invoice_status_changed', id, `${from}->${to}`]);
  });
  svc.beforeStop(async () => {
    keys.push(...(await k.db.query<{ access_key: string }>('select access_key from billing_documents')).map((r) => r.access_key));
  });
});

beforeEach(() => {
  smtp.reject = null;
  events.length = 0;
});

// after useService's afterAll: every line the service logged, until it stopped
afterAll(() => {
  expect(logLines.length).toBeGreaterThan(0);
  for (const key of keys) for (const line of logLines) expect(line).not.toContain(key);
});

describe('sending an invoice through a real SMTP server', () => {
  let first: Promise<{ id: number; key: string; number: string; mails: number; res: AjaxAnswer }> | null = null;
  /** A draft sent once by e-mail, by whichever test needs it first (each test runs alone). */
  const sent = () =>
    (first ??= (async () => {
      const invoice = await draftInvoice();
      const key = await k.api.invoices.accessKey(invoice.id);
      expect(invoice.status).toBe('draft');
      const mails = smtp.received.length;
      const res = await ajax('boss', { action: 'billing_send_invoice_email', id: String(invoice.id) });
      return { id: invoice.id, key, number: invoice.number, mails, res };
    })());

  it('sends a draft, and only then issues it', async () => {
    const { id, key, number, mails, res } = await sent();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { id, number, status: 'available', issued: true } });
    expect(res.body.data.delivery).toMatchObject({ to: 'zoe@example.com', template: 'invoice_available', result: 'sent' });
    expect(res.body.data.delivery.response).toMatch(/^250 2\.0\.0 Ok: queued as TEST\d+$/);
    expect(JSON.stringify(res.body)).not.toContain(key);

    expect(smtp.received).toHaveLength(mails + 1);
    const row = await docRow(id);
    expect(row.status).toBe('available');
    expect(row.sent_at).not.toBeNull();
    expect(events).toEqual([
      ['billing_invoice_status_changed', id, 'draft->available'],
      ['billing_invoice_sent', id, 'available'],
    ]);
  });

  it('carries the headers, an HTML and a text part, the public link with its key, the company and the PDF', async () => {
    const { id, key, mails } = await sent();
    const { parsed, envelope } = smtp.received[mails]!;
    expect(envelope).toEqual({ from: 'billing@acme.test', to: ['zoe@example.com'] });
    expect(parsed.from?.value).toEqual([{ name: 'Acme Studio', address: 'billing@acme.test' }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : []).toEqual([{ name: '', address: 'zoe@example.com' }]);
    expect(parsed.replyTo?.value[0]?.address).toBe('billing@acme.test');
    expect(parsed.subject).toBe('Invoice INV-0001 from Acme Studio');
    expect(parsed.messageId).toMatch(/^<.+@.+>$/);
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/mixed' });

    const link = `${k.config.baseUrl}/billing/invoice/${id}?key=${encodeURIComponent(key)}`;
    const html = String(parsed.html);
    const text = String(parsed.text);
    // HTML: compiled mjml, the link on the button, the company's details, every value escaped
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain(`href="${link}"`);
    expect(html).toContain('Hello Zoë &lt;b&gt;Quinn&lt;/b&gt; &amp; Co,');
    expect(html).not.toContain('<b>Quinn</b>');
    expect(html).toContain('Logo &amp; &lt;brand&gt;');
    expect(html).toMatch(/Rue Haute 1<br\s*\/?>1000 Brussels/);
    expect(html).toContain('src="cid:company-logo@billing"');
    expect(html).toContain('<title>Invoice INV-0001 from Acme Studio</title>');
    expect(html).not.toMatch(/\{\{[a-z_]+\}\}/);
    // 3 × 120.50 + 12 × 9.99 = 481.38; tax 21 % = 101.09; total 582.47
    for (const amount of ['$361.50', '$119.88', '$481.38', '$101.09', '$582.47']) expect(html).toContain(amount);
    // text: the same facts, no markup
    expect(text).toContain('Hello Zoë <b>Quinn</b> & Co,');
    expect(text).toContain('Acme Studio has sent you invoice INV-0001 for $582.47, due ');
    expect(text).toContain(`View the invoice online:\n${link}`);
    expect(text).toContain('- Design work: 3 x $120.50 = $361.50');
    expect(text).toContain('Amount due: $582.47');
    expect(text).toContain('--\nAcme Studio\nRue Haute 1\n1000 Brussels\nbilling@acme.test');

    // the attachments: the invoice's PDF (as issued: no draft mark) and the inline logo
    const pdf = parsed.attachments.find((a) => a.contentType === 'application/pdf')!;
    expect(pdf.filename).toBe('INV-0001.pdf');
    expect(pdf.contentDisposition).toBe('attachment');
    expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');
    const logo = parsed.attachments.find((a) => a.contentType === 'image/png')!;
    expect(logo.cid).toBe('company-logo@billing');
    expect(logo.content.equals(Buffer.from(LOGO.split(',')[1]!, 'base64'))).toBe(true);

    // the link in the mail opens the customer's page
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('INV-0001');
  });

  it('sends again on request without changing the invoice', async () => {
    const { id } = await sent();
    events.length = 0;
    const before = await docRow(id);
    const mails = smtp.received.length;
    const res = await ajax('boss', { action: 'billing_send_invoice_email', id: String(id) });
    expect(res.body).toMatchObject({ success: true, data: { status: 'available', issued: false } });
    expect(smtp.received).toHaveLength(mails + 1);
    expect(await docRow(id)).toEqual(before);
    expect(events).toEqual([['billing_invoice_sent', id, 'available']]);
  });

  it("keeps every attempt in the delivery log with the server's answer", async () => {
    // a draft of its own, sent twice
    const { id, number } = await draftInvoice();
    for (let i = 0; i < 2; i++) expect((await ajax('boss', { action: 'billing_send_invoice_email', id: String(id) })).status).toBe(200);
    const log = await k.api.mail.deliveries(id);
    expect(log).toHaveLength(2);
    for (const d of log) {
      expect(d).toMatchObject({
        document_id: id,
        template: 'invoice_available',
        recipient: 'zoe@example.com',
        transport: 'smtp',
        result: 'sent',
        error: null,
        actor: 'boss',
      });
      expect(d.subject).toBe(`Invoice ${number} from Acme Studio`);
      expect(d.response).toMatch(/^250 /);
      expect(d.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    const audit = await k.db.query<{ action: string }>(
      `select action from billing_audit_log where object_type = 'invoice' and object_id = $1 order by id`,
      [String(id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['invoice.create', 'invoice.status', 'invoice.send', 'invoice.send']);
  });

  it('leaves the PDF out when attach_pdf_to_email is off', async () => {
    const { id } = await sent();
    await k.options.set('attach_pdf_to_email', false, CLI);
    try {
      await ajax('boss', { action: 'billing_send_invoice_email', id: String(id) });
      const { parsed } = smtp.received.at(-1)!;
      expect(parsed.attachments.map((a) => a.contentType)).toEqual(['image/png']);
      expect(String(parsed.text)).not.toContain('attached as a PDF');
    } finally {
      await k.options.set('attach_pdf_to_email', true, CLI);
    }
  });

  it('passes every message through billing_email with the template name and the document', async () => {
    const { id } = await sent();
    const seen: Array<[string, number]> = [];
    const off = k.hooks.addFilter('billing_email', (message, template, document) => {
      seen.push([template, (document as { id: number }).id]);
      return { ...message, to: 'accounts@example.org', subject: `[Acme] ${message.subject}` };
    });
    try {
      await ajax('boss', { action: 'billing_send_invoice_email', id: String(id) });
    } finally {
      off();
    }
    expect(seen).toEqual([['invoice_available', id]]);
    const last = smtp.received.at(-1)!;
    expect(last.envelope.to).toEqual(['accounts@example.org']);
    expect(last.parsed.subject).toBe('[Acme] Invoice INV-0001 from Acme Studio');
  });
});

describe('a mail server that refuses the message', () => {
  it('leaves the draft a draft, reports the failure and logs the attempt', async () => {
    const invoice = await draftInvoice();
    smtp.reject = { code: 550, message: '5.7.1 Message rejected: policy violation' };
    const res = await ajax('boss', { action: 'billing_send_invoice_email', id: String(invoice.id) });
    expect(res.status).toBe(502);
    expect(res.body.success).toBe(false);
    expect(res.body.data.code).toBe('billing_mail_failed');
    expect(res.body.data.message).toContain('550 5.7.1 Message rejected: policy violation');

    const row = await docRow(invoice.id);
    expect(row.status).toBe('draft');
    expect(row.sent_at).toBeNull();
    expect(events).toEqual([]);
    const [attempt] = await k.api.mail.deliveries(invoice.id);
    expect(attempt).toMatchObject({ id: res.body.data.delivery_id, result: 'failed', transport: 'smtp', template: 'invoice_available' });
    expect(attempt!.response).toBe('550 5.7.1 Message rejected: policy violation');
    expect(attempt!.error).toContain('550 5.7.1 Message rejected');
    const audit = await k.db.query(`select 1 from billing_audit_log where object_id = $1 and action like 'invoice.s%'`, [
      String(invoice.id),
    ]);
    expect(audit).toHaveLength(0);

    // the server takes it the next time: now it is issued
    smtp.reject = null;
    const again = await ajax('boss', { action: 'billing_send_invoice_email', id: String(invoice.id) });
    expect(again.body.data).toMatchObject({ status: 'available', issued: true });
    expect((await k.api.mail.deliveries(invoice.id)).map((d) => d.result)).toEqual(['sent', 'failed']);
  });

  it('reports a server that cannot be reached the same way', async () => {
    const down = await new MailCatcher().start();
    const url = down.url;
    await down.close();
    const { MailService } = await import('../../core/mail/mail-service.ts');
    const { createMailTransport } = await import('../../core/mail/transport.ts');
    const mail = new MailService({
      db: k.db,
      options: k.options,
      hooks: k.hooks,
      config: k.config,
      pdf: k.pdf,
      translations: k.translations,
      log: k.log,
      invoices: k.api.invoices,
      quotes: k.api.quotes,
      attachments: k.services.documents.attachments,
      transport: createMailTransport({ smtpUrl: url, dataDir: k.config.dataDir, log: k.log }),
    });
    const invoice = await draftInvoice();
    await expect(mail.sendInvoice(invoice.id, CLI)).rejects.toMatchObject({ code: 'billing_mail_failed', status: 502 });
    expect((await docRow(invoice.id)).status).toBe('draft');
    const [attempt] = await mail.deliveries(invoice.id);
    expect(attempt).toMatchObject({ result: 'failed', response: '' });
    expect(attempt!.error).toMatch(/ECONNREFUSED|connect/i);
    await mail.close();
  });
});

describe('who may send, and what cannot be sent', () => {
  it('needs bill_send_invoice / bill_send_quote; the legacy names accept manage_options', async () => {
    const invoice = await draftInvoice();
    const denied = await ajax('peek', { action: 'billing_send_invoice_email', id: String(invoice.id) });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ success: false, data: { code: 'billing_forbidden', message: expect.any(String) } });
    expect((await ajax('peek', { action: 'billing_send_quote_email', id: String(invoice.id) })).status).toBe(403);

    // a role changed by a team-roles style filter: manage_options without bill_send_invoice
    const off = k.hooks.addFilter('billing_user_has_cap', (caps, _req, _args, user) =>
      user.login === 'peek' ? { ...caps, manage_options: true } : caps,
    );
    try {
      expect((await ajax('peek', { action: 'billing_send_invoice_email', id: String(invoice.id) })).status).toBe(403);
      const legacy = await ajax('peek', { action: 'billing_send_invoice', id: String(invoice.id) });
      expect(legacy.body).toMatchObject({ success: true, data: { status: 'available', issued: true } });
    } finally {
      off();
    }
  });

  it('refuses a missing id, an unknown one, a document without an address and a quote id as an invoice', async () => {
    expect((await ajax('boss', { action: 'billing_send_invoice_email' })).body.data.code).toBe('rest_missing_callback_param');
    expect((await ajax('boss', { action: 'billing_send_invoice_email', id: 'x' })).body.data.code).toBe('rest_invalid_param');
    const unknown = await ajax('boss', { action: 'billing_send_invoice_email', id: '999999' });
    expect([unknown.status, unknown.body.data.code]).toEqual([404, 'billing_rest_not_found']);
    const nobody = await draftInvoice({ customer_email: '' });
    const noAddress = await ajax('boss', { action: 'billing_send_invoice_email', id: String(nobody.id) });
    expect([noAddress.status, noAddress.body.data.code]).toEqual([409, 'billing_mail_no_recipient']);
    expect((await docRow(nobody.id)).status).toBe('draft');
    const quote = await k.api.quotes.create({ items, customer_email: 'q@example.com' } as never, { actor: CLI, source: 'api' });
    expect((await ajax('boss', { action: 'billing_send_invoice_email', id: String(quote.id) })).status).toBe(404);
  });
});

describe('sending a quote', () => {
  it('issues a draft quote and mails the link where it is accepted or declined', async () => {
    const quote = await k.api.quotes.create(
      { items, customer_name: 'Ana', customer_email: 'ana@example.com', expiry_date: '2099-12-31' } as never,
      { actor: CLI, source: 'api' },
    );
    const res = await ajax('boss', { action: 'billing_send_quote_email', id: String(quote.id) });
    expect(res.body).toMatchObject({ success: true, data: { id: quote.id, status: 'available', issued: true } });
    expect(events).toEqual([['billing_quote_sent', quote.id, 'available']]);

    const { parsed } = smtp.received.at(-1)!;
    const key = await k.api.quotes.accessKey(quote.id);
    const link = `${k.config.baseUrl}/billing/quote/${quote.id}?key=${encodeURIComponent(key)}`;
    expect(parsed.subject).toBe(`Quote ${quote.number} from Acme Studio`);
    expect(String(parsed.html)).toContain(`href="${link}"`);
    expect(String(parsed.text)).toContain(link);
    expect(String(parsed.text)).toContain('valid until 31 Dec 2099');
    expect(parsed.attachments.find((a) => a.contentType === 'application/pdf')?.filename).toBe(`${quote.number}.pdf`);
    const page = await (await fetch(link)).text();
    expect(page).toContain('Accept quote');

    // re-sending changes nothing; an accepted quote is not sent any more
    const token = /name="token"\s+value="([^"]+)"/.exec(page)![1]!;
    await k.api.quotes.accept(quote.id, { token });
    const closed = await ajax('boss', { action: 'billing_send_quote_email', id: String(quote.id) });
    expect([closed.status, closed.body.data.code]).toEqual([409, 'billing_rest_invalid_state']);
  });
});
