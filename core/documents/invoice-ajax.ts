import type { AjaxAction, AjaxRequest } from '../http/ajax/ajax-action.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { Money, isCurrency } from '../money/index.ts';
import { checkFields } from '../validation/args.ts';
import { searchTerm } from './clients/client-ajax.ts';
import { builderInput, isNew } from './builder-input.ts';
import { clientOf } from './document-objects.ts';
import { INVOICE_ARGS } from './document-schema.ts';
import type { BillingDocument } from './document.ts';
import type { DocumentsContext } from './services.ts';
import { invoiceRepresentation, representationContext } from './representation.ts';

/** At most this many answers per autocomplete request. */
export const INVOICE_SEARCH_LIMIT = 20;

/** The legacy table's grant for the invoice actions that kept their names (docs/ajax.md). */
const LEGACY_CAPABILITY = 'manage_options';

const ID_FIELD: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, required: true, description: 'The invoice id' } };
const SAVE_FIELDS: Record<string, ArgSchema> = {
  id: { type: 'integer', minimum: 1, description: 'The invoice id; absent or empty to create' },
};

/**
 * The invoice builder's admin-ajax actions (docs/ajax.md), each a thin call into InvoiceService, answering
 * the REST representation. The legacy table lists four of them under their current names, with
 * `manage_options`; `legacyCapability` declares that grant (see docs/ajax.md on how it applies).
 */
export function invoiceAjaxActions(d: DocumentsContext): AjaxAction[] {
  const represent = async (doc: BillingDocument, req: AjaxRequest) => invoiceRepresentation(doc, await representationContext(d, req));
  const id = (req: AjaxRequest): number => checkFields(ID_FIELD, req.params).id;

  return [
    {
      action: 'billing_save_invoice',
      capability: { create: 'bill_create_invoice', edit: 'bill_edit_invoice' },
      object: [{ param: 'id', kind: 'invoice' }, clientOf('invoice.client_id')],
      legacyCapability: LEGACY_CAPABILITY,
      fields: {
        id: 'the invoice to save; absent or empty to create one',
        invoice: 'the document as JSON text, the body of POST /invoices (issued invoices: only notes may change)',
      },
      handler: async (req) => {
        const existing = isNew(req.params) ? undefined : (checkFields(SAVE_FIELDS, req.params).id as number);
        const input = builderInput(req.params, 'invoice', INVOICE_ARGS);
        const doc =
          existing === undefined
            ? await d.invoices.create(input, { actor: req.actor, source: 'ajax' })
            : await d.invoices.update(existing, input, req.actor);
        return represent(doc, req);
      },
    },
    {
      action: 'billing_delete_invoice',
      object: { param: 'id', kind: 'invoice' },
      capability: 'bill_delete_invoice',
      legacyCapability: LEGACY_CAPABILITY,
      fields: { id: 'the invoice to move to the trash' },
      handler: async (req) => {
        const previous = await d.invoices.trash(id(req), req.actor);
        return { trashed: true, previous: await represent(previous, req) };
      },
    },
    {
      action: 'billing_restore_invoice',
      object: { param: 'id', kind: 'invoice' },
      capability: 'bill_delete_invoice',
      fields: { id: 'the trashed invoice to bring back (with its previous status)' },
      handler: async (req) => represent(await d.invoices.restore(id(req), req.actor), req),
    },
    {
      action: 'billing_duplicate_invoice',
      object: { param: 'id', kind: 'invoice', capability: 'bill_view_invoices' },
      capability: 'bill_create_invoice',
      legacyCapability: LEGACY_CAPABILITY,
      fields: { id: 'the invoice to copy into a new draft' },
      handler: async (req) => represent(await d.invoices.duplicate(id(req), { actor: req.actor, source: 'ajax' }), req),
    },
    {
      action: 'billing_search_invoices',
      capability: 'bill_view_invoices',
      legacyCapability: LEGACY_CAPABILITY,
      fields: { term: 'text searched in number, title, customer name and e-mail (case-insensitive); empty lists the latest' },
      handler: async (req) => {
        const term = searchTerm(req.params);
        const { items } = await d.invoices.list({
          page: 1,
          per_page: INVOICE_SEARCH_LIMIT,
          search: term || undefined,
          orderby: 'date',
          order: 'desc',
          viewer: req.user ?? undefined,
        });
        const amount = (v: string, c: string) => (isCurrency(c) ? Money.parse(v, c).toNumber() : Number(v));
        return items.map((i) => ({
          id: i.id,
          number: i.number,
          customer: i.customer.name,
          total: amount(i.totals.total, i.currency),
          due: amount(i.totals.due, i.currency),
          currency: i.currency,
          status: i.status,
        }));
      },
    },
  ];
}
