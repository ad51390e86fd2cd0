import { html, type Html } from '../../http/html.ts';
import type { BillingDocument } from '../../documents/document.ts';
import type { Translator } from '../../i18n/translator.ts';
import { totalsRows } from '../../display/totals-rows.ts';
import { breakdownLabel } from '../../tax/index.ts';
import type { SlotValues } from '../compiled-template.ts';
import type { MailCompany } from './template.ts';

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/**
 * The frame every mail shares: the company's logo and name on top, the message in a white card, the
 * company's name, address and e-mail at the foot. Slots of the frame: `lang` (the mail's language),
 * `subject`, `preview`, `logo`, `company_name`, `company_footer` (filled by `layoutValues`).
 */
export function layout(body: string): string {
  return `<mjml lang="{{lang}}">
  <mj-head>
    <mj-title>{{subject}}</mj-title>
    <mj-preview>{{preview}}</mj-preview>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text font-size="15px" line-height="22px" color="#1f2937" padding="6px 0" />
      <mj-button background-color="#2563eb" color="#ffffff" font-size="15px" font-weight="600" border-radius="6px" inner-padding="12px 24px" />
      <mj-table font-size="14px" line-height="20px" color="#1f2937" padding="8px 0" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section padding="24px 16px 8px">
      <mj-column>
        <mj-text font-size="18px" font-weight="600">{{logo}}{{company_name}}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px" border-radius="6px">
      <mj-column>
${body}
      </mj-column>
    </mj-section>
    <mj-section padding="16px">
      <mj-column>
        <mj-text font-size="12px" line-height="18px" color="#6b7280">{{company_footer}}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

/** The frame's slot values for one company. */
export function layoutValues(company: MailCompany): SlotValues {
  const address = company.address
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    logo: company.logoSrc
      ? html`<img src="${company.logoSrc}" alt="${company.name}" height="48" style="display:block;max-height:48px;border:0;margin:0 0 8px">`
      : '',
    company_name: company.name,
    company_footer: html`${company.name}${address.map((l) => html`<br>${l}`)}${
      company.email ? html`<br><a href="mailto:${company.email}" style="color:#6b7280">${company.email}</a>` : ''
    }`,
  };
}

/** The text part's footer: the same details as the HTML footer. */
export function textFooter(company: MailCompany): string {
  return [
    '--',
    company.name,
    ...company.address
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean),
    company.email,
  ]
    .filter(Boolean)
    .join('\n');
}

/** Text that may hold line breaks, as HTML (escaped, breaks kept). */
export function lines(text: string): Html {
  return html`${text.split(/\r?\n/).map((l, i) => html`${i ? html`<br>` : ''}${l}`)}`;
}

/** "Hello Zoë," or "Hello," when the document names nobody (in the mail's language). */
export function greeting(name: string, tr: Translator): string {
  return name.trim() ? tr.t('mail.greeting', { name: name.trim() }) : tr.t('mail.greeting_anonymous');
}

const CELL = 'padding:6px 0;border-bottom:1px solid #e5e7eb';
const NUM = `${CELL};text-align:right;white-space:nowrap`;

/**
 * The lines and totals of an invoice or quote, as the rows of an `mj-table`. Amounts are the stored
 * exact decimals, printed as they are (never through binary floating point).
 */
export function itemRows(doc: BillingDocument, withDue: boolean, tr: Translator): Html {
  const money = (v: string) => tr.money(v, doc.currency);
  const totals = mailTotals(doc, withDue, tr);
  return html`<tr style="color:#6b7280;font-size:12px;text-align:left"><th style="${CELL}">${tr.t('document.item')}</th><th style="${NUM}">${tr.t('document.quantity')}</th><th style="${NUM}">${tr.t('document.price')}</th><th style="${NUM}">${tr.t('document.amount')}</th></tr>
${doc.items.map((i) => html`<tr><td style="${CELL}">${i.name}${i.description ? html`<br><span style="color:#6b7280;font-size:12px">${i.description}</span>` : ''}</td><td style="${NUM}">${tr.quantity(i.quantity, i.unit)}</td><td style="${NUM}">${money(i.price)}</td><td style="${NUM}">${money(i.amount)}</td></tr>`)}
${totals.map(({ label, amount, grand }) => html`<tr${grand ? html` style="font-weight:600"` : ''}><td colspan="3" style="padding:4px 0;text-align:right">${label}</td><td style="padding:4px 0;text-align:right;white-space:nowrap">${amount}</td></tr>`)}`;
}

/** The same lines and totals for the text part. */
export function itemText(doc: BillingDocument, withDue: boolean, tr: Translator): string {
  const money = (v: string) => tr.money(v, doc.currency);
  const out = doc.items.map((i) => `- ${i.name}: ${tr.quantity(i.quantity, i.unit)} x ${money(i.price)} = ${money(i.amount)}`);
  out.push('', ...mailTotals(doc, withDue, tr).map((r) => `${r.label}: ${r.amount}`));
  return out.join('\n');
}

/** The totals rows of a mail, amounts formatted: a zero tax is left out, a discount reads with a minus. */
function mailTotals(doc: BillingDocument, withDue: boolean, tr: Translator): Array<{ label: string; amount: string; grand: boolean }> {
  const taxLines = doc.taxBreakdown.map((e) => ({ ...e, label: breakdownLabel(e, tr) }));
  return totalsRows({ currency: doc.currency, totals: doc.totals, taxLines }, { texts: tr, settlement: withDue, hideZeroTax: true }).map(
    (r) => ({
      label: r.label,
      amount: `${r.key === 'discount' ? '-' : ''}${tr.money(r.amount, doc.currency)}`,
      grand: r.grand,
    }),
  );
}
