import type { BillingDocument } from '../../documents/document.ts';
import { isZero } from '../../display/format.ts';
import type { Translator } from '../../i18n/translator.ts';
import { greeting, layout } from './layout.ts';
import type { MailTemplate } from './template.ts';

/** A completed payment as the mails show it (read from the `billing_payment_completed` payment). */
export interface PaymentView {
  /** Exact decimal text in `currency`. */
  amount: string;
  currency: string;
  /** `bank_transfer`, `cheque`, `gateway_a`, … */
  method: string;
  reference: string;
  /** `Y-m-d H:i:s` in the site timezone, or '' when unknown. */
  date: string;
}

export interface PaymentMailData {
  invoice: BillingDocument;
  payment: PaymentView;
  /** The invoice's public page, with its access key. */
  link: string;
}

/** `bank_transfer` → "bank transfer" (`Überweisung` in `de`), `gateway_a` → "gateway a". */
export function methodLabel(method: string, tr: Translator): string {
  const key = `method.${method}`;
  return tr.has(key) ? tr.t(key) : method.replace(/_/g, ' ');
}

/** To the customer: thanks for a payment, and what is still due. */
export const paymentReceived: MailTemplate<PaymentMailData> = {
  name: 'payment_received',
  audience: 'customer',
  mjml: layout(`
        <mj-text>{{greeting}}</mj-text>
        <mj-text>{{intro}}</mj-text>
        <mj-text>{{balance}}</mj-text>
        <mj-button href="{{link}}" align="left" padding="16px 0">{{button}}</mj-button>
        <mj-text font-size="13px" color="#6b7280">{{reference}}</mj-text>`),
  build({ invoice, payment, link }, company, tr) {
    const amount = tr.money(payment.amount, payment.currency || invoice.currency);
    const intro = tr.t('mail.payment_intro', {
      company: company.name,
      amount,
      method: methodLabel(payment.method, tr),
      number: invoice.number,
    });
    const balance = isZero(invoice.totals.due)
      ? tr.t('mail.payment_paid_in_full', { number: invoice.number })
      : tr.t('mail.payment_still_due', { amount: tr.money(invoice.totals.due, invoice.currency), number: invoice.number });
    const reference = payment.reference ? tr.t('mail.payment_reference', { reference: payment.reference }) : '';
    return {
      subject: tr.t('mail.payment_subject', { number: invoice.number }),
      preview: intro,
      values: {
        greeting: greeting(invoice.customer.name, tr),
        intro,
        balance,
        link,
        button: tr.t('mail.view_invoice', { number: invoice.number }),
        reference,
      },
      text: [
        greeting(invoice.customer.name, tr),
        '',
        intro,
        balance,
        '',
        tr.t('mail.view_invoice_online'),
        link,
        ...(reference ? ['', reference] : []),
      ].join('\n'),
    };
  },
};
