import { html } from '../../http/html.ts';
import { taxStatements } from '../../tax/index.ts';
import type { BillingDocument } from '../../documents/document.ts';
import { formatDate, formatMoney } from '../../display/format.ts';
import { greeting, itemRows, itemText, layout, lines } from './layout.ts';
import type { MailTemplate } from './template.ts';

export interface DocumentMailData {
  doc: BillingDocument;
  /** The public page, with the access key: `{BASE_URL}/billing/{kind}/{id}?key=…`. */
  link: string;
  /** Whether the document's PDF goes with the mail (option `attach_pdf_to_email`). */
  pdfAttached: boolean;
}

/** To the customer: an invoice is ready, with its public link (and its PDF when the option says so). */
export const invoiceAvailable: MailTemplate<DocumentMailData> = {
  name: 'invoice_available',
  mjml: layout(`
        <mj-text>{{greeting}}</mj-text>
        <mj-text>{{intro}}</mj-text>
        <mj-table>{{items}}</mj-table>
        <mj-button href="{{link}}" align="left" padding="16px 0">View invoice {{number}}</mj-button>
        <mj-text font-size="13px" color="#6b7280">{{details}}</mj-text>`),
  build({ doc, link, pdfAttached }, company) {
    const due = formatMoney(doc.totals.due, doc.currency);
    const dueDate = doc.dueDate ? `, due ${formatDate(doc.dueDate)}` : '';
    const intro = `${company.name} has sent you invoice ${doc.number}${doc.title ? ` (${doc.title})` : ''} for ${due}${dueDate}.`;
    const notes = [
      pdfAttached ? `The invoice is attached as a PDF (${doc.number}.pdf).` : '',
      ...taxStatements(doc),
      doc.notes,
      doc.terms,
    ].filter(Boolean);
    return {
      subject: `Invoice ${doc.number} from ${company.name}`,
      preview: intro,
      values: {
        greeting: greeting(doc.customer.name),
        intro,
        items: itemRows(doc, true),
        link,
        number: doc.number,
        details: html`${notes.map((n, i) => html`${i ? html`<br><br>` : ''}${lines(n)}`)}`,
      },
      text: [
        greeting(doc.customer.name),
        '',
        intro,
        '',
        itemText(doc, true),
        '',
        `View the invoice online:`,
        link,
        ...notes.flatMap((n) => ['', n]),
      ].join('\n'),
    };
  },
};
