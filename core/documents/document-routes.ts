import { USER_ID_MAX } from '../identity/users.ts';
import { BillingError } from '../errors.ts';
import { COLLECTION_ARGS, collectionResponse } from '../http/rest/pagination.ts';
import { RestResponse, type ArgSchema, type RestRequest, type RestRoute } from '../http/rest/route.ts';
import { DOCUMENT_ARGS, QUOTE_ARGS, type DocumentInput } from './document-schema.ts';
import type { BillingDocument } from './document.ts';
import type { InvoiceService } from './invoice-service.ts';
import type { PdfRenderer } from '../pdf/index.ts';
import { pdfResponse } from '../http/rest/pdf-response.ts';
import { documentPdf } from './document-pdf.ts';
import type { QuoteService } from './quote-service.ts';
import {
  invoiceRepresentation,
  quoteRepresentation,
  representationContext,
  type RepresentationContext,
  type RepresentationSource,
} from './representation.ts';

export interface DocumentRouteDeps extends RepresentationSource {
  pdf: PdfRenderer;
}

/** What differs between the invoice and the quote collections. */
interface KindRoutes {
  route: 'invoices' | 'quotes';
  noun: string;
  service: InvoiceService | QuoteService;
  statuses: string[];
  args: Record<string, ArgSchema>;
  caps: { view: string; create: string; delete: string };
  schema: object;
  represent: (doc: BillingDocument, ctx: RepresentationContext) => Promise<Record<string, unknown>>;
}

const ID_ARGS: Record<string, ArgSchema> = {
  id: { type: 'integer', minimum: 1, required: true, description: 'Unique identifier of the document.' },
};

const listArgs = (statuses: string[]): Record<string, ArgSchema> => ({
  ...COLLECTION_ARGS,
  status: { type: 'array', items: { type: 'string', enum: statuses }, description: 'Comma-separated statuses.' },
  client_id: { type: 'integer', minimum: 1, maximum: USER_ID_MAX },
  after: { type: 'string', format: 'date-ymd', description: 'Issued after this date (Y-m-d).' },
  before: { type: 'string', format: 'date-ymd', description: 'Issued before this date (Y-m-d).' },
  ...(statuses.includes('paid') ? { overdue: { type: 'boolean' } } : {}),
  orderby: { type: 'string', enum: ['date', 'id', 'number', 'due_date', 'total'], default: 'date' },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
});

const documentSchema = (title: string, statuses: string[], extra: Record<string, object>) => ({
  $schema: 'http://json-schema.org/draft-04/schema#',
  title,
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    number: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'string', enum: statuses },
    viewed: {
      type: 'object',
      properties: { count: { type: 'integer' }, first: { type: ['string', 'null'] }, last: { type: ['string', 'null'] } },
    },
    issue_date: { type: 'string', format: 'date' },
    customer: {
      type: 'object',
      properties: { name: { type: 'string' }, email: { type: 'string' }, country: { type: 'string' }, vat: { type: 'string' } },
    },
    currency: { type: 'string' },
    totals: {
      type: 'object',
      properties: Object.fromEntries(
        ['subtotal', 'discount', 'tax', 'total', 'paid', 'credited', 'due'].map((k) => [k, { type: 'number' }]),
      ),
    },
    items: { type: 'array', items: { type: 'object' } },
    tax_treatment: { type: 'object', properties: { category: { type: 'string' }, statement: { type: 'string' } } },
    tax_breakdown: {
      type: 'array',
      description: 'Tax per EN 16931 category (S, Z, E, AE, G) and rate',
      items: {
        type: 'object',
        properties: {
          category: { type: 'string' },
          rate: { type: 'number' },
          taxable_amount: { type: 'number' },
          tax: { type: 'number' },
          exemption_reason: { type: 'string' },
        },
      },
    },
    links: { type: 'object', properties: { pdf: { type: 'string', format: 'uri' } } },
    ...extra,
  },
});

const INVOICE_STATUSES = ['draft', 'available', 'partial', 'paid', 'unpaid', 'cancelled'];
const QUOTE_STATUSES = ['draft', 'available', 'accepted', 'declined', 'expired', 'cancelled'];

