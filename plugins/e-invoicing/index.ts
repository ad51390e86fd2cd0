import {
  pdfFilename,
  BillingError,
  RestResponse,
  definePlugin,
  filter,
  type BillingDocument,
  type IssueRefusal,
  type ArgSchema,
  type PluginContext,
  type RestRequest,
  type Tx,
} from '../../core/plugin-api.ts';
// Structured e-invoices (docs/e-invoicing.md): Peppol BIS Billing 3.0 UBL, XRechnung UBL, CII D16B and Factur-X
// for issued invoices, UBL credit notes, a guard on issuing what could not be valid, and a reader.
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { ciiXml } from './cii.ts';
import { einvoiceModel, type EinvoiceFormat, type EinvoiceModel, type SellerSettings } from './einvoice-model.ts';
import { facturXPdf, PDFA_DEFINITION } from './facturx.ts';
import { READ_BODY_LIMIT, readEinvoice } from './reader.ts';
import { unreadable } from './unreadable.ts';
import { ublXml, type EmbeddedFile } from './ubl.ts';
import { PEPPOL_EAS } from './electronic-address.ts';
import { clientEinvoice, clientEinvoiceRoutes, CLIENT_EINVOICE_MIGRATION } from './client-einvoice.ts';
import {
  documentEinvoice,
  documentEinvoiceRoutes,
  DOCUMENT_EINVOICE_MIGRATION,
  referencesLine,
  withReferencesLine,
} from './document-einvoice.ts';
import { EINVOICE_TEXTS } from './texts.ts';
import { documentLinks, readerScreen } from './screens.ts';

declare module 'billing-service' {
  interface ErrorMap {
    billing_einvoice_incomplete: 409;
    billing_einvoice_unreadable: 400;
  }
  interface OptionMap {
    einvoice_required: boolean;
    einvoice_iban: string;
    einvoice_bic: string;
    einvoice_contact_name: string;
    einvoice_contact_phone: string;
    einvoice_seller_scheme: string;
    einvoice_seller_id: string;
  }
}

const SELLER_KEYS = [
  'company_name',
  'company_email',
  'company_vat_number',
  'company_street',
  'company_city',
  'company_postcode',
  'business_country',
  'einvoice_iban',
  'einvoice_bic',
  'einvoice_contact_name',
  'einvoice_contact_phone',
  'einvoice_seller_scheme',
  'einvoice_seller_id',
] as const satisfies readonly (keyof SellerSettings)[];

const ID_ARGS: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, required: true, description: 'The document id.' } };

/** The seller's options and the plugin's settings, through `tx` when inside one. */
export async function sellerSettings(ctx: PluginContext, tx?: Tx): Promise<SellerSettings> {
  return ctx.options.getMany(SELLER_KEYS, tx);
}

/**
 * The model of `doc` in `format` (with the seller's settings and its client's e-invoice details), or 409
 * `billing_einvoice_incomplete` listing everything missing at once.
 */
async function modelOrRefuse(
  ctx: PluginContext,
  doc: BillingDocument,
  format: EinvoiceFormat,
  parent?: BillingDocument,
): Promise<EinvoiceModel> {
  const client = doc.clientId ? await clientEinvoice(ctx, doc.clientId) : undefined;
  const refs = await documentEinvoice(ctx, doc.kind === 'credit_note' && parent ? parent.id : doc.id);
  const { model, missing, invalid } = einvoiceModel(doc, await sellerSettings(ctx), format, parent, client, refs);
  if (missing.length || Object.keys(invalid).length) throw incomplete(doc, missing, invalid);
  return model;
}

function incomplete(doc: BillingDocument, missing: string[], invalid: Record<string, string>): BillingError {
  const parts = [missing.length ? `missing ${missing.join(', ')}` : '', ...Object.values(invalid)].filter(Boolean);
  return new BillingError('billing_einvoice_incomplete', `${doc.number} cannot be a valid e-invoice: ${parts.join('; ')}.`, {
    missing,
    ...(Object.keys(invalid).length ? { invalid } : {}),
  });
}

