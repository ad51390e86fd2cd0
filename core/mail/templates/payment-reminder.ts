import type { Html } from '../../http/html.ts';
import type { BillingDocument } from '../../documents/document.ts';
import type { MailTemplate } from './template.ts';
import { layout } from './layout.ts';

/**
 * A message whose words are the site's own (the reminders addon's steps): the subject, the HTML body
 * with its values already escaped, and the text part, framed by the shared layout with a link button.
 */
export interface ComposedMailData {
  doc: BillingDocument;
  link: string;
  subject: string;
  html: Html;
  text: string;
}

/** To the customer: a reminder that an invoice is (nearly) due, worded by the reminder step. */
export const paymentReminder: MailTemplate<ComposedMailData> = {
  name: 'payment_reminder',
  audience: 'customer',
  mjml: layout(`
        <mj-text>{{body}}</mj-text>
        <mj-button href="{{link}}" align="left" padding="16px 0">{{button}}</mj-button>`),
  build({ doc, link, subject, html, text }, _company, tr) {
    return {
      subject,
      preview: subject,
      values: { body: html, link, button: tr.t('mail.view_invoice', { number: doc.number }) },
      text: `${text}\n\n${tr.t('mail.view_invoice_online')}\n${link}`,
    };
  },
};
