import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { siteDate } from '../../core/time/site-time.ts';
import { useService, type RestClient, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const svc = useService({ mail: true, options: { company_name: 'Acme Studio', company_email: 'billing@acme.test', currency: 'EUR' } });
let k: Kernel;
let api: RestClient;
let admin: TestUser;
let today: string;

/** Spaces of every kind as one (French amounts group with narrow no-break spaces). */
const flat = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, ' ');

/**
 * A client of `locale` with an invoice of 1 000,00 € (issued 10 Jan 2026, due 24 Jan), 400,00 € paid on
 * 1 Feb, 50,00 € of it refunded, and a credit note of 100,00 €: 550,00 € stay due.
 */
async function history(locale: string) {
  const login = `st-${locale}`;
  const client = await k.identity.users.create(
    { login, email: `${login}@example.com`, role: 'billing_client', display_name: `Kunde ${locale}`, company: `Firma ${locale}`, locale },
    CLI,
  );
  const inv = await k.api.invoices.create(
    {
      items: [{ name: 'Beratung', quantity: 1, price: '1000.00' }],
      client_id: client.id,
      issue_date: '2026-01-10',
      due_date: '2026-01-24',
      status: 'available',
    } as never,
    { actor: CLI, source: 'api' },
  );
  const { payment } = await k.api.payments.record(
    inv.id,
    { amount: '400.00', method: 'bank_transfer', status: 'completed', date: '2026-02-01' },
    CLI,
  );
  await k.api.payments.refund(payment.id, { amount: '50.00', reason: 'Skonto' }, CLI);
  const { creditNote } = await k.api.creditNotes.create(inv.id, { amount: '100.00', reason: 'Rabatt' }, CLI);
  return { client, invoice: inv, payment, creditNote };
}

beforeAll(async () => {
  k = svc.kernel;
  api = svc.rest();
  admin = await svc.makeUser('boss', 'administrator');
  today = siteDate(new Date(), await k.options.get('timezone'));
});

describe('statement of account: PDF and mail', () => {
  it('prints the same movements and closing balance as the JSON, in German and in French', async () => {
    const words = {
      de: [
        'KONTOAUSZUG',
        'Anfangssaldo',
        'Endsaldo',
        'SOLL',
        'HABEN',
        'SALDO',
        'Rechnung',
        'Zahlung',
        'Erstattung',
        'Gutschrift',
        'Noch nicht fällig',
      ],
      fr: [
        'RELEVÉ DE COMPTE',
        'Solde initial',
        'Solde final',
        'DÉBIT',
        'CRÉDIT',
        'SOLDE',
        'Facture',
        'Règlement',
        'Remboursement',
        'Avoir',
        'Non échu',
      ],
    };
    const money = { de: '550,00 €', fr: '550,00 €' };
    for (const locale of ['de', 'fr'] as const) {
      const h = await history(locale);
      const query = `from=2026-01-01&to=${today}`;
      const json = await api.as(admin.authorization).get(`/clients/${h.client.id}/statement?${query}`);
      expect(json.status).toBe(200);
      expect([json.body.currency, json.body.opening_balance, json.body.closing_balance]).toEqual(['EUR', 0, 550]);
      expect(json.body.lines.map((l: { type: string; debit: number; credit: number }) => [l.type, l.debit, l.credit])).toEqual([
        ['invoice', 1000, 0],
        ['payment', 0, 400],
        ['refund', 50, 0],
        ['credit_note', 0, 100],
      ]);
      expect(json.body.aging.days_over_90 + json.body.aging.days_61_90 + json.body.aging.days_31_60 + json.body.aging.days_1_30).toBe(550);

      const res = await api.as(admin.authorization).get(`/clients/${h.client.id}/statement/pdf?${query}`);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/pdf']);
      const { text } = await pdfText(res.bytes);
      for (const word of words[locale]) expect(flat(text)).toContain(word);
      for (const number of [h.invoice.number, h.payment.reference, h.creditNote.number]) expect(text).toContain(number);
      expect(flat(text)).toContain(flat(money[locale]));
      expect(text).toContain(`Firma ${locale}`);
      if (locale === 'de') expect(text).toContain('10.01.2026');
      else expect(text).toContain('10/01/2026');

      // unchanged: the same ETag, answered 304
      const again = await api
        .as(admin.authorization)
        .get(`/clients/${h.client.id}/statement/pdf?${query}`, { 'If-None-Match': res.headers.get('etag')! });
      expect(again.status).toBe(304);
    }
  });

  it('mails the statement in the client’s language, its PDF attached', async () => {
    const h = await history('it');
    const before = svc.mail.received.length;
    const res = await api.as(admin.authorization).post(`/clients/${h.client.id}/statement/send`, { from: '2026-01-01' });
    expect(res.status).toBe(200);
    expect([res.body.sent, res.body.to]).toEqual([true, h.client.email]);
    // the payment's own mails travel through the outbox meanwhile: the statement is the one with an estratto
    const statements = svc.mail.received.slice(before).filter((m) => m.parsed.subject === 'Estratto conto di Acme Studio');
    expect(statements.map((m) => m.envelope.to)).toEqual([[h.client.email]]);
    const mail = statements[0]!;
    expect(flat(String(mail.parsed.text))).toContain(flat('Saldo al'));
    expect(flat(String(mail.parsed.text))).toContain(flat('550,00 €'));
    const pdf = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf')!;
    expect(pdf.filename).toBe(`Estratto-conto-${h.client.id}-${today}.pdf`);
    const { text } = await pdfText(pdf.content);
    expect(flat(text)).toContain('ESTRATTO CONTO');
    expect(flat(text)).toContain('Saldo finale');
    const log = await k.db.query<{ template: string; recipient: string; result: string }>(
      'select template, recipient, result from billing_mail_log where id = $1',
      [res.body.delivery_id],
    );
    expect(log).toEqual([{ template: 'statement', recipient: h.client.email, result: 'sent' }]);
  });
});
