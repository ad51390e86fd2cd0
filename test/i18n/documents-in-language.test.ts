import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type AjaxClient, type RestClient, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const svc = useService({
  mail: true,
  options: { company_name: 'Acme Studio', company_email: 'billing@acme.test', currency: 'EUR', tax_rate: 19, business_country: 'DE' },
});
let k: Kernel;
let admin: TestUser;
let api: RestClient;
let boss: AjaxClient;

/** What each language must show: an accountant's words and the locale's own amounts and dates. */
const EXPECTED = {
  en: {
    lang: 'en',
    period: ['Service period', '1 Jan 2026 – 30 Jan 2026'],
    invoice: 'Invoice',
    words: ['Issue date', 'Due date', 'Subtotal', 'Amount due'],
    amount: '€12,345.50',
    date: '31 Jan 2026',
    subject: 'Invoice {n} from Acme Studio',
    hello: 'Hello Zoë,',
  },
  de: {
    lang: 'de',
    period: ['Leistungszeitraum', '01.01.2026 – 30.01.2026'],
    invoice: 'Rechnung',
    words: ['Rechnungsdatum', 'Fällig am', 'Zwischensumme', 'Gesamtbetrag', 'MwSt.'],
    amount: '12.345,50 €',
    date: '31.01.2026',
    subject: 'Rechnung {n} von Acme Studio',
    hello: 'Guten Tag Zoë,',
  },
  fr: {
    lang: 'fr',
    period: ['Période de prestation', '01/01/2026 – 30/01/2026'],
    invoice: 'Facture',
    words: ['Date de facture', 'Échéance', 'Total HT', 'TVA', 'Total TTC'],
    amount: '12 345,50 €',
    date: '31/01/2026',
    subject: 'Facture {n} de Acme Studio',
    hello: 'Bonjour Zoë,',
  },
  es: {
    lang: 'es',
    period: ['Periodo de servicio', '01/01/2026 – 30/01/2026'],
    invoice: 'Factura',
    words: ['Fecha de factura', 'Vencimiento', 'Base imponible', 'IVA'],
    amount: '12.345,50 €',
    date: '31/01/2026',
    subject: 'Factura {n} de Acme Studio',
    hello: 'Estimado/a Zoë:',
  },
  it: {
    lang: 'it',
    period: ['Periodo di riferimento', '01/01/2026 – 30/01/2026'],
    invoice: 'Fattura',
    words: ['Data fattura', 'Scadenza', 'Imponibile', 'IVA'],
    amount: '12.345,50 €',
    date: '31/01/2026',
    subject: 'Fattura {n} di Acme Studio',
    hello: 'Gentile Zoë,',
  },
  nl: {
    lang: 'nl',
    period: ['Prestatieperiode', '01-01-2026 – 30-01-2026'],
    invoice: 'Factuur',
    words: ['Factuurdatum', 'Vervaldatum', 'Subtotaal', 'Btw'],
    amount: '€ 12.345,50',
    date: '31-01-2026',
    subject: 'Factuur {n} van Acme Studio',
    hello: 'Beste Zoë,',
  },
} as const;

/** Text as a reader sees it: every run of white space (no-break and narrow no-break too) one space. */
const flat = (s: string) => s.replace(/\s+/g, ' ');

async function clientIn(locale: string | null, login = `client-${locale ?? 'none'}-${Math.random().toString(36).slice(2, 8)}`) {
  return k.identity.users.create({ login, email: `${login}@example.com`, role: 'billing_client', display_name: 'Zoë', locale }, CLI);
}

/** An invoice of 12 345,50 € before tax, dated 31 Jan 2026 for the service of 1–30 Jan, for a client of `locale`. */
async function invoiceFor(locale: string | null) {
  const client = await clientIn(locale);
  const res = await api.post('/invoices', {
    client_id: client.id,
    customer_email: client.email,
    issue_date: '2026-01-31',
    due_date: '2026-03-02',
    period_start: '2026-01-01',
    period_end: '2026-01-30',
    status: 'available',
    items: [{ name: 'Consulting', quantity: 1, price: '12345.50' }],
  });
  expect(res.status).toBe(201);
  const key = await k.api.invoices.accessKey(res.body.id);
  return { id: res.body.id as number, number: res.body.number as string, key, body: res.body };
}

const page = (id: number, key: string) => fetch(`${k.url}/billing/invoice/${id}?key=${encodeURIComponent(key)}`);
const pdf = async (id: number, key: string) =>
  pdfText(new Uint8Array(await (await fetch(`${k.url}/billing/invoice/${id}/pdf?key=${encodeURIComponent(key)}`)).arrayBuffer()));

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('owner', 'administrator', 'owner-pass-1');
  api = svc.rest(admin);
  boss = await svc.ajax('owner', 'owner-pass-1');
});

