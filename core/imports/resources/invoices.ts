import type { Actor } from '../../audit/audit.ts';
import type { Database, Tx } from '../../db/database.ts';
import type { DocumentInput } from '../../documents/document-schema.ts';
import { DOCUMENT_ARGS } from '../../documents/document-schema.ts';
import type { BillingDocument } from '../../documents/types.ts';
import type { InvoiceService } from '../../documents/invoice-service.ts';
import { movePastImported } from '../../documents/numbering.ts';
import type { OptionsStore } from '../../options/options.ts';
import { BillingError } from '../../errors.ts';
import { Decimal, isCurrency, minorUnits, Money, type CurrencyCode } from '../../money/index.ts';
import type { PaymentService } from '../../payments/payment-service.ts';
import type { UserStore } from '../../identity/users.ts';
import { checkArgs } from '../../validation/args.ts';
import { countryCode } from '../country-names.ts';
import { ImportRowError, type ImportEnv, type ImportResource, type ImportRow, type ImportWriteResult } from '../types.ts';
import { INVOICE_FIELDS, INVOICE_PRESETS } from './invoice-presets.ts';
import { findClient, newClient } from './client-lookup.ts';

type FileStatus = 'draft' | 'available' | 'paid' | 'partial' | 'cancelled';

/** One invoice of the file: its lines' rows, checked, as the document service takes it. */
export interface InvoiceRecord {
  row: number;
  number: string;
  status: FileStatus;
  input: DocumentInput & { number: string; items: NonNullable<DocumentInput['items']> };
  /** The file's total, when it gives one: the created invoice must come to it. */
  total: string | null;
  /** What the file says was paid (status paid without an amount: the total). */
  paid: string | null;
  paidDate: string | null;
  customer: { name: string; email: string; country: string; vat: string };
}

export interface InvoiceImportDeps {
  db: Database;
  options: OptionsStore;
  invoices: InvoiceService;
  payments: PaymentService;
  users: UserStore;
}

/** The most lines one invoice takes (the document schema's limit). */
const MAX_LINES = 500;

/**
 * Invoices: a row per line, rows with the same number one after another make one invoice. Each invoice
 * is created through the invoice service (numbering, audit, hooks) in a transaction of its own, then
 * its payment recorded through the payment core, then cancelled if the file says so: the same paths a
 * person's actions take. Matched by number on a re-import.
 */
export function invoicesResource(deps: InvoiceImportDeps): ImportResource<InvoiceRecord> {
  return {
    name: 'invoices',
    label: 'Invoices',
    fields: INVOICE_FIELDS,
    presets: INVOICE_PRESETS,
    groupBy: 'number',
    maxGroup: MAX_LINES,
    batchSize: 20,
    prepare: (rows, env) => prepareInvoice(rows, env),
    async write(records, env) {
      const out: ImportWriteResult[] = [];
      for (const r of records) {
        try {
          out.push(await writeInvoice(deps, r, env.actor));
        } catch (err) {
          out.push({ failed: messageOf(err) });
        }
      }
      return out;
    },
  };
}

function messageOf(err: unknown): string {
  if (err instanceof ImportRowError) return err.message;
  if (err instanceof BillingError) {
    const params = (err.data as { params?: Record<string, string> } | undefined)?.params;
    return params && typeof params === 'object' && !Array.isArray(params)
      ? `${err.message} ${Object.values(params).join(' ')}`.trim()
      : err.message;
  }
  return 'The invoice could not be written.';
}

const STATUS_WORDS: Record<string, FileStatus> = {
  draft: 'draft',
  sent: 'available',
  viewed: 'available',
  available: 'available',
  unpaid: 'available',
  open: 'available',
  overdue: 'available',
  approved: 'available',
  disputed: 'available',
  issued: 'available',
  paid: 'paid',
  closed: 'paid',
  partial: 'partial',
  partiallypaid: 'partial',
  partlypaid: 'partial',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  void: 'cancelled',
  voided: 'cancelled',
};

function fileStatus(text: string, field: string): FileStatus | null {
  const t = text.toLowerCase().replace(/[\s_-]/g, '');
  if (t === '') return null;
  const s = STATUS_WORDS[t];
  if (!s)
    throw new ImportRowError(`${field}: "${text}" is not a status this import knows (draft, sent, paid, partial, cancelled…).`, field);
  return s;
}