/** `/invoices` and `/quotes` of `billing/v1` (interface "Endpoints", contract §4). Every path goes through the services. */
export function documentRoutes(d: DocumentRouteDeps & { invoices: InvoiceService; quotes: QuoteService }): RestRoute[] {
  return [
    ...kindRoutes(d, {
      route: 'invoices',
      noun: 'invoice',
      service: d.invoices,
      statuses: INVOICE_STATUSES,
      args: DOCUMENT_ARGS,
      caps: { view: 'bill_view_invoices', create: 'bill_create_invoice', delete: 'bill_delete_invoice' },
      schema: documentSchema('invoice', INVOICE_STATUSES, {
        due_date: { type: 'string', format: 'date' },
        overdue: { type: 'boolean', readonly: true },
      }),
      represent: invoiceRepresentation,
    }),
    ...kindRoutes(d, {
      route: 'quotes',
      noun: 'quote',
      service: d.quotes,
      statuses: QUOTE_STATUSES,
      args: QUOTE_ARGS,
      caps: { view: 'bill_view_quotes', create: 'bill_create_quote', delete: 'bill_delete_quote' },
      schema: documentSchema('quote', QUOTE_STATUSES, {
        expiry_date: { type: 'string', format: 'date' },
        accepted: { type: ['object', 'null'] },
        declined: { type: ['object', 'null'] },
        invoice_id: { type: ['integer', 'null'] },
      }),
      represent: quoteRepresentation,
    }),
  ];
}

function kindRoutes(d: DocumentRouteDeps, k: KindRoutes): RestRoute[] {
  /** Representations of one request's documents share one read of the site timezone. */
  const representer = async (req: RestRequest) => {
    const ctx = await representationContext(d, req);
    return (doc: BillingDocument) => k.represent(doc, ctx);
  };
  const one = `/${k.route}/(?P<id>[\\d]+)`;
  return [
    {
      path: `/${k.route}`,
      methods: 'GET',
      capability: k.caps.view,
      args: listArgs(k.statuses),
      schema: k.schema,
      description: `List ${k.route}.`,
      handler: async (req) => {
        const p = req.params;
        const { items, total } = await k.service.list({
          page: p.page,
          per_page: p.per_page,
          search: p.search || undefined,
          status: p.status,
          client_id: p.client_id,
          after: p.after,
          before: p.before,
          overdue: p.overdue,
          orderby: p.orderby,
          order: p.order,
          viewer: req.user,
        });
        return collectionResponse(req, await Promise.all(items.map(await representer(req))), total);
      },
    },
    {
      path: `/${k.route}`,
      methods: 'POST',
      capability: k.caps.create,
      args: k.args,
      description: `Create ${k.noun === 'invoice' ? 'an' : 'a'} ${k.noun}.`,
      handler: async (req) => {
        const doc = await k.service.create(req.params as DocumentInput, { actor: req.actor, source: 'rest' });
        return new RestResponse(await (await representer(req))(doc), 201, {
          Location: `${d.config.baseUrl}/wp-json/billing/v1/${k.route}/${doc.id}`,
        });
      },
    },
    {
      path: one,
      object: { param: 'id' },
      methods: 'GET',
      capability: k.caps.view,
      args: ID_ARGS,
      schema: k.schema,
      description: `One ${k.noun}.`,
      handler: async (req) => (await representer(req))(await k.service.get(req.params.id)),
    },
    {
      path: one,
      object: { param: 'id' },
      methods: 'DELETE',
      capability: k.caps.delete,
      args: { ...ID_ARGS, force: { type: 'boolean', default: false, description: 'Refused: documents are only ever trashed.' } },
      description: `Move ${k.noun === 'invoice' ? 'an' : 'a'} ${k.noun} to the trash.`,
      handler: async (req) => {
        if (req.params.force) throw new BillingError('billing_rest_trash_only', 'Documents can only be moved to the trash, never deleted.');
        const previous = await k.service.trash(req.params.id, req.actor);
        return { trashed: true, previous: await (await representer(req))(previous) };
      },
    },
    {
      path: `${one}/pdf`,
      object: { param: 'id' },
      methods: 'GET',
      capability: k.caps.view,
      args: ID_ARGS,
      description: `The ${k.noun} as a PDF file.`,
      handler: async (req) => {
        const doc = await k.service.get(req.params.id);
        return pdfResponse(await documentPdf(doc, d), req.headers['if-none-match'], doc.number);
      },
    },
  ];
}
