import { html } from '../../http/html.ts';
import { taxStatements } from '../../tax/index.ts';
import type { BillingDocument } from '../../documents/document.ts';
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
  audience: 'customer',
  mjml: layout(`
        <mj-text>{{greeting}}</mj-text>
        <mj-text>{{intro}}</mj-text>
        <mj-table>{{items}}</mj-table>
        <mj-button href="{{link}}" align="left" padding="16px 0">{{button}}</mj-button>
        <mj-text font-size="13px" color="#6b7280">{{details}}</mj-text>`),
  build({ doc, link, pdfAttached }, company, tr) {
    const values = {
      company: company.name,
      number: doc.title ? `${doc.number} (${doc.title})` : doc.number,
      amount: tr.money(doc.totals.due, doc.currency),
      date: doc.dueDate ? tr.date(doc.dueDate) : '',
    };
    const intro = tr.t(doc.dueDate ? 'mail.invoice_intro_due' : 'mail.invoice_intro', values);
    const notes = [
      pdfAttached ? tr.t('mail.invoice_attached', { file: `${doc.number}.pdf` }) : '',
      ...taxStatements(doc),
      doc.notes,
      doc.terms,
    ].filter(Boolean);
    return {
      subject: tr.t('mail.invoice_subject', { number: doc.number, company: company.name }),
      preview: intro,
      values: {
        greeting: greeting(doc.customer.name, tr),
        intro,
        items: itemRows(doc, true, tr),
        link,
        button: tr.t('mail.view_invoice', { number: doc.number }),
        details: html`${notes.map((n, i) => html`${i ? html`<br><br>` : ''}${lines(n)}`)}`,
      },
      text: [
        greeting(doc.customer.name, tr),
        '',
        intro,
        '',
        itemText(doc, true, tr),
        '',
        tr.t('mail.view_invoice_online'),
        link,
        ...notes.flatMap((n) => ['', n]),
      ].join('\n'),
    };
  },
};
