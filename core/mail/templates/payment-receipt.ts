import { html, type Html } from '../../http/html.ts';
import { formatMoney, formatDate, isZero } from '../../display/format.ts';
import { layout } from './layout.ts';
import { methodLabel, type PaymentMailData } from './payment-received.ts';
import type { MailTemplate } from './template.ts';

export type PaymentReceiptData = Omit<PaymentMailData, 'link'>;

/**
 * To the administrator: a payment came in. No public link: the administrator opens the invoice in the
 * admin area, and the access key stays in the customer's mails only.
 */
export const paymentReceipt: MailTemplate<PaymentReceiptData> = {
  name: 'payment_receipt',
  audience: 'administrator',
  mjml: layout(`
        <mj-text font-size="17px" font-weight="600">{{headline}}</mj-text>
        <mj-table>{{rows}}</mj-table>`),
  build({ invoice, payment }, _company, tr) {
    const amount = formatMoney(payment.amount, payment.currency || invoice.currency);
    const customer = invoice.customer.name || invoice.customer.email || 'a customer';
    const headline = `${amount} received from ${customer} for invoice ${invoice.number}`;
    const rows: Array<[string, string]> = [
      ['Invoice', invoice.number],
      ['Customer', [invoice.customer.name, invoice.customer.email].filter(Boolean).join(' · ')],
      ['Amount', amount],
      ['Method', methodLabel(payment.method, tr)],
      ...(payment.reference ? [['Reference', payment.reference] as [string, string]] : []),
      ...(payment.date ? [['Date', `${formatDate(payment.date)} ${payment.date.slice(11)}`.trim()] as [string, string]] : []),
      ['Invoice total', formatMoney(invoice.totals.total, invoice.currency)],
      ['Still due', isZero(invoice.totals.due) ? 'nothing (paid in full)' : formatMoney(invoice.totals.due, invoice.currency)],
    ];
    return {
      subject: `Payment received: ${amount} for invoice ${invoice.number}`,
      preview: headline,
      values: { headline, rows: tableRows(rows) },
      text: [headline, '', ...rows.map(([k, v]) => `${k}: ${v}`)].join('\n'),
    };
  },
};

/** Label / value rows of an `mj-table`. */
export function tableRows(rows: Array<[string, string]>): Html {
  return html`${rows.map(([k, v]) => html`<tr><td style="padding:4px 16px 4px 0;color:#6b7280;white-space:nowrap;vertical-align:top">${k}</td><td style="padding:4px 0">${v}</td></tr>`)}`;
}
