import { SYSTEM } from '../audit/audit.ts';
import type { BillingDocument } from '../documents/document.ts';
import type { DocumentServices } from '../documents/services.ts';
import type { HookModels } from '../hooks/hook-models.ts';
import type { OptionsStore } from '../options/options.ts';
import type { OutboxItem, QueueDefinition } from '../outbox/outbox.ts';
import { durable, type ListenerDeclaration } from '../plugins/contributions.ts';
import type { MailService } from './mail-service.ts';

/**
 * The mails that follow events rather than a Send button: the payment mails after every completed
 * payment, the administrator's notice when a customer answers a quote, and the invoice mail when an
 * accepted quote is converted with `quote_accept_action = convert_and_send`. Each is a durable
 * listener: the event's data is written to the outbox in the transaction of the payment or the
 * answer, and the mail goes out after commit, retried until the server takes it — a crash between the
 * commit and the send loses nothing. One topic per message, so a retry never repeats another message.
 */
export const MAIL_LISTENERS: ListenerDeclaration<unknown>[] = [
  durable('billing_payment_completed', 'mail.payment_received', (_id, invoice, payment) => ({
    invoice: snapshot(invoice),
    payment: snapshot(payment),
  })),
  durable('billing_payment_completed', 'mail.payment_receipt', (_id, invoice, payment) => ({
    invoice: snapshot(invoice),
    payment: snapshot(payment),
  })),
  durable('billing_quote_accepted', 'mail.quote_answered', (_id, quote, invoice) => ({
    quote: snapshot(quote),
    invoice: invoice && snapshot(invoice),
  })),
  durable('billing_quote_declined', 'mail.quote_answered', (_id, quote) => ({ quote: snapshot(quote), invoice: null })),
  durable('billing_quote_accepted', 'mail.invoice_from_quote', (_id, _quote, invoice) => (invoice ? { invoice_id: invoice.id } : null)),
];

export function mailQueues(mail: MailService, options: OptionsStore, documents: DocumentServices): QueueDefinition[] {
  const doc = (item: OutboxItem, key: string) => revive<BillingDocument>(item.payload[key]);
  return [
    {
      topic: 'mail.payment_received',
      description: "The customer's thanks after a completed payment",
      handle: (item) => mail.paymentReceivedMail(doc(item, 'invoice'), revive<HookModels['payment']>(item.payload.payment), SYSTEM),
    },
    {
      topic: 'mail.payment_receipt',
      description: "The administrator's receipt of a completed payment",
      handle: (item) => mail.paymentReceiptMail(doc(item, 'invoice'), revive<HookModels['payment']>(item.payload.payment), SYSTEM),
    },
    {
      topic: 'mail.quote_answered',
      description: "The administrator's notice that a customer accepted or declined a quote",
      handle: (item) => mail.quoteAnsweredMail(doc(item, 'quote'), item.payload.invoice ? doc(item, 'invoice') : null, SYSTEM),
    },
    {
      topic: 'mail.invoice_from_quote',
      description: 'The invoice made from an accepted quote, when quote_accept_action is convert_and_send',
      handle: async (item) => {
        if ((await options.get('quote_accept_action')) !== 'convert_and_send') return;
        const invoice = await documents.invoices.get(Number(item.payload.invoice_id));
        // sent once: a retry after the server took it (and the status moved) does not send it again
        if (invoice.sentAt) return;
        await mail.sendInvoice(invoice.id, SYSTEM);
      },
    },
  ];
}

/**
 * Documents and payments as they were when the event fired (the mail says what was due right after
 * that payment, not what is due when it is sent), through JSON; `revive` gives their Dates back.
 */
function snapshot(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value));
}

const DATE_FIELDS = new Set(['date', 'createdAt', 'updatedAt', 'sentAt', 'first', 'last']);

function revive<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value), (key, v) => (DATE_FIELDS.has(key) && typeof v === 'string' ? new Date(v) : v)) as T;
}
