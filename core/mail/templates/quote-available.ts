import { html } from '../../http/html.ts';
import { taxStatements } from '../../tax/index.ts';
import type { DocumentMailData } from './invoice-available.ts';
import { greeting, itemRows, itemText, layout, lines } from './layout.ts';
import type { MailTemplate } from './template.ts';

/** To the customer: a quote to read, with the link to the page where it is accepted or declined. */
export const quoteAvailable: MailTemplate<DocumentMailData> = {
  name: 'quote_available',
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
      amount: tr.money(doc.totals.total, doc.currency),
      date: doc.expiryDate ? tr.date(doc.expiryDate) : '',
    };
    const intro = tr.t(doc.expiryDate ? 'mail.quote_intro_until' : 'mail.quote_intro', values);
    const notes = [
      pdfAttached ? tr.t('mail.quote_attached', { file: `${doc.number}.pdf` }) : '',
      ...taxStatements(doc),
      doc.notes,
      doc.terms,
    ].filter(Boolean);
    return {
      subject: tr.t('mail.quote_subject', { number: doc.number, company: company.name }),
      preview: intro,
      values: {
        greeting: greeting(doc.customer.name, tr),
        intro,
        items: itemRows(doc, false, tr),
        link,
        button: tr.t('mail.review_quote', { number: doc.number }),
        details: html`${notes.map((n, i) => html`${i ? html`<br><br>` : ''}${lines(n)}`)}`,
      },
      text: [
        greeting(doc.customer.name, tr),
        '',
        intro,
        '',
        itemText(doc, false, tr),
        '',
        tr.t('mail.review_quote_online'),
        link,
        ...notes.flatMap((n) => ['', n]),
      ].join('\n'),
    };
  },
};
