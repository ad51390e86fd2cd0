import { USER_ID_MAX } from '../identity/users.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { UNIT_CODE_MAX } from '../units/units.ts';

/** A line's unit of measure: a UN/ECE Recommendation 20 code (docs/documents.md, Units). */
export const UNIT_ARG = {
  type: 'string',
  format: 'unit-code',
  maxLength: UNIT_CODE_MAX,
  description: 'UN/ECE Recommendation 20 unit code (HUR hour, DAY, MON month, KGM, MTR, LS lump sum, C62 one…); none: one (C62)',
  invalidMessage: 'unit must be a UN/ECE Recommendation 20 unit code, such as HUR (hour), DAY, C62 (one) or KGM.',
} as const;
import { SCHEDULE_MAX, type InstalmentInput } from './instalments.ts';
import { LOCALE_TAG_SCHEMA } from '../i18n/locale-tag.ts';

/**
 * The request fields of a document, as ajv schemas: the REST server validates `POST /invoices` with
 * them, OPTIONS shows them, the AJAX builder actions check their JSON with them, and docs quote them.
 * Exactness rules that JSON Schema cannot state (at most 4 decimals, due ≥ issue date, a fixed discount
 * within the subtotal) are checked by the document service, with the same 400 shape.
 */
export const ITEM_SCHEMA = {
  type: 'object',
  required: ['name', 'quantity', 'price'],
  properties: {
    name: { type: 'string', minLength: 1, pattern: '\\S', maxLength: 500, description: 'What was sold' },
    description: { type: 'string', maxLength: 5000 },
    quantity: { type: ['number', 'string'], description: 'Greater than 0, at most 4 decimals' },
    price: { type: ['number', 'string'], description: 'Unit price, 0 or more, at most 4 decimals' },
    unit: UNIT_ARG,
    taxable: { type: 'boolean', default: true },
    tax_rate: {
      type: ['number', 'string', 'null'],
      description: "Percent (0–100, at most 4 decimals) this taxable item is taxed at, instead of the document's rate",
    },
  },
} as const;

const dateArg = (description: string): ArgSchema => ({ type: 'string', format: 'date-ymd', description });

export const DOCUMENT_ARGS: Record<string, ArgSchema> = {
  items: { type: 'array', required: true, minItems: 1, maxItems: 500, items: ITEM_SCHEMA, description: 'At least one item' },
  client_id: {
    type: 'integer',
    minimum: 1,
    maximum: USER_ID_MAX,
    description: 'A client (user with role billing_client); fills the customer',
  },
  customer_name: { type: 'string', maxLength: 200, description: "Overrides the client's name" },
  customer_email: { type: 'string', format: 'email', maxLength: 254, description: "Overrides the client's e-mail" },
  customer_country: { type: 'string', format: 'country', description: 'ISO 3166-1 alpha-2' },
  customer_vat_number: { type: 'string', maxLength: 40 },
  status: {
    type: 'string',
    enum: ['draft', 'available'],
    default: 'draft',
    invalidMessage: 'status must be draft or available: payment statuses are set by recording payments.',
  },
  number: {
    type: 'string',
    minLength: 1,
    maxLength: 40,
    pattern: '^[A-Za-z0-9][A-Za-z0-9_./-]*$',
    description: 'Omit to take the next number of the sequence',
  },
  issue_date: dateArg('Y-m-d; today in the site timezone when omitted'),
  due_date: dateArg('Y-m-d, not before issue_date; issue date + payment_terms_days when omitted'),
  title: { type: 'string', maxLength: 500 },
  notes: { type: 'string', maxLength: 20000 },
  terms: { type: 'string', maxLength: 20000 },
  currency: { type: 'string', format: 'currency', description: 'ISO 4217; option currency when omitted' },
  locale: {
    ...LOCALE_TAG_SCHEMA,
    type: ['string', 'null'],
    description: `${LOCALE_TAG_SCHEMA.description}; the client's locale when omitted`,
  },
  discount: {
    type: 'object',
    // `required` at this level is WordPress's boolean; the object's own required keys go in allOf
    allOf: [{ required: ['type', 'value'] }],
    properties: { type: { type: 'string', enum: ['percent', 'fixed'] }, value: { type: ['number', 'string'] } },
    description: 'A percent of the subtotal, or a fixed amount not above it',
  },
};

/** An invoice bills a period of service (a quote offers, so it has none). */
export const INVOICE_ARGS: Record<string, ArgSchema> = {
  ...DOCUMENT_ARGS,
  period_start: dateArg('Y-m-d: the first day of the service billed (EN 16931 BT-73); none when omitted'),
  period_end: dateArg('Y-m-d: the last day of the service billed, not before period_start (BT-74); none when omitted'),
  schedule: {
    type: ['array', 'null'],
    maxItems: SCHEDULE_MAX,
    items: {
      type: 'object',
      required: ['due_date'],
      additionalProperties: false,
      properties: {
        due_date: { type: 'string', format: 'date-ymd', description: 'Y-m-d, not before the issue date nor the instalment before' },
        amount: { type: ['number', 'string'], description: "A fixed amount in the invoice's currency" },
        percent: { type: ['number', 'string'], description: 'A percent of the total (above 0, at most 100, 4 decimals)' },
      },
    },
    description:
      'Instalments in date order, each an amount or a percent, summing exactly to the total (percents split by largest remainder); the last date becomes the due date. Empty or null: one due date',
  },
};

export const QUOTE_ARGS: Record<string, ArgSchema> = {
  ...DOCUMENT_ARGS,
  expiry_date: dateArg('Y-m-d; after it the quote shows as expired'),
};

/** The body a document is created or saved from (REST body, AJAX `invoice`/`quote` JSON, in-process). */
export interface DocumentInput {
  items: Array<{
    name: string;
    description?: string;
    quantity: number | string;
    price: number | string;
    unit?: string;
    taxable?: boolean;
    tax_rate?: number | string | null;
  }>;
  client_id?: number;
  customer_name?: string;
  customer_email?: string;
  customer_country?: string;
  customer_vat_number?: string;
  status?: 'draft' | 'available';
  number?: string;
  issue_date?: string;
  due_date?: string;
  expiry_date?: string;
  period_start?: string;
  period_end?: string;
  schedule?: InstalmentInput[] | null;
  title?: string;
  notes?: string;
  terms?: string;
  currency?: string;
  /** A BCP 47 tag; null prints in the option site_locale. */
  locale?: string | null;
  discount?: { type: 'percent' | 'fixed'; value: number | string } | null;
}
