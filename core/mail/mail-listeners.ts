import { SYSTEM } from '../audit.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { OptionsStore } from '../options/options.ts';
import type { MailService } from './mail-service.ts';

/**
 * The mails that follow events rather than a Send button: the payment mails after every completed
 * payment, the administrator's notice when a customer answers a quote, and the invoice mail when an
 * accepted quote is converted with `quote_accept_action = convert_and_send`. Each runs in the
 * background: the payment or the customer's answer has committed and does not wait for an SMTP server.
 * Answers the function that removes the listeners.
 */
export function registerMailListeners(hooks: HookRegistry, options: OptionsStore, mail: MailService): () => void {
  const off = [
    hooks.addAction('billing_payment_completed', (_invoiceId, invoice, payment) => {
      mail.background('payment mails', () => mail.paymentMails(invoice, payment, SYSTEM));
    }),
    hooks.addAction('billing_quote_accepted', (_quoteId, quote, invoice) => {
      mail.background('quote accepted notice', () => mail.quoteAnsweredMail(quote, invoice, SYSTEM));
      if (invoice) {
        mail.background('invoice of an accepted quote', async () => {
          if ((await options.get('quote_accept_action')) === 'convert_and_send') await mail.sendInvoice(invoice.id, SYSTEM);
        });
      }
    }),
    hooks.addAction('billing_quote_declined', (_quoteId, quote) => {
      mail.background('quote declined notice', () => mail.quoteAnsweredMail(quote, null, SYSTEM));
    }),
  ];
  return () => off.forEach((remove) => remove());
}
