import type { ArgSchema } from '../http/rest/route.ts';
import { SERVICE_PERIOD_PROPERTIES } from '../documents/document-representation-schema.ts';
import { SITE_DATE_TIME_PATTERN } from '../time/payment-date.ts';
import { METHOD_NAME, OFFLINE_METHODS, PAYMENT_STATUSES } from './payment.ts';

/** A method's name; which methods exist (offline ones and the active gateways') the payment core checks. */
const METHOD: ArgSchema = {
  type: 'string',
  pattern: METHOD_NAME.source,
  description: `${OFFLINE_METHODS.join(', ')}, or an active gateway's method (gateway_a, …)`,
};

/**
 * The request fields of the money routes, as ajv schemas: REST validates with them, OPTIONS shows
 * them, the AJAX actions check their forms with the same objects (core/validation/args.ts), so both
 * surfaces give the same codes. What JSON Schema cannot say (an amount's decimals in the invoice's
 * currency, a real date, amounts against what is due) the services check with the same 400 shape.
 */
const AMOUNT: ArgSchema = {
  type: ['number', 'string'],
  required: true,
  description: "Greater than 0, with at most the decimals of the invoice's currency",
};
const REASON: ArgSchema = { type: 'string', required: true, minLength: 1, maxLength: 2000, pattern: '\\S', description: 'Why (required)' };
const DATE: ArgSchema = {
  type: 'string',
  pattern: SITE_DATE_TIME_PATTERN,
  description: 'Y-m-d H:i:s (or Y-m-d) in the site timezone; default now',
};

/** `transaction_id` looks like an object's id but is the gateway's reference, as text: no scope governs it. */
export const TRANSACTION_REFERENCE = { transaction_id: "the gateway's or bank's transaction reference (text), no object of this service" };

export const RECORD_PAYMENT_ARGS: Record<string, ArgSchema> = {
  amount: AMOUNT,
  method: { ...METHOD, required: true },
  status: {
    type: 'string',
    enum: ['pending', 'completed'],
    required: true,
    description: 'pending: awaiting the money; completed: the money has arrived',
  },
  date: DATE,
  transaction_id: {
    type: 'string',
    maxLength: 100,
    description: "The bank's or gateway's id; recording it twice on one invoice records once",
  },
  notes: { type: 'string', maxLength: 5000 },
};

export const COMPLETE_PAYMENT_ARGS: Record<string, ArgSchema> = {
  date: { ...DATE, description: 'When the money arrived: Y-m-d H:i:s (or Y-m-d) in the site timezone; default now' },
  transaction_id: { type: 'string', maxLength: 100 },
};

export const REFUND_ARGS: Record<string, ArgSchema> = {
  amount: { ...AMOUNT, description: 'At most what is left of the payment (amount − refunded)' },
  reason: REASON,
};

export const CREDIT_NOTE_ARGS: Record<string, ArgSchema> = {
  amount: { ...AMOUNT, description: "At most the invoice's total less what is already credited" },
  reason: REASON,
  period_start: {
    type: 'string',
    format: 'date-ymd',
    description: "Y-m-d: the first day of the service credited; the invoice's when omitted",
  },
  period_end: { type: 'string', format: 'date-ymd', description: "Y-m-d, not before period_start; the invoice's when omitted" },
};

export const CANCEL_ARGS: Record<string, ArgSchema> = {
  reason: { type: 'string', maxLength: 2000, description: 'Kept in the audit log' },
};

export const PAYMENT_LIST_FILTERS: Record<string, ArgSchema> = {
  status: { type: 'array', items: { type: 'string', enum: [...PAYMENT_STATUSES] }, description: 'Comma-separated statuses.' },
  method: { type: 'array', items: { type: 'string', pattern: METHOD_NAME.source }, description: 'Comma-separated methods.' },
  after: {
    type: 'string',
    pattern: SITE_DATE_TIME_PATTERN,
    description: 'Paid after this day (Y-m-d) or instant (Y-m-d H:i:s), site timezone.',
  },
  before: {
    type: 'string',
    pattern: SITE_DATE_TIME_PATTERN,
    description: 'Paid before this day (Y-m-d) or instant (Y-m-d H:i:s), site timezone.',
  },
};

/**
 * The payment and credit note representations (payment-representation.ts) as JSON schemas: the one
 * source for OPTIONS, the OpenAPI document and the tests that validate real responses against them.
 */
export const PAYMENT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'payment',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    invoice_id: { type: 'integer' },
    invoice_number: { type: 'string', readonly: true, description: 'The number of the invoice paid.' },
    reference: { type: 'string', maxLength: 20, readonly: true },
    amount: { type: 'number' },
    currency: { type: 'string' },
    method: { type: 'string' },
    status: { type: 'string', enum: [...PAYMENT_STATUSES] },
    transaction_id: { type: ['string', 'null'] },
    date: { type: 'string', description: 'Y-m-d H:i:s, site timezone' },
    refunded: { type: 'number' },
    notes: { type: 'string' },
    review: { type: ['string', 'null'], readonly: true },
  },
  required: [
    'id',
    'invoice_id',
    'invoice_number',
    'reference',
    'amount',
    'currency',
    'method',
    'status',
    'transaction_id',
    'date',
    'refunded',
    'notes',
    'review',
  ],
};

export const CREDIT_NOTE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'credit-note',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    number: { type: 'string', readonly: true },
    invoice_id: { type: 'integer' },
    amount: { type: 'number' },
    currency: { type: 'string' },
    reason: { type: 'string' },
    date: { type: 'string', description: 'Y-m-d H:i:s, site timezone' },
    ...SERVICE_PERIOD_PROPERTIES,
    links: { type: 'object', properties: { pdf: { type: 'string', format: 'uri' } }, required: ['pdf'] },
  },
  required: ['id', 'number', 'invoice_id', 'amount', 'currency', 'reason', 'date', 'period_start', 'period_end', 'links'],
};