function prepareInvoice(rows: readonly ImportRow[], env: ImportEnv): InvoiceRecord {
  const first = rows[0]!;
  const v = first.values;
  const r = env.read;
  const number = (v.number ?? '').trim();
  if (!number) throw new ImportRowError('number: every line needs its invoice number.', 'number');
  const currency = (v.currency ?? '').trim().toUpperCase();
  if (currency && !isCurrency(currency)) throw new ImportRowError(`currency: "${v.currency}" is not an ISO 4217 code.`, 'currency');
  const items = rows.map((line) => lineItem(line, env, currency || null));
  const issue = v.date ? r.date(v.date, 'date') : undefined;
  let due = v.due_date ? r.date(v.due_date, 'due_date') : undefined;
  // some products let a due date precede the issue date; ours may not: it falls due when issued
  if (issue && due && due < issue) due = issue;
  const discountValue = v.discount_value ? r.amount(v.discount_value, 'discount_value') : null;
  const discountType = (v.discount_type ?? '').toLowerCase().includes('%') || /percent/i.test(v.discount_type ?? '') ? 'percent' : 'fixed';
  const input = {
    number,
    items,
    ...(v.customer_name ? { customer_name: v.customer_name.trim() } : {}),
    ...(v.customer_email ? { customer_email: v.customer_email.trim() } : {}),
    ...(v.customer_country ? { customer_country: countryCode(v.customer_country, 'customer_country') } : {}),
    ...(v.customer_vat_number ? { customer_vat_number: v.customer_vat_number.trim() } : {}),
    ...(issue ? { issue_date: issue } : {}),
    ...(due ? { due_date: due } : {}),
    ...(v.title ? { title: v.title.trim() } : {}),
    ...(v.notes ? { notes: v.notes.trim() } : {}),
    ...(currency ? { currency } : {}),
    ...(discountValue && !Decimal.from(discountValue).isZero() ? { discount: { type: discountType, value: discountValue } as const } : {}),
  };
  try {
    checkArgs(DOCUMENT_ARGS, input);
  } catch (err) {
    throw new ImportRowError(messageOf(err));
  }
  const status = fileStatus(v.status ?? '', 'status') ?? 'available';
  const total = v.total ? r.amount(v.total, 'total') : null;
  let paid = v.paid ? r.amount(v.paid, 'paid') : null;
  if (paid === null && v.balance && total !== null) paid = Decimal.from(total).minus(r.amount(v.balance, 'balance')).toString();
  if (paid !== null && Decimal.from(paid).isZero()) paid = null;
  if (status === 'partial' && paid === null) throw new ImportRowError('paid: a partly paid invoice needs the amount paid.', 'paid');
  if (paid !== null && (status === 'draft' || status === 'cancelled')) {
    throw new ImportRowError(`paid: a ${status} invoice cannot carry a payment.`, 'paid');
  }
  return {
    row: first.row,
    number,
    status,
    input: input as InvoiceRecord['input'],
    total,
    paid,
    paidDate: v.paid_date ? r.date(v.paid_date, 'paid_date') : null,
    customer: {
      name: (v.customer_name ?? '').trim(),
      email: (v.customer_email ?? '').trim(),
      country: input.customer_country ?? '',
      vat: input.customer_vat_number ?? '',
    },
  };
}

function lineItem(line: ImportRow, env: ImportEnv, currency: string | null): DocumentInput['items'][number] {
  const v = line.values;
  const r = env.read;
  const name = (v.item_name ?? '').trim() || (v.item_description ?? '').trim();
  if (!name) throw new ImportRowError(`row ${line.row}: item_name: a line needs a name.`, 'item_name');
  const quantity = v.item_quantity ? r.amount(v.item_quantity, 'item_quantity') : '1';
  const price = r.amount(v.item_price ?? '', 'item_price');
  const rate = v.item_tax_rate ? r.amount(v.item_tax_rate, 'item_tax_rate') : null;
  // a file states its own amounts: a line is taxed only where the file says so, never by this site's rate
  const taxable = rate !== null ? !Decimal.from(rate).isZero() : r.bool(v.item_taxable ?? '', 'item_taxable', false);
  if (v.item_total && currency && isCurrency(currency)) {
    const expected = Money.fromDecimal(Decimal.from(quantity).times(price), currency as CurrencyCode);
    const given = Money.fromDecimal(r.amount(v.item_total, 'item_total'), currency as CurrencyCode);
    if (!expected.equals(given)) {
      throw new ImportRowError(
        `row ${line.row}: item_total: ${v.item_total} is not quantity × price (${expected.toString()}).`,
        'item_total',
      );
    }
  }
  return {
    name: name.slice(0, 500),
    description: name === (v.item_name ?? '').trim() ? (v.item_description ?? '').trim() : '',
    quantity,
    price,
    taxable,
    ...(rate !== null && taxable ? { tax_rate: rate } : {}),
  };
}

