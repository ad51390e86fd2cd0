import {
  BillingError,
  COLLECTION_ARGS,
  RestResponse,
  collectionResponse,
  definePlugin,
  filter,
  pageWindow,
  type ArgSchema,
  type BillingDocument,
  type PluginContext,
  type RestRequest,
} from '../../core/plugin-api.ts';
// Pay by bank transfer (docs/bank-transfer.md): each invoice's payment reference, an EPC QR code on euro
// invoices and a Swiss QR-bill payment part on franc invoices (PDF and public page), and bank statements
// (CAMT.053, MT940) whose credit entries settle invoices through the payment core, exactly once.
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { BANK_SETTING_KEYS, paymentReference, transferDetails, type BankSettings } from './payment-codes.ts';
import { pageBlock, pdfBlock } from './payment-block.ts';
import { BANK_TRANSFER_TEXTS, qrBillLanguage } from './texts.ts';
import { parseStatement } from './parse-statement.ts';
import { STATEMENT_BODY_LIMIT } from './statement.ts';
import { assignEntry, importStatement, listAllEntries, listEntries, listStatements, summary } from './statements-store.ts';
import { importScreen, statementsScreen } from './screens.ts';
import { ENTRY_ROW_SCHEMA, ENTRY_SCHEMA, PAYMENT_REFERENCE_SCHEMA, STATEMENT_SCHEMA } from './schemas.ts';

declare module 'billing-service' {
  interface ErrorMap {
    billing_bank_statement_unreadable: 400;
  }
  interface OptionMap {
    bank_account_holder: string;
    bank_iban: string;
    bank_bic: string;
    bank_qr: boolean;
  }
}

async function bankSettings(ctx: PluginContext): Promise<BankSettings> {
  return ctx.options.getMany(BANK_SETTING_KEYS);
}

const STATEMENT = { param: 'id', kind: 'bank_statement' } as const;
const ID_ARGS: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, required: true, description: 'The statement id.' } };
const ENTRY_ARGS: Record<string, ArgSchema> = {
  ...ID_ARGS,
  n: { type: 'integer', minimum: 1, required: true, description: 'The entry’s position in the statement.' },
};

