import { idempotencyKey } from '../http/rest/idempotency.ts';
import { LIST_FILTER } from '../scope/object-params.ts';
import { pdfResponse } from '../http/rest/pdf-response.ts';
import { invoiceRepresentation, representationContext } from '../documents/representation.ts';
import { COLLECTION_ARGS, collectionResponse, pageWindow } from '../http/rest/pagination.ts';
import { RestResponse, type ArgSchema, type RestRequest, type RestRoute } from '../http/rest/route.ts';
import type { PaymentsContext } from './services.ts';
import { INVOICE_SCHEMA } from '../documents/document-representation-schema.ts';
import { creditNoteRepresentation, paymentRepresentation } from './payment-representation.ts';
import {
  CANCEL_ARGS,
  COMPLETE_PAYMENT_ARGS,
  CREDIT_NOTE_ARGS,
  CREDIT_NOTE_SCHEMA,
  PAYMENT_LIST_FILTERS,
  PAYMENT_SCHEMA,
  RECORD_PAYMENT_ARGS,
  REFUND_ARGS,
  TRANSACTION_REFERENCE,
} from './payment-schema.ts';
import type { Payment } from './payment.ts';
import type { RecordPaymentInput } from './payment-service.ts';

const ID = (what: string): Record<string, ArgSchema> => ({
  id: { type: 'integer', minimum: 1, required: true, description: `Unique identifier of the ${what}.` },
});
const INVOICE = '/invoices/(?P<id>[\\d]+)';
const PAYMENT = '/payments/(?P<id>[\\d]+)';
const CREDIT_NOTE = '/credit-notes/(?P<id>[\\d]+)';

/**
 * The money routes of `billing/v1` (docs/documents.md), each a thin call into PaymentService or
 * CreditNoteService. Capabilities: viewing payments `bill_view_payments`; recording and completing
 * `bill_record_payment`; refunding `bill_refund_payment`; credit notes `bill_view_invoices` /
 * `bill_edit_invoice`; cancelling an invoice `bill_edit_invoice`.
 */
