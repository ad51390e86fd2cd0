// The bank-statement routes' answers as JSON schemas: the one source of the OpenAPI document and the
// response checks.

export const STATEMENT_SCHEMA = {
  title: 'bank-statement',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    format: { type: 'string', enum: ['camt.053', 'mt940'] },
    account: { type: 'string', description: 'The account’s IBAN (or the bank’s account id)' },
    entries: { type: 'integer', description: 'Credit entries in the file' },
    matched: { type: 'integer', description: 'Credit entries recorded as payments by this import (or assigned since)' },
    unmatched: { type: 'integer', description: 'Credit entries unmatched or ambiguous, waiting for a person' },
  },
  required: ['id', 'format', 'account', 'entries', 'matched', 'unmatched'],
};

export const ENTRY_SCHEMA = {
  title: 'bank-statement-entry',
  type: 'object',
  properties: {
    n: { type: 'integer' },
    date: { type: 'string', format: 'date', description: 'Booking date, Y-m-d' },
    amount: { type: 'number' },
    currency: { type: 'string' },
    counterparty: { type: 'string' },
    remittance: { type: 'string' },
    bank_reference: { type: 'string' },
    status: { type: 'string', enum: ['matched', 'unmatched', 'ambiguous', 'duplicate', 'debit'] },
    invoice_id: { type: ['integer', 'null'] },
    payment_id: { type: ['integer', 'null'] },
    note: { type: 'string', description: 'Why the entry has its status' },
  },
  required: [
    'n',
    'date',
    'amount',
    'currency',
    'counterparty',
    'remittance',
    'bank_reference',
    'status',
    'invoice_id',
    'payment_id',
    'note',
  ],
};

/** An entry as the list of every statement's entries gives it: with its statement. */
export const ENTRY_ROW_SCHEMA = {
  ...ENTRY_SCHEMA,
  title: 'bank-statement-entry-row',
  properties: {
    id: { type: 'string', description: 'The statement’s id and the entry’s position: `12-3`' },
    statement_id: { type: 'integer' },
    ...ENTRY_SCHEMA.properties,
  },
  required: ['id', 'statement_id', ...ENTRY_SCHEMA.required],
};

/** What the invoice representation gains while the plugin is active. */
export const PAYMENT_REFERENCE_SCHEMA = {
  type: ['string', 'null'],
  description:
    'The reference a payer quotes with a bank transfer: ISO 11649 RF…, or a Swiss QR reference (27 digits) for a franc invoice to a QR-IBAN',
};
