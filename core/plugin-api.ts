/**
 * The one import of a plugin author (`import { definePlugin, … } from 'billing-service'`): how to
 * declare a plugin, its listeners, hooks and options, the gateway provider contract, and the money
 * helpers. Everything else in `core/` is the service's own and may change between releases.
 */
export { definePlugin, type PluginContext, type PluginDefinition } from './plugins/define-plugin.ts';
export { action, durable, filter, type Contributions, type ListenerDeclaration } from './plugins/contributions.ts';
export type { ActionMap, FilterMap, HookDeclaration, HookPolicy, CreationSource, IssueRefusal, IssueContext } from './hooks/hook-map.ts';
export type {
  Acceptance,
  AcceptanceContext,
  PublicPageContext,
  DocumentLink,
  ItemSource,
  ItemSuggestion,
  ExportSection,
} from './hooks/hook-map.ts';
export { siteDate, siteDateTime, addDays } from './time/site-time.ts';
export { formatMoney, formatDate } from './display/format.ts';
export type { Translator } from './i18n/translator.ts';
export type { TranslationsDeclaration } from './i18n/catalogue.ts';
export { totalsRows, type TotalsRow, type TotalsRowKey, type TotalsRowsOptions, type TotalsSource } from './display/totals-rows.ts';
export type { HookModels } from './hooks/hook-models.ts';
export type { PluginHooks } from './hooks/registry.ts';
export type { OptionMap, SettingSchema, SettingsDeclaration } from './options/option-map.ts';
export type { PluginApi, PaymentReader, PluginPayments } from './modules/service-api.ts';
export type { PluginTables } from './plugins/plugin-tables.ts';
export type { RestRequest, RestRoute, ArgSchema } from './http/rest/route.ts';
export { RestResponse } from './http/rest/route.ts';
export { COLLECTION_ARGS, collectionResponse, pageWindow } from './http/rest/pagination.ts';
export type { RestRepresentations } from './http/rest/representations.ts';
export type { AjaxAction, AjaxRequest } from './http/ajax/ajax-action.ts';
export type { JobDefinition, JobRun } from './jobs/scheduler.ts';
export type { OutboxItem, QueueDefinition } from './outbox/outbox.ts';
export type { AdminScreen, ScreenContext } from './admin/screens.ts';
export { optionsScreen, type OptionsScreenDeclaration } from './admin/app-screens.ts';
export {
  resourceScreen,
  uploadScreen,
  type ResourceScreenDeclaration,
  type UploadScreenDeclaration,
  type ResourceColumn,
  type ResourceAction,
  type UploadResultSection,
} from './admin/resource-screen.ts';
export { html, raw, type Html } from './http/html.ts';
export { ASSET_PREFIX, type AssetDeclaration } from './http/assets.ts';
export type {
  CheckoutRequest,
  CheckoutResult,
  GatewayCommand,
  GatewayContext,
  GatewayDelivery,
  GatewayEvent,
  GatewayPaymentRef,
  GatewayPaymentView,
  GatewayProvider,
  SavedMethodReport,
  SaveMethodRequest,
  ChargeSavedRequest,
} from './payments/gateways/gateway-provider.ts';
export { unreadable, unreachable, constantTimeEqual } from './payments/gateways/gateway-helpers.ts';
export { Money, Decimal, isCurrency, minorUnits, type CurrencyCode, type DecimalInput } from './money/index.ts';
export { isCountry, normalizeVatNumber, vatCategory, type TaxBreakdownEntry, type VatCategoryCode } from './tax/index.ts';
export { pdfFilename } from './pdf/file-name.ts';
export { timestamp, type Tx } from './db/database.ts';
export type { DocumentPdfs } from './modules/service-api.ts';
export { BillingError, type ErrorCode, type ErrorMap, type ErrorDeclaration } from './errors.ts';
export {
  ImportRowError,
  type ImportResource,
  type ImportField,
  type ImportRow,
  type ImportEnv,
  type ImportReaders,
  type ImportPreset,
  type ImportWriteResult,
} from './imports/types.ts';
export { runBounded, type BoundedRunOptions, type BoundedJob, type BoundHit } from './workers/bounded-worker.ts';
export { parseXml, child, children, at, textAt, type XmlElement, type SafeXmlOptions } from './xml/safe-xml.ts';
export { compactIban, isValidIban, isValidBic, isSwissIban, isQrIban, mod97 } from './banking/iban.ts';
export { cleanPng, type PngBounds, type PngCheck } from './images/clean-png.ts';
/** Every billing capability the core declares (docs/identity.md), for plugins that build roles from them. */
export { BILL_CAPABILITIES } from './identity/capabilities.ts';
export type { BillingDocument, DocumentKind, InvoiceStatus } from './documents/types.ts';
export { owedInstalmentSql, owedSinceSql } from './documents/instalments.ts';
export { amountDueNowOf, owedSince } from './documents/representation.ts';
export { ISSUED_INVOICE_STATUSES, OPEN_INVOICE_STATUSES, isOpenInvoiceStatus } from './documents/statuses.ts';
export type { Payment } from './payments/types.ts';
export { RECEIVED_PAYMENT_STATUSES, type PaymentStatus } from './payments/statuses.ts';
export { sqlLiterals } from './db/sql-literals.ts';
export { containsPattern, startsPattern } from './db/like.ts';
export { COMMON_UNITS, DEFAULT_UNIT, isUnitCode, unitName, unitTitle } from './units/units.ts';
export { UNIT_ARG } from './documents/document-schema.ts';
export { audit, type Actor, type AuditEntry } from './audit/audit.ts';
export type { RoleReader, ScopeReader, UserRoles } from './modules/service-api.ts';
export type { ListScope } from './scope/types.ts';
export type { ObjectKind } from './scope/object-kind.ts';
export type { AuthUser } from './http/auth.ts';
export { CLI } from './audit/audit.ts';
export { DOCUMENT_ARGS, type DocumentInput } from './documents/document-schema.ts';
export { documentInput } from './documents/document-input.ts';
export { checkArgs } from './validation/args.ts';