export function paymentRoutes(d: PaymentsContext): RestRoute[] {
  // every route names one object: an invoice, a payment or a credit note (both lie where their invoice does)
  const invoiceObject = { param: 'id', kind: 'invoice' };
  const paymentObject = { param: 'id', kind: 'payment' };
  const creditNoteObject = { param: 'id', kind: 'credit_note' };
  const tz = () => d.options.get('timezone');
  const many = async (req: RestRequest, items: Payment[], total: number) => {
    const timezone = await tz();
    return collectionResponse(
      req,
      items.map((p) => paymentRepresentation(p, timezone)),
      total,
    );
  };
  const one = async (p: Payment, status = 200, headers: Record<string, string> = {}) =>
    new RestResponse(paymentRepresentation(p, await tz()), status, headers);
  const location = (p: Payment) => ({ Location: `${d.config.baseUrl}/wp-json/billing/v1/payments/${p.id}` });

  return [
    {
      path: '/payments',
      methods: 'GET',
      capability: 'bill_view_payments',
      args: { ...COLLECTION_ARGS, ...PAYMENT_LIST_FILTERS, invoice_id: { type: 'integer', minimum: 1 } },
      unscoped: { invoice_id: LIST_FILTER },
      schema: PAYMENT_SCHEMA,
      description: 'List payments, latest first.',
      handler: async (req) => {
        const p = req.params;
        const { page, perPage } = pageWindow(p);
        const { items, total } = await d.payments.list({
          page,
          per_page: perPage,
          search: p.search || undefined,
          status: p.status,
          method: p.method,
          invoice_id: p.invoice_id,
          after: p.after,
          before: p.before,
          viewer: req.user,
        });
        return many(req, items, total);
      },
    },
    {
      path: PAYMENT,
      object: paymentObject,
      methods: 'GET',
      capability: 'bill_view_payments',
      args: ID('payment'),
      schema: PAYMENT_SCHEMA,
      description: 'One payment.',
      handler: async (req) => one(await d.payments.get(req.params.id)),
    },
    {
      path: `${INVOICE}/payments`,
      object: invoiceObject,
      methods: 'GET',
      capability: 'bill_view_payments',
      args: { ...ID('invoice'), ...COLLECTION_ARGS, ...PAYMENT_LIST_FILTERS },
      schema: PAYMENT_SCHEMA,
      description: "An invoice's payments, latest first.",
      handler: async (req) => {
        const p = req.params;
        const { page, perPage } = pageWindow(p);
        const { items, total } = await d.payments.forInvoice(p.id, {
          page,
          per_page: perPage,
          search: p.search || undefined,
          status: p.status,
          method: p.method,
          after: p.after,
          before: p.before,
        });
        return many(req, items, total);
      },
    },
    {
      path: `${INVOICE}/payments`,
      object: invoiceObject,
      methods: 'POST',
      capability: 'bill_record_payment',
      unscoped: TRANSACTION_REFERENCE,
      args: { ...ID('invoice'), ...RECORD_PAYMENT_ARGS },
      description: 'Record a payment (pending or completed) against an issued invoice.',
      response: { status: [201, 200], schema: PAYMENT_SCHEMA, errors: ['billing_rest_invalid_state', 'billing_rest_amount_exceeds'] },
      handler: async (req) => {
        const { id, ...input } = req.params;
        const { payment, created } = await d.payments.record(id, input as RecordPaymentInput, req.actor);
        // the same transaction id again answers the payment recorded the first time, with 200
        return one(payment, created ? 201 : 200, location(payment));
      },
    },
    {
      path: `${PAYMENT}/complete`,
      object: paymentObject,
      methods: 'POST',
      capability: 'bill_record_payment',
      unscoped: TRANSACTION_REFERENCE,
      args: { ...ID('payment'), ...COMPLETE_PAYMENT_ARGS },
      description: 'Mark a payment completed: its money has arrived.',
      response: { schema: PAYMENT_SCHEMA, errors: ['billing_rest_invalid_state'] },
      handler: async (req) => one((await d.payments.complete(req.params.id, req.actor, req.params)).payment),
    },
    {
      path: `${PAYMENT}/refund`,
      object: paymentObject,
      methods: 'POST',
      capability: 'bill_refund_payment',
      args: { ...ID('payment'), ...REFUND_ARGS },
      description: 'Refund a payment, fully or in part, with a reason.',
      response: {
        schema: PAYMENT_SCHEMA,
        errors: ['billing_rest_invalid_state', 'billing_rest_amount_exceeds', 'billing_gateway_unreachable'],
      },
      handler: async (req) =>
        one(
          (
            await d.payments.refund(
              req.params.id,
              {
                amount: req.params.amount,
                reason: req.params.reason,
                idempotencyKey: idempotencyKey(req.headers['idempotency-key']),
              },
              req.actor,
            )
          ).payment,
        ),
    },
    {
      path: `${INVOICE}/credit-notes`,
      object: invoiceObject,
      methods: 'GET',
      capability: 'bill_view_invoices',
      args: { ...ID('invoice'), ...COLLECTION_ARGS },
      schema: CREDIT_NOTE_SCHEMA,
      description: "An invoice's credit notes, oldest first.",
      handler: async (req) => {
        const all = await d.creditNotes.forInvoice(req.params.id);
        const { offset, perPage } = pageWindow(req.params);
        const ctx = { baseUrl: d.config.baseUrl, timezone: await tz() };
        return collectionResponse(
          req,
          all.slice(offset, offset + perPage).map((c) => creditNoteRepresentation(c, ctx)),
          all.length,
        );
      },
    },
    {
      path: `${INVOICE}/credit-notes`,
      object: invoiceObject,
      methods: 'POST',
      capability: 'bill_edit_invoice',
      args: { ...ID('invoice'), ...CREDIT_NOTE_ARGS },
      description: 'Issue a credit note against an invoice.',
      response: { status: 201, schema: CREDIT_NOTE_SCHEMA, errors: ['billing_rest_invalid_state', 'billing_rest_amount_exceeds'] },
      handler: async (req) => {
        const { creditNote } = await d.creditNotes.create(
          req.params.id,
          {
            amount: req.params.amount,
            reason: req.params.reason,
            period_start: req.params.period_start,
            period_end: req.params.period_end,
          },
          req.actor,
        );
        return new RestResponse(creditNoteRepresentation(creditNote, { baseUrl: d.config.baseUrl, timezone: await tz() }), 201, {
          Location: `${d.config.baseUrl}/wp-json/billing/v1/credit-notes/${creditNote.id}`,
        });
      },
    },
    {
      path: CREDIT_NOTE,
      object: creditNoteObject,
      methods: 'GET',
      capability: 'bill_view_invoices',
      args: ID('credit note'),
      schema: CREDIT_NOTE_SCHEMA,
      description: 'One credit note.',
      handler: async (req) =>
        creditNoteRepresentation(await d.creditNotes.get(req.params.id), { baseUrl: d.config.baseUrl, timezone: await tz() }),
    },
    {
      path: `${CREDIT_NOTE}/pdf`,
      object: creditNoteObject,
      methods: 'GET',
      capability: 'bill_view_invoices',
      args: ID('credit note'),
      description: 'The credit note as a PDF file.',
      response: { contentType: 'application/pdf' },
      handler: async (req) => {
        const { creditNote, pdf } = await d.creditNotes.pdf(req.params.id);
        return pdfResponse(pdf, req.headers['if-none-match'], creditNote.number);
      },
    },
    {
      path: `${INVOICE}/cancel`,
      object: invoiceObject,
      methods: 'POST',
      capability: 'bill_edit_invoice',
      args: { ...ID('invoice'), ...CANCEL_ARGS },
      description: 'Cancel an issued invoice on which nothing is paid.',
      response: { schema: INVOICE_SCHEMA, errors: ['billing_rest_invalid_state'] },
      handler: async (req) => {
        const invoice = await d.payments.cancelInvoice(req.params.id, req.actor, req.params.reason ?? '');
        return invoiceRepresentation(invoice, await representationContext(d, req));
      },
    },
  ];
}
