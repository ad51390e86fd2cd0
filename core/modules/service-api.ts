import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { AttachmentService } from '../documents/attachments/attachment-service.ts';
import type { ClientService } from '../documents/clients/client-service.ts';
import type { BillingDocument } from '../documents/document.ts';
import type { RenderedPdf } from '../pdf/pdf-renderer.ts';
import type { InvoiceService } from '../documents/invoice-service.ts';
import type { QuoteService } from '../documents/quote-service.ts';
import type { MailService } from '../mail/mail-service.ts';
import type { Translations } from '../i18n/translations.ts';
import type { ReportService } from '../reports/report-service.ts';
import type { CreditNoteService } from '../payments/credit-note-service.ts';
import type { PaymentService } from '../payments/payment-service.ts';
import type { SavedMethod } from '../payments/saved-methods.ts';
import type { Payment } from '../payments/payment.ts';
import type { Actor } from '../audit/audit.ts';
import type { RoleRegistry } from '../identity/role-registry.ts';
import type { UserStore } from '../identity/users.ts';
import type { RestRepresentations } from '../http/rest/representations.ts';
import type { ObjectScope } from '../scope/object-scope.ts';

/**
 * The typed in-process API (docs/plugins.md): what REST, AJAX, the CLI and in-process code all call, so
 * every path runs the same code. In-process calls need no authentication and run every filter and
 * action. `Kernel.api` is this whole API, for trusted code in the same process (the CLI, tests).
 */
export interface ServiceApi {
  invoices: InvoiceService;
  quotes: QuoteService;
  clients: ClientService;
  /** Sending documents by e-mail, and their delivery log. */
  mail: MailService;
  /** Invoiced, paid and outstanding amounts per period. */
  reports: ReportService;
  /** Payments and refunds; `payments.apply` is the payment core. */
  payments: PaymentService;
  /** Credit notes against invoices. */
  creditNotes: CreditNoteService;
  /** Clients' saved cards and mandates, and autopay's charge of them (docs/payments.md, Autopay). */
  paymentMethods: PaymentMethodsApi;
  /** Documents' PDFs, as their routes serve them. */
  pdfs: DocumentPdfs;
  /** The files attached to invoices and quotes (docs/documents.md, Attachments), read-only. */
  attachments: Pick<AttachmentService, 'list' | 'files'>;
  /**
   * The texts of a language (a document's `locale`, else the option `site_locale`), with the site's own
   * wording: what a plugin prints for a customer — its page block, its mail — goes through it.
   */
  translations: Pick<Translations, 'translator'>;
  /** Documents and payments exactly as the REST API represents them. */
  representations: RestRepresentations;
  /** The roles and capabilities declared now (the core's and the loaded plugins'), read-only. */
  roles: RoleReader;
  /** Who the users are and which role each holds; `setRole` is audited (`user.set_role`) and keeps one administrator. */
  users: UserRoles;
  /**
   * What a user's list of a kind is narrowed to (`billing_list_scope`, e.g. `{created_by}`): a plugin
   * listing objects of a kind it declares narrows the list by it, as the core's lists are, so its
   * list and its single-object routes (checked by the core) obey one rule.
   */
  scope: ScopeReader;
}

/**
 * Saved payment methods as code outside the payment module uses them: listed and removed without their
 * tokens (the portal's remove uses `remove`), and charged for an invoice's amount due through the
 * client's gateway — a pending payment that only the gateway's verified webhook completes.
 */
export interface PaymentMethodsApi {
  list(clientId: number): Promise<SavedMethod[]>;
  remove(clientId: number, id: number, actor: Actor): Promise<SavedMethod>;
  /**
   * Charges the invoice's client's newest chargeable saved method for what is due, once per `key` (name
   * the invoice and attempt). Null when there is none.
   */
  charge(invoiceId: number, key: string): Promise<{ payment: Payment; savedMethodId: number } | null>;
}

export type ScopeReader = Pick<ObjectScope, 'of'>;

export type UserRoles = Pick<UserStore, 'list' | 'setRole'>;

export type RoleReader = Pick<RoleRegistry, 'list' | 'has' | 'allCapabilities' | 'capabilitiesOf'>;

/** A document's PDF as its routes serve it, for code that builds on it (Factur-X). */
export interface DocumentPdfs {
  /**
   * The document's PDF through the worker pool and its cache, after `billing_pdf_document`; `adjust`
   * changes the final definition (e.g. `{ ...d, version: '1.7', subset: 'PDF/A-3b' }`). `parent` is a
   * credit note's invoice.
   */
  render(
    doc: BillingDocument,
    options?: { parent?: BillingDocument; adjust?: (definition: TDocumentDefinitions) => TDocumentDefinitions },
  ): Promise<RenderedPdf>;
}

/** What a plugin may read of payments. Money moves only through the payment core's bound origins. */
export type PaymentReader = Pick<PaymentService, 'get' | 'find' | 'findByReference' | 'list' | 'forInvoice'>;

/**
 * A plugin's payment API: read-only, and for a plugin that declares `recordsBankTransfers` also
 * `recordBankTransfer` (completed `bank_transfer` payments under a statement entry's key, the
 * `statement` origin): declared as data, so an operator sees which plugin may settle invoices.
 */
export type PluginPayments = PaymentReader & Partial<Pick<PaymentService, 'recordBankTransfer'>>;

/**
 * The API plugins get (`ctx.api`): the same services, except that payments are read-only. A plugin
 * cannot record, complete or refund money as an administrator, nor act as a payment method: a
 * gateway plugin's events reach the payment core through the gateway runtime, under its own method.
 */
export interface PluginApi extends Omit<ServiceApi, 'payments'> {
  payments: PluginPayments;
}

export function pluginApi(api: ServiceApi, grants: { recordsBankTransfers?: boolean } = {}): PluginApi {
  const p = api.payments;
  const payments: PluginPayments = {
    get: (id) => p.get(id),
    find: (id) => p.find(id),
    findByReference: (reference) => p.findByReference(reference),
    list: (q) => p.list(q),
    forInvoice: (invoiceId, q) => p.forInvoice(invoiceId, q),
    ...(grants.recordsBankTransfers ? { recordBankTransfer: (input, actor) => p.recordBankTransfer(input, actor) } : {}),
  };
  return Object.freeze({ ...api, payments });
}
