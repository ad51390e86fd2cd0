import { html } from '../../http/html.ts';
import { taxStatements } from '../../tax/index.ts';
import { formatDate, formatMoney } from '../../display/format.ts';
import type { DocumentMailData } from './invoice-available.ts';
import { greeting, itemRows, itemText, layout, lines } from './layout.ts';
import type { MailTemplate } from './template.ts';

/** To the customer: a quote to read, with the link to the page where it is accepted or declined. */
export const quoteAvailable: MailTemplate<DocumentMailData> = {
  name: 'quote_available',
  mjml: layout(`
        <mj-text>{{greeting}}</mj-text>
        <mj-text>{{intro}}</mj-text>
        <mj-table>{{items}}</mj-table>
        <mj-button href="{{link}}" align="left" padding="16px 0">Review quote {{number}}</mj-button>
        <mj-text font-size="13px" color="#6b7280">{{details}}</mj-text>`),
  build({ doc, link, pdfAttached }, company) {
    const total = formatMoney(doc.totals.total, doc.currency);
    const until = doc.expiryDate ? `, valid until ${formatDate(doc.expiryDate)}` : '';
    const intro =
      `${company.name} has sent you quote ${doc.number}${doc.title ? ` (${doc.title})` : ''} for ${total}${until}. ` +
      'You can accept or decline it on its page.';
    const notes = [
      pdfAttached ? `The quote is attached as a PDF (${doc.number}.pdf).` : '',
      ...taxStatements(doc),
      doc.notes,
      doc.terms,
    ].filter(Boolean);
    return {
      subject: `Quote ${doc.number} from ${company.name}`,
      preview: intro,
      values: {
        greeting: greeting(doc.customer.name),
        intro,
        items: itemRows(doc, false),
        link,
        number: doc.number,
        details: html`${notes.map((n, i) => html`${i ? html`<br><br>` : ''}${lines(n)}`)}`,
      },
      text: [
        greeting(doc.customer.name),
        '',
        intro,
        '',
        itemText(doc, false),
        '',
        'Review, accept or decline the quote online:',
        link,
        ...notes.flatMap((n) => ['', n]),
      ].join('\n'),
    };
  },
};
