import { BillingError } from '../errors.ts';
import { COLLECTION_ARGS, collectionResponse } from '../http/rest/pagination.ts';
import { RestResponse, type ArgSchema, type RestRequest, type RestRoute } from '../http/rest/route.ts';
import type { OptionsStore } from '../options/options.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { DOCUMENT_ARGS, type DocumentInput } from './document-schema.ts';
import type { BillingDocument } from './document.ts';
import type { InvoiceService } from './invoice-service.ts';
import { invoiceRepresentation } from './representation.ts';

export interface InvoiceRouteDeps {
  invoices: InvoiceService;
  options: OptionsStore;
  hooks: HookRegistry;
  baseUrl: string;
}

const ID_ARGS: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, required: true, description: 'Unique identifier of the invoice.' } };

const LIST_ARGS: Record<string, ArgSchema> = {
  ...COLLECTION_ARGS,
  status: { type: 'array', items: { type: 'string', enum: ['draft', 'available', 'partial', 'paid', 'unpaid', 'cancelled'] }, description: 'Comma-separated statuses.' },
  client_id: { type: 'integer', minimum: 1 },
  after: { type: 'string', format: 'date-ymd', description: 'Issued after this date (Y-m-d).' },
  before: { type: 'string', format: 'date-ymd', description: 'Issued before this date (Y-m-d).' },
  overdue: { type: 'boolean' },
  orderby: { type: 'string', enum: ['date', 'id', 'number', 'due_date', 'total'], default: 'date' },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
};

/** The resource's JSON schema, for OPTIONS. */
export const INVOICE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'invoice',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    number: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'string', enum: ['draft', 'available', 'partial', 'paid', 'unpaid', 'cancelled'] },
    viewed: { type: 'object', properties: { count: { type: 'integer' }, first: { type: ['string', 'null'] }, last: { type: ['string', 'null'] } } },
    issue_date: { type: 'string', format: 'date' },
    due_date: { type: 'string', format: 'date' },
    overdue: { type: 'boolean', readonly: true },
    customer: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' }, country: { type: 'string' }, vat: { type: 'string' } } },
    currency: { type: 'string' },
    totals: { type: 'object', properties: Object.fromEntries(['subtotal', 'discount', 'tax', 'total', 'paid', 'credited', 'due'].map((k) => [k, { type: 'number' }])) },
    items: { type: 'array', items: { type: 'object' } },
    tax_treatment: { type: 'object', properties: { category: { type: 'string' }, statement: { type: 'string' } } },
    links: { type: 'object', properties: { pdf: { type: 'string', format: 'uri' } } },
  },
};

/** `/invoices` of `billing/v1` (interface "Endpoints", contract §4). Every path goes through InvoiceService. */
export function invoiceRoutes(d: InvoiceRouteDeps): RestRoute[] {
  /** Representations of one request's documents share one read of the site timezone. */
  const representer = async (req: RestRequest) => {
    const ctx = { baseUrl: d.baseUrl, timezone: await d.options.get('timezone'), hooks: d.hooks, request: req };
    return (doc: BillingDocument) => invoiceRepresentation(doc, ctx);
  };
  const represent = async (doc: BillingDocument, req: RestRequest) => (await representer(req))(doc);

  return [
    {
      path: '/invoices',
      methods: 'GET',
      capability: 'bill_view_invoices',
      args: LIST_ARGS,
      schema: INVOICE_SCHEMA,
      description: 'List invoices.',
      handler: async (req) => {
        const p = req.params;
        const { items, total } = await d.invoices.list({
          page: p.page, per_page: p.per_page, search: p.search || undefined, status: p.status, client_id: p.client_id,
          after: p.after, before: p.before, overdue: p.overdue, orderby: p.orderby, order: p.order,
        });
        const toRest = await representer(req);
        return collectionResponse(req, await Promise.all(items.map(toRest)), total);
      },
    },
    {
      path: '/invoices',
      methods: 'POST',
      capability: 'bill_create_invoice',
      args: DOCUMENT_ARGS,
      description: 'Create an invoice.',
      handler: async (req) => {
        const doc = await d.invoices.create(req.params as DocumentInput, { actor: req.actor, source: 'rest' });
        return new RestResponse(await represent(doc, req), 201, { Location: `${d.baseUrl}/wp-json/billing/v1/invoices/${doc.id}` });
      },
    },
    {
      path: '/invoices/(?P<id>[\\d]+)',
      methods: 'GET',
      capability: 'bill_view_invoices',
      args: ID_ARGS,
      schema: INVOICE_SCHEMA,
      description: 'One invoice.',
      handler: async (req) => represent(await d.invoices.get(req.params.id), req),
    },
    {
      path: '/invoices/(?P<id>[\\d]+)',
      methods: 'DELETE',
      capability: 'bill_delete_invoice',
      args: { ...ID_ARGS, force: { type: 'boolean', default: false, description: 'Refused: invoices are only ever trashed.' } },
      description: 'Move an invoice to the trash.',
      handler: async (req) => {
        if (req.params.force) throw new BillingError('billing_rest_trash_only', 'Invoices can only be moved to the trash, never deleted.');
        const previous = await d.invoices.trash(req.params.id, req.actor);
        return { trashed: true, previous: await represent(previous, req) };
      },
    },
  ];
}
