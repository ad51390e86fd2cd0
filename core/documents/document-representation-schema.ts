/**
 * The REST representations of invoices and quotes (representation.ts builds them), as JSON schemas:
 * the one source for OPTIONS, the OpenAPI document (core/openapi) and the tests that validate real
 * responses against them (test/helpers/response-check.ts). Every field representation.ts writes is
 * listed and required; objects stay open, because `billing_rest_invoice` / `billing_rest_quote` may add
 * fields (a plugin's), which the document cannot know.
 */

const DATE = { type: 'string', format: 'date', description: 'Y-m-d' };
const DATE_OR_NULL = { type: ['string', 'null'], format: 'date', description: 'Y-m-d, or null' };
const SITE_TIME = { type: 'string', description: 'Y-m-d H:i:s in the site timezone' };
const SITE_TIME_OR_NULL = { type: ['string', 'null'], description: 'Y-m-d H:i:s in the site timezone, or null' };
const MONEY = { type: 'number', description: "Rounded to the currency's minor unit" };

/** The service period billed (invoices and credit notes): either end may be null (open), both null is none. */
export const SERVICE_PERIOD_PROPERTIES = {
  period_start: { ...DATE_OR_NULL, description: 'Y-m-d: the first day of the service billed, or null' },
  period_end: { ...DATE_OR_NULL, description: 'Y-m-d: the last day of the service billed, or null' },
};

const object = (properties: Record<string, object>, extra: object = {}) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  ...extra,
});

const DECISION = {
  type: ['object', 'null'],
  description: 'Who accepted (or declined) the quote and when, or null',
  properties: { at: { type: 'string' }, by: { type: 'string' }, reason: { type: 'string' } },
  required: ['at', 'by'],
};

/** The fields invoices and quotes share (representation.ts, `common`). */
const commonProperties = (statuses: readonly string[]) => ({
  id: { type: 'integer', readonly: true },
  number: { type: 'string', description: 'From the sequence (shape `<PREFIX>-<digits>`)' },
  title: { type: 'string' },
  status: { type: 'string', enum: [...statuses] },
  viewed: object({ count: { type: 'integer', minimum: 0 }, first: SITE_TIME_OR_NULL, last: SITE_TIME_OR_NULL }),
  issue_date: DATE,
  customer: object({
    name: { type: 'string' },
    email: { type: 'string' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2, or empty' },
    vat: { type: 'string' },
  }),
  client_id: { type: ['integer', 'null'], description: 'The client (user id), or null' },
  currency: { type: 'string', description: 'ISO 4217' },
  totals: object(Object.fromEntries(['subtotal', 'discount', 'tax', 'total', 'paid', 'credited', 'due'].map((k) => [k, MONEY]))),
  items: {
    type: 'array',
    items: object({
      name: { type: 'string' },
      description: { type: 'string' },
      quantity: { type: 'number' },
      price: { type: 'number' },
      amount: MONEY,
      unit: { type: ['string', 'null'], description: 'UN/ECE Recommendation 20 unit code, or null (one, C62)' },
      taxable: { type: 'boolean' },
      tax_rate: { type: ['number', 'null'], description: "The item's own rate (percent), or null for the document's" },
    }),
  },
  discount: {
    type: ['object', 'null'],
    properties: { type: { type: 'string', enum: ['percent', 'fixed'] }, value: { type: 'number' } },
    required: ['type', 'value'],
  },
  tax_treatment: object({ category: { type: 'string' }, statement: { type: 'string' } }),
  tax_breakdown: {
    type: 'array',
    description: 'Tax per EN 16931 category (S, Z, E, AE, G) and rate',
    items: object({
      category: { type: 'string' },
      rate: { type: 'number' },
      taxable_amount: MONEY,
      tax: MONEY,
      exemption_reason: { type: 'string' },
    }),
  },
  notes: { type: 'string' },
  terms: { type: 'string' },
  locale: { type: ['string', 'null'], description: 'The BCP 47 tag it prints in; null prints in the option site_locale' },
  date_created: SITE_TIME,
  date_modified: SITE_TIME,
  links: object({ pdf: { type: 'string', format: 'uri' } }),
});

export const INVOICE_STATUSES = ['draft', 'available', 'partial', 'paid', 'unpaid', 'cancelled'];
/** `expired` is shown, never stored: an open quote past its expiry date. */
export const QUOTE_STATUSES = ['draft', 'available', 'accepted', 'declined', 'expired', 'cancelled'];

export const INVOICE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'invoice',
  ...object({
    ...commonProperties(INVOICE_STATUSES),
    due_date: DATE_OR_NULL,
    overdue: { type: 'boolean', readonly: true, description: 'Derived: past its due date with an amount due' },
    ...SERVICE_PERIOD_PROPERTIES,
    schedule: {
      type: ['array', 'null'],
      readonly: true,
      description: 'Instalments in date order (null: one due date); payments and credits fill them oldest first',
      items: object({
        due_date: { type: 'string', description: 'Y-m-d' },
        amount: MONEY,
        paid: MONEY,
        due: MONEY,
        status: { type: 'string', enum: ['open', 'partial', 'paid', 'overdue'] },
      }),
    },
    recurring_id: { type: ['integer', 'null'], readonly: true, description: 'The recurring profile that generated it, or null' },
  }),
};

export const QUOTE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'quote',
  ...object({
    ...commonProperties(QUOTE_STATUSES),
    expiry_date: DATE_OR_NULL,
    accepted: DECISION,
    declined: DECISION,
    invoice_id: { type: ['integer', 'null'], description: 'The invoice made from the quote, or null' },
  }),
};

/** `DELETE /invoices/{id}` and `/quotes/{id}`: documents are trashed, never erased. */
export const trashedSchema = (representation: object) => ({
  ...object({ trashed: { type: 'boolean', const: true }, previous: representation }),
});
