import {
  audit,
  BillingError,
  type ArgSchema,
  type PluginContext,
  type RestRequest,
  type Translator,
  type Tx,
} from '../../core/plugin-api.ts';
// The references a buyer routes and matches an invoice by, per document: its own reference (BT-10,
// taking the place of the client's) and its purchase order (BT-13). One row per document, kept by this
// plugin; `GET|PUT /invoices/{id}/einvoice`. A credit note carries its invoice's.

export interface DocumentEinvoice {
  document_id: number;
  /** BT-10 of this document; empty: the client's, else the invoice number. */
  buyer_reference: string;
  /** BT-13; empty: none. */
  purchase_order_reference: string;
}

export const DOCUMENT_EINVOICE_MIGRATION = {
  name: '0002_einvoice_documents',
  up: `
    create table e_invoicing_documents (
      document_id bigint primary key references billing_documents (id) on delete cascade,
      buyer_reference text not null default '',
      purchase_order_reference text not null default ''
    );
  `,
};

export const DOCUMENT_EINVOICE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'document_einvoice',
  type: 'object',
  properties: {
    document_id: { type: 'integer', readonly: true },
    buyer_reference: { type: 'string', description: "BT-10 of this invoice (instead of the client's), or empty." },
    purchase_order_reference: { type: 'string', description: "BT-13: the buyer's purchase order, or empty." },
  },
  required: ['document_id', 'buyer_reference', 'purchase_order_reference'],
};

const ID_ARGS: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, required: true, description: 'The invoice id.' } };
const CHANGE_ARGS: Record<string, ArgSchema> = {
  buyer_reference: { type: 'string', maxLength: 200, description: "BT-10 of this invoice (instead of the client's), or empty." },
  purchase_order_reference: { type: 'string', maxLength: 200, description: "BT-13: the buyer's purchase order, or empty." },
};

/** The references of a document (none set: empty). */
export async function documentEinvoice(ctx: PluginContext, documentId: number, tx?: Tx): Promise<DocumentEinvoice> {
  const rows = await (tx ?? ctx.db).query<{ buyer_reference: string; purchase_order_reference: string }>(
    'select buyer_reference, purchase_order_reference from e_invoicing_documents where document_id = $1',
    [documentId],
  );
  return {
    document_id: documentId,
    buyer_reference: rows[0]?.buyer_reference ?? '',
    purchase_order_reference: rows[0]?.purchase_order_reference ?? '',
  };
}

/** `GET` and `PUT /invoices/{id}/einvoice`, through the scoped resolver (an invoice out of scope is 404). */
export const documentEinvoiceRoutes = [
  {
    path: '/invoices/(?P<id>[\\d]+)/einvoice',
    methods: 'GET',
    capability: 'bill_view_invoices',
    object: { param: 'id', kind: 'invoice' },
    args: ID_ARGS,
    schema: DOCUMENT_EINVOICE_SCHEMA,
    description: "The invoice's e-invoice references: buyer reference (BT-10) and purchase order (BT-13).",
    handler: async (req: RestRequest, ctx: PluginContext) => {
      await ctx.api.invoices.get(req.params.id);
      return documentEinvoice(ctx, req.params.id);
    },
  },
  {
    path: '/invoices/(?P<id>[\\d]+)/einvoice',
    methods: 'PUT',
    capability: 'bill_edit_invoice',
    object: { param: 'id', kind: 'invoice' },
    args: { ...ID_ARGS, ...CHANGE_ARGS },
    schema: DOCUMENT_EINVOICE_SCHEMA,
    response: { schema: DOCUMENT_EINVOICE_SCHEMA, errors: ['billing_rest_invalid_state'] as string[] },
    description: "Sets the invoice's e-invoice references (the fields given); they are routing data, so an issued invoice's may change.",
    handler: async (req: RestRequest, ctx: PluginContext) => {
      const id = req.params.id as number;
      const doc = await ctx.api.invoices.get(id);
      if (doc.trashed) throw new BillingError('billing_rest_invalid_state', 'A trashed invoice cannot change.');
      const given = Object.keys(CHANGE_ARGS).filter((k) => req.params[k] !== undefined);
      return ctx.db.transaction(async (tx) => {
        const current = await documentEinvoice(ctx, id, tx);
        const next: DocumentEinvoice = {
          document_id: id,
          buyer_reference: (req.params.buyer_reference ?? current.buyer_reference).trim(),
          purchase_order_reference: (req.params.purchase_order_reference ?? current.purchase_order_reference).trim(),
        };
        await tx.query(
          `insert into e_invoicing_documents (document_id, buyer_reference, purchase_order_reference) values ($1, $2, $3)
           on conflict (document_id) do update set buyer_reference = $2, purchase_order_reference = $3`,
          [id, next.buyer_reference, next.purchase_order_reference],
        );
        await audit(tx, req.actor, { action: 'invoice.einvoice', objectType: 'invoice', objectId: id, details: { fields: given } });
        return next;
      });
    },
  },
] as const;

/**
 * The references line of a document's PDF ("Buyer reference: … · Purchase order: …", in the document's
 * language), or null when it has none of its own: a reference the buyer routes or matches by is printed
 * where they look for it, under the parties. The invoice number standing in for BT-10 is not a reference
 * of the buyer's.
 */
export function referencesLine(tr: Translator, buyerReference: string, purchaseOrder: string): string | null {
  const parts = [
    buyerReference && tr.t('e_invoicing.buyer_reference', { reference: buyerReference }),
    purchaseOrder && tr.t('e_invoicing.purchase_order', { reference: purchaseOrder }),
  ].filter(Boolean);
  return parts.length ? parts.join('  ·  ') : null;
}

/** `definition` with `line` under its parties block (the third of the core layout's content), or as it is. */
export function withReferencesLine<D extends Record<string, unknown>>(definition: D, line: string | null): D {
  const content = definition.content;
  if (!line || !Array.isArray(content)) return definition;
  const at = Math.min(3, content.length);
  return { ...definition, content: [...content.slice(0, at), { text: line, margin: [0, 0, 0, 10] }, ...content.slice(at)] };
}
