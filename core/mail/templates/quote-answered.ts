import type { BillingDocument } from '../../documents/document.ts';
import { formatMoney } from '../../display/format.ts';
import { layout } from './layout.ts';
import { tableRows } from './payment-receipt.ts';
import type { MailTemplate } from './template.ts';

export interface QuoteAnsweredData {
  /** The quote as it is after the answer: `accepted` or `declined`, with its record (`at`, `by`, `reason`). */
  quote: BillingDocument;
  /** The invoice made from an accepted quote (option `quote_accept_action`), or null. */
  invoice: BillingDocument | null;
}

/** To the administrator: a customer accepted or declined a quote. */
export const quoteAnswered: MailTemplate<QuoteAnsweredData> = {
  name: 'quote_answered',
  audience: 'administrator',
  mjml: layout(`
        <mj-text font-size="17px" font-weight="600">{{headline}}</mj-text>
        <mj-table>{{rows}}</mj-table>
        <mj-text>{{next}}</mj-text>`),
  build({ quote, invoice }) {
    const accepted = quote.status === 'accepted';
    const answer = (accepted ? quote.accepted : quote.declined) ?? null;
    const customer = quote.customer.name || quote.customer.email || 'The customer';
    const headline = `${customer} ${accepted ? 'accepted' : 'declined'} quote ${quote.number}`;
    const rows: Array<[string, string]> = [
      ['Quote', `${quote.number}${quote.title ? ` (${quote.title})` : ''}`],
      ['Customer', [quote.customer.name, quote.customer.email].filter(Boolean).join(' · ')],
      ['Total', formatMoney(quote.totals.total, quote.currency)],
      ['Answer', accepted ? 'accepted' : 'declined'],
      ...(answer?.at ? [['When', answer.at] as [string, string]] : []),
      ...(answer?.reason ? [['Reason', answer.reason] as [string, string]] : []),
    ];
    const next = accepted
      ? invoice
        ? `Invoice ${invoice.number} was created from it (${invoice.status}).`
        : 'No invoice was created from it (option quote_accept_action).'
      : 'Nothing else changed.';
    return {
      subject: `Quote ${quote.number} ${accepted ? 'accepted' : 'declined'} by ${customer}`,
      preview: headline,
      values: { headline, rows: tableRows(rows), next },
      text: [headline, '', ...rows.map(([k, v]) => `${k}: ${v}`), '', next].join('\n'),
    };
  },
};
