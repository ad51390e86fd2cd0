import { resourceScreen, uploadScreen } from '../../core/plugin-api.ts';
// The admin app's "Bank statements" screens, as data: one to import a file (posted to POST
// /bank-statements, the counts shown), one listing every entry with what became of it, where an
// unmatched or ambiguous entry is assigned to an invoice by hand.

export const importScreen = uploadScreen({
  slug: 'bank-statement-import.php',
  title: 'Import bank statement',
  capability: 'bill_record_payment',
  order: 31,
  description: 'Upload a CAMT.053 (XML) or MT940 export of your bank account: transfers naming an invoice are recorded as payments, once.',
  route: '/bank-statements',
  label: 'Statement file (CAMT.053 or MT940)',
  accept: '.xml,.sta,.mt940,.txt,.940,application/xml,text/xml,text/plain',
  types: {
    '.xml': 'application/xml',
    '.sta': 'application/octet-stream',
    '.mt940': 'application/octet-stream',
    '.txt': 'application/octet-stream',
    '.940': 'application/octet-stream',
  },
  submit: 'Import statement',
  heading: 'Statement {id} ({format})',
  sections: [
    {
      title: 'Imported',
      facts: [
        { key: 'account', label: 'Account' },
        { key: 'entries', label: 'Credit entries' },
        { key: 'matched', label: 'Matched' },
        { key: 'unmatched', label: 'Unmatched' },
      ],
    },
  ],
});

export const statementsScreen = resourceScreen({
  slug: 'bank-statements.php',
  title: 'Bank statements',
  capability: 'bill_record_payment',
  order: 30,
  description: 'Every entry of the imported statements, newest first. Assign an unmatched or ambiguous transfer to the invoice it pays.',
  list: {
    route: '/bank-statements/entries',
    rowLabel: 'Entry {id}',
    empty: 'No statement imported yet: use Import bank statement.',
    columns: [
      { key: 'statement_id', label: 'Statement' },
      { key: 'n', label: 'Entry' },
      { key: 'date', label: 'Booked' },
      { key: 'amount', label: 'Amount', format: 'money' },
      { key: 'currency', label: 'Currency' },
      { key: 'counterparty', label: 'From' },
      { key: 'remittance', label: 'Remittance' },
      { key: 'status', label: 'Status' },
      { key: 'invoice_id', label: 'Invoice' },
      { key: 'note', label: 'Note' },
    ],
  },
  actions: [
    {
      label: 'Assign',
      method: 'POST',
      route: '/bank-statements/{statement_id}/entries/{n}/assign',
      when: { status: ['unmatched', 'ambiguous'] },
      fields: {
        invoice_id: { type: 'integer', minimum: 1, required: true, title: 'Invoice id', description: 'The invoice this transfer pays.' },
      },
      submit: 'Record payment',
      done: 'Entry {n} is recorded as a payment of invoice {invoice_id}.',
    },
  ],
});
