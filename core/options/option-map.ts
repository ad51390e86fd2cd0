/**
 * Typed options. The core declares its own here; a plugin adds its settings by declaration merging
 * (`declare module '…/core/options/option-map.ts' { interface OptionMap { gateway_a_secret_key: string } }`)
 * and declares their schemas as data in `definePlugin({ settings })`.
 */
/** The core's own options; plugins' settings are merged into OptionMap below. */
export interface CoreOptionMap {
  currency: string;
  timezone: string;
  tax_rate: number;
  business_country: string;
  tax_exempt_statement: string;
  tax_exempt_items_statement: string;
  invoice_prefix: string;
  quote_prefix: string;
  credit_note_prefix: string;
  number_padding: number;
  next_invoice_number: number | null;
  payment_terms_days: number;
  quote_accept_action: 'convert_draft' | 'convert_available' | 'convert_and_send' | 'none';
  allow_partial_payments: boolean;
  attach_pdf_to_email: boolean;
  email_attachments: boolean;
  company_name: string;
  company_address: string;
  company_email: string;
  company_logo_url: string;
  company_vat_number: string;
  company_street: string;
  company_city: string;
  company_postcode: string;
  plugin_cpu_ms_per_call: number;
  plugin_memory_mb: number;
  plugin_fault_limit: number;
}

export interface OptionMap extends CoreOptionMap {}

export type OptionKey = keyof OptionMap;

/** A setting as data: its JSON schema (which carries the default) and a line for the docs. */
export interface SettingSchema {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | ['integer', 'null'] | ['string', 'null'];
  default: unknown;
  description?: string;
  /** Secrets are never printed by `option list` or sent by any route; `option get` shows them. */
  secret?: boolean;
  [keyword: string]: unknown;
}

export type SettingsDeclaration = Record<string, SettingSchema>;

export const CORE_SETTINGS = {
  currency: { type: 'string', format: 'currency', default: 'USD', description: 'ISO 4217 code of new documents' },
  timezone: { type: 'string', format: 'timezone', default: 'UTC', description: 'Site timezone (IANA name): dates, overdue, reports' },
  tax_rate: { type: 'number', minimum: 0, maximum: 100, default: 0, description: 'Tax rate in percent; 0 is no tax' },
  business_country: {
    type: 'string',
    anyOf: [{ const: '' }, { format: 'country' }],
    default: '',
    description: 'ISO 3166-1 alpha-2 country of the business',
  },
  tax_exempt_statement: { type: 'string', default: '', description: 'When set, documents are tax exempt with this statement' },
  tax_exempt_items_statement: {
    type: 'string',
    default: '',
    description: 'Why non-taxable items of a taxed document carry no tax (their exempt group; e-invoices need it)',
  },
  invoice_prefix: { type: 'string', pattern: '^[A-Za-z0-9_]{1,10}$', default: 'INV' },
  quote_prefix: { type: 'string', pattern: '^[A-Za-z0-9_]{1,10}$', default: 'QUO' },
  credit_note_prefix: { type: 'string', pattern: '^[A-Za-z0-9_]{1,10}$', default: 'CN' },
  number_padding: { type: 'integer', minimum: 1, maximum: 12, default: 4 },
  next_invoice_number: {
    type: ['integer', 'null'],
    minimum: 1,
    default: null,
    description: 'Restart invoice numbering at this number (only forward)',
  },
  payment_terms_days: { type: 'integer', minimum: 0, maximum: 3650, default: 30 },
  quote_accept_action: {
    type: 'string',
    enum: ['convert_draft', 'convert_available', 'convert_and_send', 'none'],
    default: 'convert_available',
  },
  allow_partial_payments: { type: 'boolean', default: false },
  attach_pdf_to_email: { type: 'boolean', default: true },
  // the files attached to an invoice or quote go with its mail
  email_attachments: { type: 'boolean', default: true },
  company_name: { type: 'string', default: 'My Company' },
  company_address: { type: 'string', default: '' },
  company_email: {
    type: 'string',
    maxLength: 254,
    anyOf: [{ const: '' }, { format: 'email', pattern: '^[^\\r\\n]*$' }],
    default: '',
    description: "Sender and reply-to of the mails; the administrator's notices go here",
  },
  company_logo_url: {
    type: 'string',
    maxLength: 700_000,
    // what every renderer can draw: an https image (pages, mails) or an inline PNG or JPEG (also PDFs)
    anyOf: [{ const: '' }, { pattern: '^https://[^\\s"\'<>]+$' }, { pattern: '^data:image/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$' }],
    default: '',
    description: 'An https URL, or a data: URL of a PNG or JPEG (the only kind PDFs carry)',
  },
  // the seller's structured details, which e-invoices (EN 16931) require; company_address stays the printed block
  company_vat_number: { type: 'string', maxLength: 40, default: '', description: "The seller's VAT number, with its country prefix" },
  company_street: { type: 'string', maxLength: 200, default: '', description: "The seller's street and number" },
  company_city: { type: 'string', maxLength: 100, default: '', description: "The seller's city" },
  company_postcode: { type: 'string', maxLength: 20, default: '', description: "The seller's postcode" },
  // bounds of sandboxed plugins (docs/sandbox.md)
  plugin_cpu_ms_per_call: {
    type: 'integer',
    minimum: 1,
    maximum: 10000,
    default: 50,
    description: 'CPU time a sandboxed plugin may use each time it is entered, in milliseconds',
  },
  plugin_memory_mb: { type: 'integer', minimum: 8, maximum: 1024, default: 64, description: 'Memory of each sandboxed plugin, in MiB' },
  plugin_fault_limit: {
    type: 'integer',
    minimum: 1,
    maximum: 10000,
    default: 20,
    description: 'Faults in 10 minutes after which a sandboxed plugin is deactivated everywhere',
  },
} as const satisfies Record<keyof CoreOptionMap, SettingSchema>;
