import type { BillingDocument } from '../documents/document.ts';
import { invoiceRepresentation, representationContext } from '../documents/representation.ts';
import type { AjaxAction, AjaxRequest } from '../http/ajax/ajax-action.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { checkFields } from '../validation/args.ts';
import type { PaymentsContext } from './services.ts';
import { creditNoteRepresentation, paymentRepresentation } from './payment-representation.ts';
import {
  CANCEL_ARGS,
  COMPLETE_PAYMENT_ARGS,
  CREDIT_NOTE_ARGS,
  RECORD_PAYMENT_ARGS,
  REFUND_ARGS,
  TRANSACTION_REFERENCE,
} from './payment-schema.ts';
import type { Payment } from './payment.ts';
import type { RecordPaymentInput } from './payment-service.ts';

const id = (name: string, what: string): Record<string, ArgSchema> => ({
  [name]: { type: 'integer', minimum: 1, required: true, description: what },
});

const RECORD_FIELDS = { ...id('invoice_id', 'The invoice paid'), ...RECORD_PAYMENT_ARGS };
const COMPLETE_FIELDS = { ...id('payment_id', 'The payment whose money has arrived'), ...COMPLETE_PAYMENT_ARGS };
const REFUND_FIELDS = { ...id('payment_id', 'The payment to refund'), ...REFUND_ARGS };
const CREDIT_NOTE_FIELDS = { ...id('invoice_id', 'The invoice credited'), ...CREDIT_NOTE_ARGS };
const CANCEL_FIELDS = { ...id('id', 'The invoice to cancel'), ...CANCEL_ARGS };

/** What each field of a declaration means, for docs/ajax.md. */
const describe = (fields: Record<string, ArgSchema>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(fields).map(([k, a]) => [k, `${a.required ? 'required' : 'optional'}${a.description ? `: ${a.description}` : ''}`]),
  );

/**
 * The payment screens' admin-ajax actions (docs/ajax.md), with the fields of the REST bodies checked by
 * the same schemas and the capabilities of the matching REST routes. Each answers the payment (or
 * credit note) as REST does, with the invoice after the change, so a screen can show the new totals
 * and status without another request.
 */
export function paymentAjaxActions(d: PaymentsContext): AjaxAction[] {
  const tz = () => d.options.get('timezone');
  const invoice = async (doc: BillingDocument, req: AjaxRequest) => invoiceRepresentation(doc, await representationContext(d, req));
  const answer = async (p: { payment: Payment; invoice: BillingDocument }, req: AjaxRequest) => ({
    payment: paymentRepresentation(p.payment, await tz()),
    invoice: await invoice(p.invoice, req),
  });

  return [
    {
      action: 'billing_record_payment',
      capability: 'bill_record_payment',
      object: { param: 'invoice_id', kind: 'invoice' },
      unscoped: TRANSACTION_REFERENCE,
      fields: describe(RECORD_FIELDS),
      handler: async (req) => {
        const { invoice_id, ...input } = checkFields(RECORD_FIELDS, req.params);
        const out = await d.payments.record(invoice_id, input as RecordPaymentInput, req.actor);
        return { ...(await answer(out, req)), created: out.created };
      },
    },
    {
      action: 'billing_complete_payment',
      capability: 'bill_record_payment',
      object: { param: 'payment_id', kind: 'payment' },
      unscoped: TRANSACTION_REFERENCE,
      fields: describe(COMPLETE_FIELDS),
      handler: async (req) => {
        const f = checkFields(COMPLETE_FIELDS, req.params);
        return answer(await d.payments.complete(f.payment_id, req.actor, f), req);
      },
    },
    {
      action: 'billing_refund_payment',
      capability: 'bill_refund_payment',
      object: { param: 'payment_id', kind: 'payment' },
      fields: describe(REFUND_FIELDS),
      handler: async (req) => {
        const f = checkFields(REFUND_FIELDS, req.params);
        return answer(await d.payments.refund(f.payment_id, { amount: f.amount, reason: f.reason }, req.actor), req);
      },
    },
    {
      action: 'billing_create_credit_note',
      capability: 'bill_edit_invoice',
      object: { param: 'invoice_id', kind: 'invoice' },
      fields: describe(CREDIT_NOTE_FIELDS),
      handler: async (req) => {
        const f = checkFields(CREDIT_NOTE_FIELDS, req.params);
        const out = await d.creditNotes.create(
          f.invoice_id,
          { amount: f.amount, reason: f.reason, period_start: f.period_start, period_end: f.period_end },
          req.actor,
        );
        return {
          credit_note: creditNoteRepresentation(out.creditNote, { baseUrl: d.config.baseUrl, timezone: await tz() }),
          invoice: await invoice(out.invoice, req),
        };
      },
    },
    {
      action: 'billing_cancel_invoice',
      capability: 'bill_edit_invoice',
      object: { param: 'id', kind: 'invoice' },
      fields: describe(CANCEL_FIELDS),
      handler: async (req) => {
        const f = checkFields(CANCEL_FIELDS, req.params);
        return invoice(await d.payments.cancelInvoice(f.id, req.actor, f.reason ?? ''), req);
      },
    },
  ];
}