describe.each(Object.keys(EXPECTED) as Array<keyof typeof EXPECTED>)('an invoice for a client of locale %s', (locale) => {
  const want = EXPECTED[locale];

  it('takes the client’s locale, and its PDF reads in that language with its amounts and dates', async () => {
    const inv = await invoiceFor(locale);
    expect(inv.body.locale).toBe(locale);
    const { text } = await pdf(inv.id, inv.key);
    expect(text).toContain(want.invoice.toUpperCase());
    for (const word of want.words) expect(text).toContain(word);
    expect(text).toContain(want.period[0]);
    expect(text).toContain(want.period[1]);
    expect(text).toContain(flat(want.amount));
    expect(text).toContain(want.date);
  });

  it('has a public page in that language, with its html lang', async () => {
    const inv = await invoiceFor(locale);
    const html = await (await page(inv.id, inv.key)).text();
    expect(html).toContain(`<html lang="${want.lang}">`);
    expect(html).toContain(`<title>${want.invoice} ${inv.number}</title>`);
    expect(flat(html)).toContain(flat(want.amount));
    expect(html).toContain(want.date);
    for (const word of want.words.slice(2)) expect(html).toContain(word);
    expect(html).toContain(`${want.period[0]} ${want.period[1]}`);
    if (locale !== 'en') expect(html).not.toContain('Download PDF');
  });

  it('sends a mail whose subject and body are in that language', async () => {
    const inv = await invoiceFor(locale);
    const before = svc.mail.received.length;
    const res = await boss.post({ _wpnonce: boss.nonce, action: 'billing_send_invoice_email', id: String(inv.id) });
    expect(res.status).toBe(200);
    const mail = svc.mail.received[before]!.parsed;
    expect(mail.subject).toBe(want.subject.replace('{n}', inv.number));
    expect(String(mail.text)).toContain(want.hello);
    expect(flat(String(mail.text))).toContain(flat(want.amount));
    expect(String(mail.html)).toContain(`lang="${want.lang}"`);
    if (locale !== 'en') expect(String(mail.text)).not.toMatch(/View the invoice online|Hello/);
  });
});

describe('quotes and credit notes', () => {
  it('a German quote and a credit note of a German invoice print in German', async () => {
    const client = await clientIn('de');
    const quote = await api.post('/quotes', {
      client_id: client.id,
      issue_date: '2026-01-31',
      expiry_date: '2026-02-28',
      items: [{ name: 'Entwurf', quantity: 1, price: '12345.50' }],
    });
    expect(quote.body.locale).toBe('de');
    const key = await k.api.quotes.accessKey(quote.body.id);
    const quotePdf = await pdfText(
      new Uint8Array(await (await fetch(`${k.url}/billing/quote/${quote.body.id}/pdf?key=${encodeURIComponent(key)}`)).arrayBuffer()),
    );
    for (const word of ['ANGEBOT', 'Angebotsdatum', 'Gültig bis', '28.02.2026', 'Angebotssumme', '12.345,50 €'])
      expect(quotePdf.text).toContain(word);

    const inv = await invoiceFor('de');
    const { creditNote } = await k.api.creditNotes.create(inv.id, { amount: '100.00', reason: 'Rabatt' }, CLI);
    expect(creditNote.locale).toBe('de');
    const { pdf } = await k.api.creditNotes.pdf(creditNote.id);
    const text = (await pdfText(new Uint8Array(pdf.bytes))).text;
    for (const word of [
      'GUTSCHRIFT',
      'Zwischensumme',
      `Gutschrift zu Rechnung ${inv.number}`,
      'Grund:',
      'Rabatt',
      'Gutschriftsbetrag',
      '100,00 €',
    ])
      expect(text).toContain(word);
  });
});

describe('which language a document prints in', () => {
  it('a tag the service does not ship (pt) is taken and prints in English; a malformed one is 400 and changes nothing', async () => {
    const client = await clientIn(null);
    const pt = await api.post('/invoices', { client_id: client.id, locale: 'pt-BR', items: [{ name: 'A', quantity: 1, price: '10' }] });
    expect(pt.status).toBe(201);
    expect(pt.body.locale).toBe('pt-BR');
    const key = await k.api.invoices.accessKey(pt.body.id);
    expect(await (await page(pt.body.id, key)).text()).toContain('<html lang="en">');

    const count = await k.db.query<{ n: number }>('select count(*)::int as n from billing_documents');
    for (const bad of ['en_US', 'x', '12']) {
      const res = await api.post('/invoices', { client_id: client.id, locale: bad, items: [{ name: 'A', quantity: 1, price: '10' }] });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'rest_invalid_param']);
    }
    expect(await k.db.query('select count(*)::int as n from billing_documents')).toEqual(count);
  });

  it('without a locale of its own or of its client, prints in site_locale', async () => {
    const inv = await invoiceFor(null);
    expect(inv.body.locale).toBeNull();
    await k.options.set('site_locale', 'fr', CLI);
    try {
      const html = await (await page(inv.id, inv.key)).text();
      expect(html).toContain('<html lang="fr">');
      expect(html).toContain('Facture');
    } finally {
      await k.options.set('site_locale', 'en', CLI);
    }
  });

  it('a document’s own locale wins over its client’s', async () => {
    const client = await clientIn('de');
    const res = await api.post('/invoices', { client_id: client.id, locale: 'it', items: [{ name: 'A', quantity: 1, price: '10' }] });
    expect(res.body.locale).toBe('it');
    const key = await k.api.invoices.accessKey(res.body.id);
    expect(await (await page(res.body.id, key)).text()).toContain('<html lang="it">');
  });
});
