/**
 * Every hook the core raises, with its arguments in order (docs/plugins.md) and what a failing listener
 * does. This is the one place hook names are declared: `addAction('billing_invoice_craeted', …)` does
 * not compile, and the runtime refuses it too.
 *
 * A plugin that raises hooks of its own declares them twice, once for the compiler and once for the
 * runtime:
 *
 *   declare module '../../core/hooks/hook-map.ts' {
 *     interface ActionMap { my_plugin_thing_happened: [thingId: number] }
 *   }
 *   definePlugin({ …, hooks: { actions: [{ name: 'my_plugin_thing_happened', args: ['thingId'] }] } })
 */
import type { ItemSource } from '../admin/wire.ts';
import type { Tx } from '../db/types.ts';
import type { ErrorCode } from '../errors.ts';
import type { HookModels } from './hook-models.ts';
import type { Html } from '../http/html.ts';
import type { ListScope } from '../scope/types.ts';
import type { ImportResource } from '../imports/types.ts';

type Invoice = HookModels['invoice'];
type Quote = HookModels['quote'];
type Payment = HookModels['payment'];
type CreditNote = HookModels['creditNote'];
type Client = HookModels['client'];
type User = HookModels['user'];
type Json = Record<string, unknown>;

export type CreationSource = 'rest' | 'ajax' | 'cli' | 'recurring' | 'quote' | 'api';

