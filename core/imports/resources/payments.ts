import type { Database } from '../../db/database.ts';
import { BillingError } from '../../errors.ts';
import type { PaymentService } from '../../payments/payment-service.ts';
import type { PaymentMethod } from '../../payments/types.ts';
import { ImportRowError, type ImportResource, type ImportWriteResult } from '../types.ts';

export interface PaymentRecord {
  row: number;
  invoiceNumber: string;
  amount: string;
  date: string | null;
  method: PaymentMethod;
  transactionId: string;
  notes: string;
}

const METHOD_WORDS: Record<string, PaymentMethod> = {
  banktransfer: 'bank_transfer',
  bank: 'bank_transfer',
  wire: 'bank_transfer',
  transfer: 'bank_transfer',
  ach: 'bank_transfer',
  cheque: 'cheque',
  check: 'cheque',
  cash: 'cash',
};

/**
 * Payments against invoices already here (by number), recorded through the payment core as completed
 * offline payments. Matched on a re-import by transaction id; a row without one is given
 * `import:<row>:<invoice number>`, the same for the same file, so importing it again records nothing.
 */
export function paymentsResource(deps: { db: Database; payments: PaymentService }): ImportResource<PaymentRecord> {
  return {
    name: 'payments',
    label: 'Payments',
    fields: [
      { name: 'invoice_number', label: 'Invoice number', synonyms: ['Invoice Number', 'Invoice #', 'Invoice No', 'Invoice'] },
      { name: 'amount', label: 'Amount', synonyms: ['Amount Paid', 'Payment Amount', 'Paid'] },
      { name: 'date', label: 'Date', synonyms: ['Payment Date', 'Date Paid', 'Paid Date'] },
      { name: 'method', label: 'Method', synonyms: ['Payment Method', 'Type', 'Payment Type', 'Mode'] },
      { name: 'transaction_id', label: 'Transaction id', synonyms: ['Transaction ID', 'Transaction Reference', 'Reference', 'Payment ID'] },
      { name: 'notes', label: 'Notes', synonyms: ['Memo', 'Description', 'Private Notes'] },
    ],
    presets: {
      'invoice-ninja': { columns: { 'Invoice Number': 'invoice_number', Amount: 'amount', Date: 'date' } },
    },
    batchSize: 50,
    prepare(rows, env) {
      const { row, values: v } = rows[0]!;
      const invoiceNumber = (v.invoice_number ?? '').trim();
      if (!invoiceNumber) throw new ImportRowError('invoice_number: a payment needs the number of its invoice.', 'invoice_number');
      const amount = env.read.amount(v.amount ?? '', 'amount');
      if (!/^[1-9]|^0\.\d*[1-9]/.test(amount)) throw new ImportRowError(`amount: ${v.amount} is not a positive amount.`, 'amount');
      const method = METHOD_WORDS[(v.method ?? '').toLowerCase().replace(/[\s_-]/g, '')] ?? 'manual';
      return {
        row,
        invoiceNumber,
        amount,
        date: v.date ? env.read.date(v.date, 'date') : null,
        method,
        transactionId: (v.transaction_id ?? '').trim().slice(0, 100) || `import:${row}:${invoiceNumber}`.slice(0, 100),
        notes: (v.notes ?? '').trim().slice(0, 2000),
      };
    },
    async write(records, env) {
      const out: ImportWriteResult[] = [];
      for (const r of records) {
        try {
          const found = await deps.db.query<{ id: string }>(
            `select id from billing_documents where kind = 'invoice' and number = $1 and trashed_at is null`,
            [r.invoiceNumber],
          );
          if (!found[0]) {
            out.push({ failed: `No invoice has the number ${r.invoiceNumber}.` });
            continue;
          }
          const { created } = await deps.payments.record(
            Number(found[0].id),
            {
              amount: r.amount,
              method: r.method,
              status: 'completed',
              transaction_id: r.transactionId,
              notes: r.notes,
              ...(r.date ? { date: r.date } : {}),
            },
            env.actor,
          );
          out.push(created ? 'created' : 'skipped');
        } catch (err) {
          out.push({ failed: err instanceof BillingError ? err.message : 'The payment could not be recorded.' });
        }
      }
      return out;
    },
  };
}
