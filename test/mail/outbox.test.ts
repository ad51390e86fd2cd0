import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { CLI } from '../../core/audit/audit.ts';
import { createLogger } from '../../core/log.ts';
import { useService } from '../../testing/index.ts';

const logLines: string[] = [];
// no SMTP_URL: every message goes to DATA_DIR/outbox
const svc = useService({
  config: { smtpUrl: undefined },
  log: createLogger('info', {
    write: (l: string) => {
      logLines.push(l);
    },
  }),
  options: { company_name: 'Outbox & Sons' },
});

describe('without SMTP_URL', () => {
  it('writes each message as an .eml file under DATA_DIR/outbox, logs it without the key, and issues the draft', async () => {
    const invoice = await svc.kernel.api.invoices.create(
      { items: [{ name: 'Audit', quantity: 1, price: 950 }], customer_name: 'Olga', customer_email: 'olga@example.com' } as never,
      { actor: CLI, source: 'api' },
    );
    const key = await svc.kernel.api.invoices.accessKey(invoice.id);
    const result = await svc.kernel.api.mail.sendInvoice(invoice.id, CLI);
    expect(result.issued).toBe(true);
    expect(result.document.status).toBe('available');
    expect(result.delivery).toMatchObject({ transport: 'outbox', result: 'sent', recipient: 'olga@example.com' });

    const dir = join(svc.kernel.config.dataDir, 'outbox');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{6}-\d{3}Z-[0-9a-f]{8}\.eml$/);
    expect(result.delivery.response).toBe(`written to outbox/${files[0]}`);
    // the file holds the key (the customer's link): readable by the service's user only
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const raw = readFileSync(join(dir, files[0]!));
    expect(raw.includes('\r\n')).toBe(true);
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe('Invoice INV-0001 from Outbox & Sons');
    expect(mail.from?.value).toEqual([{ name: 'Outbox & Sons', address: 'billing@localhost' }]); // no company_email: BASE_URL's host, an IP here
    expect(String(mail.text)).toContain(`${svc.kernel.config.baseUrl}/billing/invoice/${invoice.id}?key=${key}`);
    expect(String(mail.html)).toContain('Outbox &amp; Sons');
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([['INV-0001.pdf', 'application/pdf']]);

    const lines = logLines.map((l) => JSON.parse(l));
    const written = lines.find((l) => l.msg === 'mail written to the outbox');
    expect(written).toMatchObject({ file: join(dir, files[0]!), to: 'olga@example.com', subject: 'Invoice INV-0001 from Outbox & Sons' });
    expect(lines.find((l) => l.msg === 'mail sent')).toMatchObject({
      template: 'invoice_available',
      document: invoice.id,
      transport: 'outbox',
    });
    for (const l of logLines) expect(l).not.toContain(key);
  });
});