/** Why an invoice may not be issued: the error the caller gets (the first refusal wins). */
export interface IssueRefusal {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

/**
 * Where an invoice is being issued: created as `available`, a draft saved as `available`, or a draft
 * about to be sent (checked before the mail leaves). `tx` is the issuing transaction (null when sending):
 * listeners read through it, as code inside a transaction must.
 */
export interface IssueContext {
  via: 'create' | 'update' | 'send';
  tx: Tx | null;
}

/**
 * A visitor accepting a quote, as `billing_quote_acceptance` sees it: the form's own fields (`fields`:
 * every posted field as text, e.g. an addon's `signature` and `signer_name`), who sent it, and the
 * accepting transaction (listeners write through it; a refusal rolls it all back).
 */
export interface AcceptanceContext {
  tx: Tx;
  fields: Record<string, string>;
  ip: string | null;
  userAgent: string | null;
}

/** What `billing_quote_acceptance` filters: the `accepted` record, and refusals that stop the acceptance. */
export interface Acceptance {
  record: Json;
  refusals: IssueRefusal[];
}

/** Where a public page is being built: its kind, and the site's today (`Y-m-d`, site timezone). */
export interface PublicPageContext {
  kind: 'invoice' | 'quote';
  today: string;
}

/** Actions: listeners return nothing; they run after the change they report has committed. */
export interface CoreActionMap {
  billing_invoice_created: [invoiceId: number, invoice: Invoice, context: { source: CreationSource }];
  billing_invoice_updated: [invoiceId: number, invoice: Invoice];
  billing_invoice_sent: [invoiceId: number, invoice: Invoice];
  billing_invoice_trashed: [invoiceId: number, invoice: Invoice];
  billing_invoice_restored: [invoiceId: number, invoice: Invoice];
  billing_invoice_status_changed: [invoiceId: number, invoice: Invoice, oldStatus: string, newStatus: string];
  billing_invoice_viewed: [invoiceId: number, invoice: Invoice];
  billing_quote_created: [quoteId: number, quote: Quote];
  billing_quote_sent: [quoteId: number, quote: Quote];
  billing_quote_accepted: [quoteId: number, quote: Quote, invoice: Invoice | null];
  billing_quote_declined: [quoteId: number, quote: Quote];
  billing_payment_completed: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_payment_received: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_payment_failed: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_payment_refunded: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_credit_note_created: [invoiceId: number, invoice: Invoice, creditNote: CreditNote];
  billing_plugin_activated: [name: string];
  billing_plugin_deactivated: [name: string];
  billing_option_updated: [key: string, oldValue: unknown, newValue: unknown];
}

/** Filters: the first argument is the value being filtered; every listener returns its new value. */
export interface CoreFilterMap {
  billing_rest_invoice: [data: Json, invoice: Invoice, request: unknown];
  billing_rest_quote: [data: Json, quote: Quote, request: unknown];
  billing_rest_client: [data: Json, client: Client, request: unknown];
  billing_model_to_array: [data: Json, model: unknown];
  billing_user_has_cap: [allcaps: Record<string, boolean>, caps: string[], args: [string, number, ...number[]], user: User];
  /** What `user`'s list, search and count of `kind` (`invoice`, `quote`, `client`) is narrowed to: per-object rules for lists. */
  billing_list_scope: [scope: ListScope, kind: string, user: User];
  billing_pdf_document: [definition: Json, document: unknown];
  billing_email: [
    message: { to: string; subject: string; html: string; text: string; attachments: unknown[] },
    template: string,
    document: unknown,
  ];
  billing_tax_treatment: [treatment: { category: string; statement: string; rate: string }, document: unknown];
  /**
   * A veto on issuing an invoice: listeners add a refusal to the list to stop it (the e-invoicing
   * plugin's `einvoice_required`). A listener that throws is skipped like any filter's, so a listener
   * that must fail closed catches its own errors and refuses.
   */
  billing_invoice_issue_refusals: [refusals: IssueRefusal[], invoice: Invoice, context: IssueContext];
  /**
   * A visitor accepting a quote, inside the accepting transaction: `record` is what the quote's
   * `accepted` will hold (`{at, by}`), and a listener may add to it (the e-signature addon's
   * `signature`); a listener adds a refusal to stop the acceptance (the first one becomes the visitor's
   * error; nothing is written, the token stays unused).
   */
  billing_quote_acceptance: [acceptance: Acceptance, quote: Quote, context: AcceptanceContext];
  /** Blocks of HTML added to a document's public page after its notes and terms (e.g. "Signed by"). */
  billing_public_document_blocks: [blocks: Html[], document: Invoice | Quote, context: PublicPageContext];
  /** Fields and scripts added inside the public quote page's Accept form (e.g. a signature pad). */
  billing_public_accept_fields: [fields: Html[], quote: Quote, context: PublicPageContext];
  /**
   * Whether the invoice will be charged automatically from the client's saved method (the recurring
   * addon's `auto_charge` profiles): its pay page then saves the method the customer pays with, and says so.
   */
  billing_invoice_autopay: [autopay: boolean, invoice: Invoice];
  /**
   * Downloads a plugin offers on a document's admin screen (the e-invoice formats): `kind` is `invoice`
   * or `quote`; each link names a REST path with `{id}` and the statuses it is shown for.
   */
  billing_admin_document_links: [links: DocumentLink[], kind: string];
  /**
   * Where the builder's item name field finds suggestions as it is typed (the item library): `kind` is
   * `invoice` or `quote`; each source names an admin-ajax action answering ItemSuggestion entries.
   */
  billing_admin_item_sources: [sources: ItemSource[], kind: string];
  /**
   * What a CSV can be imported as (`POST /imports?resource=`): the core's clients, invoices and payments,
   * and what plugins add (an item library's `items`), each a resource declared as data.
   */
  billing_import_resources: [resources: ImportResource<any>[]];
  /**
   * What `billing export` writes and `billing import` reads back beyond the core's own files: an active
   * plugin adds a section per table it keeps (docs/import-export.md). Only the core raises it.
   */
  billing_export_sections: [sections: ExportSection[]];
  /**
   * The fields a plugin adds to a resource's REST representation (through `billing_rest_invoice`,
   * `billing_rest_quote`, `billing_rest_client`), as JSON schemas by name, so the OpenAPI document
   * describes them while the plugin is active: `resource` is `invoice`, `quote` or `client`.
   */
  billing_rest_fields: [fields: Record<string, Json>, resource: string];
}

/**
 * One file of an export archive (`<name>.ndjson`): the rows of a table exactly as stored, one JSON
 * object per line, restored with their ids. A plugin names its sections `<plugin>/<what>`.
 */
export interface ExportSection {
  /** `clients`, `recurring/profiles`: letters, digits, `_` and `-`, one `/` at most. */
  name: string;
  /** The table (a plugin's own): exported as `select … from <table>`, restored by `insert`. */
  table: string;
  /** The columns that order its rows uniquely (the primary key), read in batches in that order. */
  key: readonly string[];
  /** SQL over the table's columns choosing its rows, when the table holds several sections' (users and clients). */
  where?: string;
  /** The whole section travels only with `--include-secrets` (sign-in secrets). */
  secret?: boolean;
  /**
   * Columns that travel only with `--include-secrets`; a restore without them gives each row a fresh
   * value from the function (a new signing secret), or leaves the column to its default when null.
   */
  secretColumns?: Readonly<Record<string, (() => string) | null>>;
  /**
   * Columns naming rows of a section restored later (a quote's invoice): restored empty with the rows,
   * then set once every section is in, so references in either direction hold.
   */
  later?: readonly string[];
  /** The SQL sequence its ids come from when it is not the key column's own (a `serial`): moved past the highest restored id. */
  sequence?: string;
  /** Rows read per batch when its rows are large (files): the export holds one batch in memory. Default 1000. */
  pageRows?: number;
}

export type { ItemSource, ItemSuggestion } from '../admin/wire.ts';

/** A download on a document's admin screen, declared by a plugin (`billing_admin_document_links`). */
export interface DocumentLink {
  /** The link's words, e.g. "Peppol UBL (XML)". */
  label: string;
  /** A REST path under /wp-json/billing/v1 with `{id}`, e.g. `/invoices/{id}/ubl`. */
  path: string;
  /** Shown only for documents in these statuses (e.g. every issued one); absent: always. */
  statuses?: readonly string[];
}

/** Every action: the core's, and those plugins merge in (`declare module … { interface ActionMap { … } }`). */
export interface ActionMap extends CoreActionMap {}
/** Every filter: the core's, and those plugins merge in. */
export interface FilterMap extends CoreFilterMap {}

export type ActionName = keyof ActionMap;
export type FilterName = keyof FilterMap;

/**
 * What happens when a listener throws.
 * - `isolate`: it is logged with its owner's name and the others run (an action after commit cannot
 *   undo committed work, so its listeners never fail each other or the caller).
 * - `abort`: the call fails with `billing_hook_failed` (a 500 for a request). Filters that decide
 *   access, money or what leaves the service fail closed: a broken `billing_user_has_cap` listener that
 *   was removing a capability must not leave it granted, a broken `billing_rest_*` listener that was
 *   removing a field must not let it out.
 */
export type HookPolicy = 'isolate' | 'abort';

export interface HookSpec {
  kind: 'action' | 'filter';
  /** Argument names, in order: the hook's arity (tapable compiles its call for exactly these). */
  args: readonly string[];
  onError: HookPolicy;
}

/** How a plugin declares a hook it raises: a name (arity from the call, actions isolate, filters abort) or a spec. */
export type HookDeclaration = string | { name: string; args?: readonly string[]; onError?: HookPolicy };

const act = (...args: string[]): HookSpec => ({ kind: 'action', args, onError: 'isolate' });
const fail = (...args: string[]): HookSpec => ({ kind: 'filter', args, onError: 'abort' });

/** The core's hooks for the runtime, which cannot read interfaces; `satisfies` keeps each one spelt as declared. */
export const CORE_HOOKS = Object.freeze({
  billing_invoice_created: act('invoiceId', 'invoice', 'context'),
  billing_invoice_updated: act('invoiceId', 'invoice'),
  billing_invoice_sent: act('invoiceId', 'invoice'),
  billing_invoice_trashed: act('invoiceId', 'invoice'),
  billing_invoice_restored: act('invoiceId', 'invoice'),
  billing_invoice_status_changed: act('invoiceId', 'invoice', 'oldStatus', 'newStatus'),
  billing_invoice_viewed: act('invoiceId', 'invoice'),
  billing_quote_created: act('quoteId', 'quote'),
  billing_quote_sent: act('quoteId', 'quote'),
  billing_quote_accepted: act('quoteId', 'quote', 'invoice'),
  billing_quote_declined: act('quoteId', 'quote'),
  billing_payment_completed: act('invoiceId', 'invoice', 'payment'),
  billing_payment_received: act('invoiceId', 'invoice', 'payment'),
  billing_payment_failed: act('invoiceId', 'invoice', 'payment'),
  billing_payment_refunded: act('invoiceId', 'invoice', 'payment'),
  billing_credit_note_created: act('invoiceId', 'invoice', 'creditNote'),
  billing_plugin_activated: act('name'),
  billing_plugin_deactivated: act('name'),
  billing_option_updated: act('key', 'oldValue', 'newValue'),
  // every core filter decides something that must not silently go wrong: access, money, what a
  // representation, a PDF or a mail shows
  billing_rest_invoice: fail('data', 'invoice', 'request'),
  billing_rest_quote: fail('data', 'quote', 'request'),
  billing_rest_client: fail('data', 'client', 'request'),
  billing_model_to_array: fail('data', 'model'),
  billing_user_has_cap: fail('allcaps', 'caps', 'args', 'user'),
  billing_list_scope: fail('scope', 'kind', 'user'),
  billing_pdf_document: fail('definition', 'document'),
  billing_email: fail('message', 'template', 'document'),
  billing_tax_treatment: fail('treatment', 'document'),
  billing_invoice_issue_refusals: fail('refusals', 'invoice', 'context'),
  billing_quote_acceptance: fail('acceptance', 'quote', 'context'),
  billing_public_document_blocks: fail('blocks', 'document', 'context'),
  billing_public_accept_fields: fail('fields', 'quote', 'context'),
  // a broken listener only costs the box its default (unticked): paying still works
  billing_invoice_autopay: { kind: 'filter', args: ['autopay', 'invoice'], onError: 'isolate' },
  // a broken plugin's link must not take the builder down: the others are still offered
  billing_admin_document_links: { kind: 'filter', args: ['links', 'kind'], onError: 'isolate' },
  // the same for a source of suggestions: without it, the builder is still a builder
  billing_admin_item_sources: { kind: 'filter', args: ['sources', 'kind'], onError: 'isolate' },
  // a broken plugin's resource must not take the core's imports down
  billing_import_resources: { kind: 'filter', args: ['resources'], onError: 'isolate' },
  // an archive missing a plugin's section would be a backup that silently cannot be restored
  billing_export_sections: fail('sections'),
  billing_rest_fields: fail('fields', 'resource'),
} satisfies Record<keyof CoreActionMap | keyof CoreFilterMap, HookSpec>);

type CoreHook = keyof typeof CORE_HOOKS;
export const CORE_ACTIONS = Object.freeze(
  Object.keys(CORE_HOOKS).filter((k) => CORE_HOOKS[k as CoreHook].kind === 'action'),
) as readonly (keyof CoreActionMap)[];
export const CORE_FILTERS = Object.freeze(
  Object.keys(CORE_HOOKS).filter((k) => CORE_HOOKS[k as CoreHook].kind === 'filter'),
) as readonly (keyof CoreFilterMap)[];
