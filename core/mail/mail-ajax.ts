import type { AjaxAction, AjaxRequest } from '../http/ajax/ajax-action.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { checkFields } from '../validation/args.ts';
import type { MailService, SendResult } from './mail-service.ts';

const idField = (kind: string): Record<string, ArgSchema> => ({
  id: { type: 'integer', minimum: 1, required: true, description: `The ${kind} id` },
});
const INVOICE_ID = idField('invoice');
const QUOTE_ID = idField('quote');

/** What a send answers: the document's status after it, whether it issued a draft, and the log row. */
function answer(r: SendResult) {
  const d = r.delivery;
  return {
    id: r.document.id,
    number: r.document.number,
    status: r.document.status,
    issued: r.issued,
    delivery: { id: d.id, to: d.recipient, template: d.template, result: d.result, response: d.response, time: d.time },
  };
}

/**
 * The Send buttons of the invoice and quote screens (docs/ajax.md). The legacy names
 * (`billing_send_invoice`, `billing_send_quote`) keep working with `manage_options` as an alternative grant.
 */
export function mailAjaxActions(mail: MailService): AjaxAction[] {
  return [
    {
      action: 'billing_send_invoice_email',
      aliases: ['billing_send_invoice'],
      capability: 'bill_send_invoice',
      object: { param: 'id', kind: 'invoice' },
      legacyCapability: 'manage_options',
      fields: { id: 'the invoice to e-mail to its customer; a draft is issued once the mail server has taken the message' },
      handler: async (req: AjaxRequest) => answer(await mail.sendInvoice(checkFields(INVOICE_ID, req.params).id, req.actor)),
    },
    {
      action: 'billing_send_quote_email',
      aliases: ['billing_send_quote'],
      capability: 'bill_send_quote',
      object: { param: 'id', kind: 'quote' },
      legacyCapability: 'manage_options',
      fields: { id: 'the quote to e-mail to its customer; a draft is issued once the mail server has taken the message' },
      handler: async (req: AjaxRequest) => answer(await mail.sendQuote(checkFields(QUOTE_ID, req.params).id, req.actor)),
    },
  ];
}