async function issuedInvoice(ctx: PluginContext, id: number): Promise<BillingDocument> {
  const doc = await ctx.api.invoices.get(id);
  if (doc.status === 'draft') throw new BillingError('billing_rest_invalid_state', 'A draft is not issued: it has no e-invoice yet.');
  return doc;
}

/** What the e-invoice routes answer beyond every route's codes (for the OpenAPI document). */
const EINVOICE_ERRORS = ['billing_rest_invalid_state', 'billing_einvoice_incomplete'];

function xmlResponse(xml: string, filename: string): RestResponse {
  return new RestResponse(
    null,
    200,
    { 'Content-Disposition': `inline; filename="${filename}"` },
    {
      contentType: 'application/xml; charset=UTF-8',
      body: Buffer.from(xml, 'utf8'),
    },
  );
}

/** The invoice an e-invoice route renders, through the core's scoped resolver: another user's is 404 before anything is read. */
const INVOICE = { param: 'id', kind: 'invoice' } as const;

const xmlName = (doc: BillingDocument, suffix: string) => pdfFilename(doc).replace(/\.pdf$/, `${suffix}.xml`);

/** The CII of an issued invoice (the same bytes as `/cii` and inside the Factur-X PDF). */
/** `GET /invoices/{id}/<format>`: an issued invoice in one XML syntax, named `<number>[-<format>].xml`. */
function invoiceXmlRoute(
  format: 'ubl' | 'xrechnung' | 'cii',
  description: string,
  render: (ctx: PluginContext, doc: BillingDocument) => Promise<string>,
) {
  return {
    path: `/invoices/(?P<id>[\\d]+)/${format}`,
    methods: 'GET',
    capability: 'bill_view_invoices',
    object: INVOICE,
    args: ID_ARGS,
    description,
    response: { contentType: 'application/xml', errors: EINVOICE_ERRORS },
    handler: async (req: RestRequest, ctx: PluginContext) => {
      const doc = await issuedInvoice(ctx, req.params.id);
      return xmlResponse(await render(ctx, doc), xmlName(doc, format === 'ubl' ? '' : `-${format}`));
    },
  } as const;
}

/** `GET /credit-notes/{id}/<format>`: a credit note in UBL, named `<number>[-<format>].xml`. */
function creditNoteXmlRoute(format: 'ubl' | 'xrechnung', description: string) {
  return {
    path: `/credit-notes/(?P<id>[\\d]+)/${format}`,
    methods: 'GET',
    capability: 'bill_view_invoices',
    // resolved through its invoice: another user's credit note answers 404, as its invoice does
    object: { param: 'id', kind: 'credit_note' },
    args: ID_ARGS,
    description,
    response: { contentType: 'application/xml', errors: EINVOICE_ERRORS },
    handler: async (req: RestRequest, ctx: PluginContext) => {
      const note = await ctx.api.creditNotes.get(req.params.id);
      const parent = note.parentId ? ((await ctx.api.invoices.find(note.parentId)) ?? undefined) : undefined;
      return xmlResponse(ublXml(await modelOrRefuse(ctx, note, format, parent)), xmlName(note, format === 'ubl' ? '' : `-${format}`));
    },
  } as const;
}

/** The invoice's attached files, as its e-invoices embed them. */
async function embeddedFiles(ctx: PluginContext, doc: BillingDocument): Promise<EmbeddedFile[]> {
  return (await ctx.api.attachments.files(doc.id)).map((f) => ({ filename: f.filename, contentType: f.content_type, body: f.body }));
}

async function invoiceCii(ctx: PluginContext, doc: BillingDocument): Promise<string> {
  return ciiXml(await modelOrRefuse(ctx, doc, 'facturx'));
}