/** Whether the invoice the number already names says what the file says (lines, dates, customer, currency). */
function sameAsFile(doc: BillingDocument, r: InvoiceRecord): boolean {
  const i = r.input;
  if (doc.items.length !== i.items.length) return false;
  const linesSame = doc.items.every((d, k) => {
    const f = i.items[k]!;
    return (
      d.name === f.name &&
      d.description === (f.description ?? '') &&
      Decimal.from(d.quantity).equals(f.quantity) &&
      Decimal.from(d.price).equals(f.price)
    );
  });
  return (
    linesSame &&
    (i.issue_date === undefined || i.issue_date === doc.issueDate) &&
    (i.due_date === undefined || i.due_date === doc.dueDate) &&
    (i.currency === undefined || i.currency === doc.currency) &&
    (i.customer_name === undefined || i.customer_name === doc.customer.name) &&
    (i.title === undefined || i.title === doc.title) &&
    (i.notes === undefined || i.notes === doc.notes)
  );
}

async function existing(tx: Tx, number: string): Promise<number | null> {
  const rows = await tx.query<{ id: string }>(`select id from billing_documents where kind = 'invoice' and number = $1`, [number]);
  return rows[0] ? Number(rows[0].id) : null;
}

/** How far apart the file's total and ours may be: one minor unit of the currency (its rounding). */
function totalsAgree(doc: BillingDocument, fileTotal: string): boolean {
  const places = minorUnits(doc.currency as CurrencyCode);
  const unit = Decimal.of(1n, places);
  return Decimal.from(doc.totals.total).minus(fileTotal).abs().compare(unit) <= 0;
}

async function writeInvoice(deps: InvoiceImportDeps, r: InvoiceRecord, actor: Actor): Promise<ImportWriteResult> {
  const { db, invoices, payments } = deps;
  const outcome = await db.transaction(
    async (tx): Promise<{ result: 'created' | 'updated' | 'skipped'; id: number } | { failed: string }> => {
      const id = await existing(tx, r.number);
      if (id !== null) {
        const doc = (await invoices.find(id, tx))!;
        if (sameAsFile(doc, r)) return { result: 'skipped', id };
        if (doc.status !== 'draft') {
          return { failed: `Invoice ${r.number} exists, is issued, and differs from the file: it was left as it is.` };
        }
        return { result: 'updated', id };
      }
      let clientId: number | undefined;
      const c = r.customer;
      const found = await findClient(tx, c.email || null, c.name || null);
      if (found) clientId = found.id;
      else if (c.email && c.name) {
        const taken = await tx.query('select 1 from billing_users where lower(email) = lower($1)', [c.email]);
        if (!taken.length) clientId = await newClient(tx, deps.users, { ...c, company: '', address: '' }, actor);
      }
      const doc = await invoices.createIn(
        tx,
        { ...r.input, ...(clientId ? { client_id: clientId } : {}), status: r.status === 'draft' ? 'draft' : 'available' },
        { actor, source: 'api' },
      );
      if (r.total !== null && !totalsAgree(doc, r.total)) {
        throw new ImportRowError(`total: the file says ${r.total}, the lines come to ${doc.totals.total} ${doc.currency}.`, 'total');
      }
      if (r.paid !== null && Decimal.from(r.paid).compare(doc.totals.total) > 0) {
        throw new ImportRowError(`paid: ${r.paid} is more than the total ${doc.totals.total}.`, 'paid');
      }
      await movePastImported(tx, deps.options, 'invoice', r.number);
      return { result: 'created', id: doc.id };
    },
  );
  if ('failed' in outcome) return outcome;
  if (outcome.result === 'updated') {
    await invoices.update(outcome.id, { ...r.input, status: r.status === 'draft' ? 'draft' : 'available' }, actor);
  }
  // the money the file says was received, recorded as a manual payment (once: its transaction id is the number)
  const doc = await invoices.get(outcome.id);
  const paid = r.status === 'paid' && r.paid === null ? doc.totals.total : r.paid;
  if (
    paid !== null &&
    !Decimal.from(paid).isZero() &&
    Decimal.from(doc.totals.paid).isZero() &&
    doc.status !== 'draft' &&
    doc.status !== 'cancelled'
  ) {
    await payments.record(
      doc.id,
      {
        amount: paid,
        method: 'manual',
        status: 'completed',
        transaction_id: `import:${r.number}`.slice(0, 100),
        notes: 'Imported',
        ...((r.paidDate ?? doc.issueDate) ? { date: r.paidDate ?? doc.issueDate } : {}),
      },
      actor,
    );
  }
  if (r.status === 'cancelled' && doc.status !== 'cancelled') await payments.cancelInvoice(doc.id, actor, 'Imported as cancelled');
  return outcome.result;
}
