import type { BillingDocument } from '../../documents/document.ts';
import { formatMoney, isZero } from '../../display/format.ts';
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

const METHODS: Record<string, string> = { bank_transfer: 'bank transfer', cheque: 'cheque', cash: 'cash', manual: 'manual payment' };

/** `bank_transfer` → "bank transfer", `gateway_a` → "gateway a". */
export function methodLabel(method: string): string {
  return METHODS[method] ?? method.replace(/_/g, ' ');
}

/** To the customer: thanks for a payment, and what is still due. */
export const paymentReceived: MailTemplate<PaymentMailData> = {
  name: 'payment_received',
  mjml: layout(`
        <mj-text>{{greeting}}</mj-text>
        <mj-text>{{intro}}</mj-text>
        <mj-text>{{balance}}</mj-text>
        <mj-button href="{{link}}" align="left" padding="16px 0">View invoice {{number}}</mj-button>
        <mj-text font-size="13px" color="#6b7280">{{reference}}</mj-text>`),
  build({ invoice, payment, link }, company) {
    const amount = formatMoney(payment.amount, payment.currency || invoice.currency);
    const intro =
      `Thank you: ${company.name} has received your payment of ${amount} ` +
      `(${methodLabel(payment.method)}) for invoice ${invoice.number}.`;
    const balance = isZero(invoice.totals.due)
      ? `Invoice ${invoice.number} is now paid in full.`
      : `${formatMoney(invoice.totals.due, invoice.currency)} is still due on invoice ${invoice.number}.`;
    const reference = payment.reference ? `Payment reference: ${payment.reference}` : '';
    return {
      subject: `Payment received for invoice ${invoice.number}`,
      preview: intro,
      values: { greeting: greeting(invoice.customer.name), intro, balance, link, number: invoice.number, reference },
      text: [
        greeting(invoice.customer.name),
        '',
        intro,
        balance,
        '',
        'View the invoice online:',
        link,
        ...(reference ? ['', reference] : []),
      ].join('\n'),
    };
  },
};