const pdfa = (definition: TDocumentDefinitions): TDocumentDefinitions => ({ ...definition, ...PDFA_DEFINITION });

/** Factur-X of an issued invoice: the PDF/A-3b rendering with the CII attached. */
export async function facturX(ctx: PluginContext, doc: BillingDocument): Promise<Buffer> {
  const cii = await invoiceCii(ctx, doc);
  const seller = await ctx.options.get('company_name');
  const rendered = await ctx.api.pdfs.render(doc, { adjust: pdfa });
  return facturXPdf(
    rendered.bytes,
    cii,
    { number: doc.number, issueDate: doc.issueDate, seller, title: `Invoice ${doc.number}` },
    await embeddedFiles(ctx, doc),
  );
}

export default definePlugin({
  name: 'e-invoicing',
  errors: {
    billing_einvoice_incomplete: {
      status: 409,
      description: 'The document lacks data an e-invoice needs (`data.missing` lists every field at once).',
    },
    billing_einvoice_unreadable: {
      status: 400,
      description: 'A file given to read is not a UBL, CII or Factur-X invoice, or is refused as hostile or too complex.',
    },
  },
  version: '1.0.0',
  title: 'E-invoicing',
  translations: EINVOICE_TEXTS,
  description: 'Peppol BIS 3 UBL, XRechnung, CII and Factur-X invoices valid by the EN 16931 rules, and a reader for them.',
  settings: {
    einvoice_required: {
      type: 'boolean',
      default: false,
      description: 'Refuse to issue (save as available, send) an invoice whose e-invoice would be refused',
    },
    einvoice_iban: {
      type: 'string',
      maxLength: 34,
      pattern: '^([A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{10,40})?$',
      default: '',
      description: "The seller's IBAN: e-invoices ask for credit transfer to it (XRechnung requires it)",
    },
    einvoice_bic: { type: 'string', maxLength: 11, default: '', description: "The seller's BIC (optional)" },
    einvoice_contact_name: {
      type: 'string',
      maxLength: 100,
      default: '',
      description: "The seller's contact person (default: the company name)",
    },
    einvoice_contact_phone: {
      type: 'string',
      maxLength: 40,
      default: '',
      description: "The seller's contact telephone (XRechnung requires it)",
    },
    einvoice_seller_scheme: {
      type: 'string',
      enum: ['', ...PEPPOL_EAS],
      default: '',
      description: "The scheme (EAS code) of the seller's electronic address, when it is not the VAT number (e.g. 0088, GLN)",
    },
    einvoice_seller_id: {
      type: 'string',
      maxLength: 100,
      default: '',
      description: "The seller's electronic address in that scheme (Peppol participant identifier)",
    },
  },
  screens: [readerScreen],
  migrations: [CLIENT_EINVOICE_MIGRATION, DOCUMENT_EINVOICE_MIGRATION],
  listeners: [
    documentLinks,
    // the clients' electronic addresses and references, and the documents' references, travel in exports
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'e-invoicing/clients', table: 'e_invoicing_clients', key: ['client_id'] },
      { name: 'e-invoicing/documents', table: 'e_invoicing_documents', key: ['document_id'] },
    ]),
    // the buyer's references on the PDF of an invoice or credit note (a credit note's: its invoice's)
    filter('billing_pdf_document', (ctx) => async (definition, document) => {
      const doc = document as BillingDocument;
      if (doc.kind !== 'invoice' && doc.kind !== 'credit_note') return definition;
      const refs = await documentEinvoice(ctx, doc.kind === 'credit_note' && doc.parentId ? doc.parentId : doc.id);
      const client = doc.clientId ? await clientEinvoice(ctx, doc.clientId) : undefined;
      const tr = await ctx.api.translations.translator(doc.locale);
      return withReferencesLine(
        definition,
        referencesLine(tr, refs.buyer_reference || client?.buyer_reference || '', refs.purchase_order_reference),
      );
    }),
    // einvoice_required: an invoice whose EN 16931 e-invoice (CII, Factur-X) would be refused is not issued
    // either; Peppol's and XRechnung's further requirements are checked when those are asked for. This
    // decides whether an invoice goes out, so it fails closed: an error here refuses too.
    filter('billing_invoice_issue_refusals', (ctx) => async (refusals, invoice, { tx }) => {
      try {
        if (!(await ctx.options.get('einvoice_required', tx ?? undefined))) return refusals;
        const { missing, invalid } = einvoiceModel(invoice, await sellerSettings(ctx, tx ?? undefined), 'cii');
        if (!missing.length && !Object.keys(invalid).length) return refusals;
        const e = incomplete(invoice, missing, invalid);
        return [...refusals, { code: e.code, message: e.message, data: e.data } satisfies IssueRefusal];
      } catch (err) {
        ctx.log.error({ err, invoiceId: invoice.id }, 'could not check the e-invoice before issuing; refusing');
        return [...refusals, { code: 'billing_internal', message: 'The e-invoice could not be checked; the invoice was not issued.' }];
      }
    }),
  ],
  rest: [
    invoiceXmlRoute('ubl', 'The invoice as a Peppol BIS Billing 3.0 UBL invoice, its attached files embedded.', async (ctx, doc) =>
      ublXml(await modelOrRefuse(ctx, doc, 'ubl'), await embeddedFiles(ctx, doc)),
    ),
    invoiceXmlRoute('xrechnung', 'The invoice as an XRechnung (UBL) invoice, its attached files embedded.', async (ctx, doc) =>
      ublXml(await modelOrRefuse(ctx, doc, 'xrechnung'), await embeddedFiles(ctx, doc)),
    ),
    invoiceXmlRoute('cii', 'The invoice as a UN/CEFACT CII D16B invoice (EN 16931 profile).', invoiceCii),
    {
      path: '/invoices/(?P<id>[\\d]+)/facturx',
      methods: 'GET',
      capability: 'bill_view_invoices',
      object: INVOICE,
      args: ID_ARGS,
      description: 'The invoice as a Factur-X PDF (PDF/A-3b carrying its CII as factur-x.xml).',
      response: { contentType: 'application/pdf', errors: EINVOICE_ERRORS },
      handler: async (req, ctx) => {
        const doc = await issuedInvoice(ctx, req.params.id);
        const bytes = await facturX(ctx, doc);
        return new RestResponse(
          null,
          200,
          { 'Content-Disposition': `inline; filename="${pdfFilename(doc)}"` },
          {
            contentType: 'application/pdf',
            body: bytes,
          },
        );
      },
    },
    creditNoteXmlRoute('ubl', 'The credit note as a Peppol BIS Billing 3.0 UBL credit note referring to its invoice.'),
    creditNoteXmlRoute('xrechnung', 'The credit note as an XRechnung (UBL) credit note referring to its invoice.'),
    ...clientEinvoiceRoutes,
    ...documentEinvoiceRoutes,
    {
      path: '/einvoices/read',
      methods: 'POST',
      capability: 'bill_view_invoices',
      description: 'Reads a UBL, CII or Factur-X file (the raw body, at most 20 MiB) and answers what it says. Nothing is stored.',
      requestTypes: ['application/xml', 'text/xml', 'application/pdf'],
      // invoices carry their attachments (an XRechnung or Peppol invoice with its PDF runs to megabytes)
      bodyLimit: READ_BODY_LIMIT,
      response: { errors: ['billing_einvoice_unreadable', 'billing_busy'] },
      handler: async (req) => {
        const body = req.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw unreadable('Send the file itself as the body, with Content-Type application/xml, text/xml or application/pdf.');
        }
        // the body is not used again here: it moves to the reader's worker rather than being copied
        return readEinvoice(body, { handOver: true });
      },
    },
  ],
});
