import { escapeHtml, Html } from '../../core/http/html.ts';
import type { BillingDocument } from '../../core/documents/document.ts';
import { MJML_OPTIONS, SLOT, type SlotValues } from '../../core/mail/compiled-template.ts';
import { renderMail } from '../../core/mail/render-mail.ts';
import { invoiceAvailable, layoutValues, textFooter, type MailCompany } from '../../core/mail/templates/index.ts';
import { measureOps, type Comparison, type Measure } from '../harness.ts';
import type { Scenario } from '../harness.ts';
import { shippedTranslator } from '../../core/i18n/translator.ts';

const EN = shippedTranslator('en');

const COMPANY: MailCompany = {
  name: 'Acme Studio',
  address: 'Rue Haute 1\n1000 Brussels',
  email: 'billing@acme.test',
  logoSrc: 'cid:company-logo@billing',
};
const CUSTOMERS = ['Ελένη Παπαδοπούλου', 'Дмитрий Иванов', 'Łukasz Żółć', 'Acme Widgets <Ltd> & Co'];

/** The n-th distinct invoice: its own number, customer and lines (no database: only the mail is measured). */
function invoice(n: number): BillingDocument {
  const number = `INV-${String(n).padStart(6, '0')}`;
  const now = new Date();
  return {
    id: n,
    kind: 'invoice',
    number,
    status: 'available',
    trashed: false,
    title: 'Website, phase 2',
    currency: 'EUR',
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    expiryDate: null,
    clientId: null,
    customer: {
      name: CUSTOMERS[n % CUSTOMERS.length]!,
      email: `customer${n}@example.com`,
      country: 'BE',
      vat: '',
      company: '',
      address: '',
    },
    items: [
      { name: 'Design', description: 'Home and product pages', quantity: '3', price: '120.5', amount: '361.50', taxable: true },
      { name: 'Development', description: '', quantity: '12', price: '95', amount: '1140.00', taxable: true },
      { name: 'Hosting', description: 'Twelve months', quantity: '12', price: '9.99', amount: '119.88', taxable: true },
    ],
    discount: null,
    tax: { category: 'standard', statement: '', rate: '21' },
    taxBreakdown: [{ category: 'S', rate: '21', amount: '1621.38', discount: '0.00', basis: '1621.38', tax: '340.49', statement: '' }],
    totals: { subtotal: '1621.38', discount: '0', tax: '340.49', total: '1961.87', paid: '0', credited: '0', due: '1961.87' },
    notes: `Please quote ${number} with your payment.`,
    terms: 'Payment within 30 days.',
    viewed: { count: 0, first: null, last: null },
    sentAt: null,
    accepted: null,
    declined: null,
    invoiceId: null,
    parentId: null,
    reason: null,
    period: { start: null, end: null },
    schedule: null,
    locale: null,
    createdAt: now,
    updatedAt: now,
  };
}

const data = (n: number) => ({ doc: invoice(n), link: `https://billing.example.com/billing/invoice/${n}?key=k${n}`, pdfAttached: true });

/**
 * The baseline: the same template and values, but the values put into the mjml source and the result
 * compiled by mjml for every message, as code that calls mjml2html per send does.
 */
async function compilePerMessage(n: number): Promise<{ html: string; text: string }> {
  const { default: mjml2html } = await import('mjml');
  const parts = invoiceAvailable.build(data(n), COMPANY, EN);
  const values: SlotValues = { ...layoutValues(COMPANY), lang: EN.locale, subject: parts.subject, preview: parts.preview, ...parts.values };
  const source = invoiceAvailable.mjml.replace(SLOT, (_m, name: string) => {
    const v = values[name]!;
    return v instanceof Html ? v.value : escapeHtml(v);
  });
  const { html } = await mjml2html(source, MJML_OPTIONS);
  return { html, text: `${parts.text}\n\n${textFooter(COMPANY)}\n` };
}

const perMessage = (m: Measure) => `${(1000 / m.throughput).toFixed(3)} ms/mail`;

export const mail: Scenario = {
  name: 'mail',
  description: 'mjml cost per message: template compiled once per process and rendered by substitution vs mjml2html per message',
  async run(env) {
    // both sides warmed: mjml loaded, our template compiled, the JIT settled
    for (let i = 0; i < 20; i++) {
      await renderMail(invoiceAvailable, data(i), COMPANY, EN);
      await compilePerMessage(i);
    }
    const same = (await renderMail(invoiceAvailable, data(7), COMPANY, EN)).html === (await compilePerMessage(7)).html;
    let a = 0;
    let b = 0;
    const ours = await measureOps(() => renderMail(invoiceAvailable, data(++a), COMPANY, EN), {
      seconds: env.seconds,
      concurrency: 1,
      unit: 'mail/s',
    });
    const baseline = await measureOps(() => compilePerMessage(++b), { seconds: env.seconds, concurrency: 1, unit: 'mail/s' });
    const row: Comparison = {
      scenario: 'invoice mail, HTML + text, 1 caller',
      ours,
      baseline,
      baselineName: 'mjml2html per mail',
      note: `${perMessage(ours)} vs ${perMessage(baseline)}; same HTML: ${same ? 'yes' : 'NO'}`,
    };
    return [row];
  },
};