export default definePlugin({
  name: 'bank-transfer',
  version: '1.0.0',
  compatibility: '^0.1.0',
  // its statements settle invoices: the one plugin whose payment API records (bank transfers only)
  recordsBankTransfers: true,
  title: 'Pay by bank transfer',
  translations: BANK_TRANSFER_TEXTS,
  description: 'Payment references, EPC (GiroCode) and Swiss QR-bill codes on invoices, and bank statements that settle them.',
  errors: {
    billing_bank_statement_unreadable: {
      status: 400,
      description: 'The file is not a CAMT.053 or MT940 statement, or is refused as hostile or too large.',
    },
  },
  settings: {
    bank_account_holder: {
      type: 'string',
      maxLength: 70,
      default: '',
      description: 'The account holder’s name payers transfer to (default: the company name)',
    },
    bank_iban: {
      type: 'string',
      maxLength: 42,
      anyOf: [{ const: '' }, { format: 'iban' }],
      invalidMessage: 'bank_iban is not an IBAN (its check digits do not hold).',
      default: '',
      description: 'The IBAN payers transfer to (a Swiss IBAN or QR-IBAN gives franc invoices a QR-bill)',
    },
    bank_bic: {
      type: 'string',
      maxLength: 11,
      anyOf: [{ const: '' }, { format: 'bic' }],
      invalidMessage: 'bank_bic is not a BIC (8 or 11 letters and digits).',
      default: '',
      description: 'The bank’s BIC (optional)',
    },
    bank_qr: { type: 'boolean', default: true, description: 'Print a QR code to pay (GiroCode, Swiss QR-bill) on invoices with money due' },
  },
  migrations: [
    {
      name: '0001_statements',
      up: `
        create table bank_transfer_statements (
          id bigserial primary key,
          format text not null,
          account text not null,
          statement_ref text not null default '',
          imported_by bigint,
          imported_at timestamptz not null default now(),
          entries int not null
        );
        create table bank_transfer_entries (
          statement_id bigint not null references bank_transfer_statements (id) on delete cascade,
          n int not null,
          date date not null,
          amount numeric not null,
          currency text not null,
          direction text not null,
          counterparty text not null,
          remittance text not null,
          bank_reference text not null,
          entry_key text not null,
          status text not null,
          invoice_id bigint,
          payment_id bigint,
          note text not null default '',
          primary key (statement_id, n)
        );
        -- the first import of an entry owns it: the same entry again, from any file or instance, is a duplicate
        create table bank_transfer_entry_keys (
          entry_key text primary key,
          statement_id bigint not null,
          n int not null
        );
      `,
    },
  ],
  objects: [{ kind: 'bank_statement', noun: 'bank statement', table: 'bank_transfer_statements', owner: 'imported_by' }],
  screens: [statementsScreen, importScreen],
  listeners: [
    // statements and their entries travel in exports, and so do the keys that make a statement imported
    // again after a restore a duplicate rather than a second payment
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'bank-transfer/statements', table: 'bank_transfer_statements', key: ['id'] },
      { name: 'bank-transfer/entries', table: 'bank_transfer_entries', key: ['statement_id', 'n'] },
      { name: 'bank-transfer/entry_keys', table: 'bank_transfer_entry_keys', key: ['entry_key'] },
    ]),
    // the reference is part of what the invoice says to its payer, so a failure must not drop it silently
    filter('billing_rest_invoice', (ctx: PluginContext) => async (data, invoice) => {
      if ((invoice as BillingDocument).kind !== 'invoice') return data;
      return { ...data, payment_reference: paymentReference(invoice as BillingDocument, await bankSettings(ctx)) };
    }),
    filter(
      'billing_rest_fields',
      () => async (fields, resource) => (resource === 'invoice' ? { ...fields, payment_reference: PAYMENT_REFERENCE_SCHEMA } : fields),
    ),
    filter('billing_pdf_document', (ctx: PluginContext) => async (definition, doc) => {
      const d = doc as BillingDocument;
      if (d.kind !== 'invoice' || d.status === 'draft') return definition;
      const tr = await ctx.api.translations.translator(d.locale);
      const details = await transferDetails(d, await bankSettings(ctx), qrBillLanguage(tr.locale));
      if (!details) return definition;
      const def = definition as unknown as TDocumentDefinitions;
      const content = Array.isArray(def.content) ? def.content : [def.content];
      return { ...def, content: [...content, pdfBlock(details, tr)] } as unknown as Record<string, unknown>;
    }),
    filter('billing_public_document_blocks', (ctx: PluginContext) => async (blocks, doc, page) => {
      if (page.kind !== 'invoice') return blocks;
      const tr = await ctx.api.translations.translator((doc as BillingDocument).locale);
      const details = await transferDetails(doc as BillingDocument, await bankSettings(ctx), qrBillLanguage(tr.locale));
      return details ? [...blocks, pageBlock(details, tr)] : blocks;
    }),
  ],
  rest: [
    {
      path: '/bank-statements',
      methods: 'POST',
      capability: 'bill_record_payment',
      description:
        'Imports a bank statement (CAMT.053 .001.02–.001.08 XML or MT940, the raw body): credit entries naming an invoice are recorded as bank transfer payments.',
      requestTypes: ['application/xml', 'text/xml', 'text/plain', 'application/octet-stream'],
      bodyLimit: STATEMENT_BODY_LIMIT,
      response: { status: 201, schema: STATEMENT_SCHEMA, errors: ['billing_bank_statement_unreadable', 'billing_busy'] },
      handler: async (req: RestRequest, ctx: PluginContext) => {
        // MT940 is text: sent as text/plain it arrives decoded; application/octet-stream keeps its bytes (Latin-1 exports)
        const body = typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new BillingError(
            'billing_bank_statement_unreadable',
            'Send the statement file itself as the body (application/xml, or application/octet-stream for MT940).',
          );
        }
        const parsed = await parseStatement(body);
        const user = req.user!;
        const out = await importStatement(ctx, parsed, { id: user.id, name: user.login });
        return new RestResponse(out, 201);
      },
    },
    {
      path: '/bank-statements',
      methods: 'GET',
      capability: 'bill_record_payment',
      args: COLLECTION_ARGS,
      description: 'Imported bank statements, newest first.',
      response: { schema: STATEMENT_SCHEMA, collection: true },
      handler: async (req: RestRequest, ctx: PluginContext) => {
        const { perPage, offset } = pageWindow(req.params);
        const { items, total } = await listStatements(ctx, perPage, offset, await ctx.api.scope.of('bank_statement', req.user!));
        return collectionResponse(req, items, total);
      },
    },
    {
      path: '/bank-statements/entries',
      methods: 'GET',
      capability: 'bill_record_payment',
      args: {
        ...COLLECTION_ARGS,
        status: {
          type: 'string',
          enum: ['matched', 'unmatched', 'ambiguous', 'duplicate', 'debit'],
          description: 'Only entries with this status.',
        },
      },
      description: 'Entries of every imported statement, newest first (what the admin screen lists and assigns from).',
      response: { schema: ENTRY_ROW_SCHEMA, collection: true },
      handler: async (req: RestRequest, ctx: PluginContext) => {
        const { perPage, offset } = pageWindow(req.params);
        const scope = await ctx.api.scope.of('bank_statement', req.user!);
        const { items, total } = await listAllEntries(ctx, perPage, offset, scope, req.params.status);
        return collectionResponse(req, items, total);
      },
    },
    {
      path: '/bank-statements/(?P<id>[\\d]+)',
      methods: 'GET',
      capability: 'bill_record_payment',
      object: STATEMENT,
      args: ID_ARGS,
      description: 'One imported bank statement.',
      response: { schema: STATEMENT_SCHEMA },
      handler: async (req: RestRequest, ctx: PluginContext) => summary(ctx, req.params.id),
    },
    {
      path: '/bank-statements/(?P<id>[\\d]+)/entries',
      methods: 'GET',
      capability: 'bill_record_payment',
      object: STATEMENT,
      args: ID_ARGS,
      description: 'Every entry of a statement with what became of it (debits are listed and ignored).',
      response: { schema: { type: 'array', items: ENTRY_SCHEMA } },
      handler: async (req: RestRequest, ctx: PluginContext) => listEntries(ctx, req.params.id),
    },
    {
      path: '/bank-statements/(?P<id>[\\d]+)/entries/(?P<n>[\\d]+)/assign',
      methods: 'POST',
      capability: 'bill_record_payment',
      object: [STATEMENT, { param: 'invoice_id', kind: 'invoice' }],
      unscoped: { n: 'an entry is a line of its statement, which the scope checks' },
      args: {
        ...ENTRY_ARGS,
        invoice_id: { type: 'integer', minimum: 1, required: true, description: 'The invoice the transfer pays.' },
      },
      description: 'Settles an unmatched or ambiguous credit entry with an invoice, as a bank transfer payment.',
      response: { schema: ENTRY_SCHEMA, errors: ['billing_rest_invalid_state'] },
      handler: async (req: RestRequest, ctx: PluginContext) =>
        assignEntry(ctx, req.params.id, req.params.n, req.params.invoice_id, { id: req.user!.id, name: req.user!.login }),
    },
  ],
});
