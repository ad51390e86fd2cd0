import { createHash } from 'node:crypto';
import { BillingError, OPEN_INVOICE_STATUSES, sqlLiterals, type Actor, type ListScope, type PluginContext } from '../../core/plugin-api.ts';
// Importing a parsed statement: every entry stored, each credit entry owned by the first import that
// saw it (a unique key in bank_transfer_entry_keys, so the same entry from another file or another
// instance at the same moment is a `duplicate`), matched, and recorded through the payment core under
// the same key (so even a crash between the two, then a person assigning the entry, records it once).
import { InvoiceIndex, matchEntry, referencesIn, type Candidate } from './matching.ts';
import type { ParsedStatement, StatementEntry } from './statement.ts';

export type EntryStatus = 'matched' | 'unmatched' | 'ambiguous' | 'duplicate' | 'debit';

export interface StatementSummary {
  id: number;
  format: string;
  account: string;
  /** Credit entries in the file. */
  entries: number;
  matched: number;
  unmatched: number;
  imported_at?: string;
}

export interface EntryView {
  n: number;
  date: string;
  amount: number;
  currency: string;
  counterparty: string;
  remittance: string;
  bank_reference: string;
  status: EntryStatus;
  invoice_id: number | null;
  payment_id: number | null;
  note: string;
}

/**
 * What makes an entry the same entry in another file: the account and the bank's reference; without a
 * reference, its booking, amount, parties and text, and how many identical ones came before it in the file.
 */
export function entryKeys(account: string, entries: readonly StatementEntry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    if (e.bankReference) return `${account}|${e.direction}|ref:${e.bankReference}`;
    const base = [account, e.direction, e.date, e.amount, e.currency, e.counterparty, e.remittance].join('|');
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    return `${account}|${e.direction}|h:${createHash('sha256').update(base).digest('hex').slice(0, 40)}#${occurrence}`;
  });
}

/** The payment core's key of an entry's payment (whoever records it: the import or a person). */
export const paymentKey = (entryKey: string) => `bank_transfer:${createHash('sha256').update(entryKey).digest('hex')}`;

const OPEN = sqlLiterals(OPEN_INVOICE_STATUSES);
/** Entries recorded at once by one import (each a payment-core transaction on its own connection). */
const RECORDING_CONCURRENCY = 4;

/** Every open invoice, indexed for matching (one query, whatever the number of entries). */
async function openInvoices(ctx: PluginContext): Promise<InvoiceIndex> {
  const rows = await ctx.db.query<{ id: string; number: string; currency: string }>(
    `select id, number, currency from billing_documents where kind = 'invoice' and trashed_at is null and status in (${OPEN})`,
  );
  return new InvoiceIndex(rows.map((r) => ({ id: Number(r.id), number: r.number, currency: r.currency })));
}

/** The invoices (open or not) that the references in `remittances` name, beyond `open`. */
async function referencedInvoices(ctx: PluginContext, open: InvoiceIndex, remittances: string[]): Promise<InvoiceIndex> {
  const bodies = new Set<string>();
  const ids = new Set<number>();
  for (const r of remittances) {
    const refs = referencesIn(r);
    for (const b of refs.rfBodies) if (!open.byBody.has(b)) bodies.add(b);
    for (const id of refs.qrIds) if (!open.byId.has(id)) ids.add(id);
  }
  const index = new InvoiceIndex([]);
  for (const list of open.byBody.values()) for (const c of list) index.add(c);
  if (!bodies.size && !ids.size) return index;
  const rows = await ctx.db.query<{ id: string; number: string; currency: string }>(
    `select id, number, currency from billing_documents
      where kind = 'invoice' and trashed_at is null and status <> 'draft'
        and (id = any($1::bigint[]) or right(regexp_replace(upper(number), '[^A-Z0-9]', '', 'g'), 21) = any($2::text[]))`,
    [[...ids], [...bodies]],
  );
  for (const r of rows) index.add({ id: Number(r.id), number: r.number, currency: r.currency } satisfies Candidate);
  return index;
}

export async function importStatement(ctx: PluginContext, parsed: ParsedStatement, actor: Actor): Promise<StatementSummary> {
  const keys = entryKeys(parsed.account, parsed.entries);
  const credits = parsed.entries.filter((e) => e.direction === 'credit').length;
  // 1. the statement and its entries; each credit entry claims its key (a concurrent import of the same
  //    entry waits on the unique key, then finds it taken)
  const { id, owned } = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into bank_transfer_statements (format, account, statement_ref, imported_by, entries)
       values ($1, $2, $3, $4, $5) returning id`,
      [parsed.format, parsed.account, parsed.statementId.slice(0, 200), actor.id, credits],
    );
    const id = Number(row!.id);
    const claims = parsed.entries.flatMap((e, i) => (e.direction === 'credit' ? [{ k: keys[i]!, n: e.n }] : []));
    const claimed = await tx.query<{ n: number }>(
      `insert into bank_transfer_entry_keys (entry_key, statement_id, n)
       select x.k, $1, x.n from jsonb_to_recordset($2::jsonb) as x(k text, n int)
       on conflict (entry_key) do nothing returning n`,
      [id, JSON.stringify(claims)],
    );
    const owned = new Set(claimed.map((r) => Number(r.n)));
    const rows = parsed.entries.map((e, i) => ({
      ...e,
      k: keys[i],
      s: e.direction === 'debit' ? 'debit' : owned.has(e.n) ? 'unmatched' : 'duplicate',
    }));
    await tx.query(
      `insert into bank_transfer_entries (statement_id, n, date, amount, currency, direction, counterparty, remittance,
                                          bank_reference, entry_key, status)
       select $1, x.n, x.date::date, x.amount::numeric, x.currency, x.direction, x.counterparty, x.remittance,
              x."bankReference", x.k, x.s
         from jsonb_to_recordset($2::jsonb) as x(n int, date text, amount text, currency text, direction text,
              counterparty text, remittance text, "bankReference" text, k text, s text)`,
      [id, JSON.stringify(rows)],
    );
    return { id, owned };
  });
  // 2. match and record the entries this import owns
  const mine = parsed.entries.filter((e) => owned.has(e.n));
  const open = await openInvoices(ctx);
  const referenced = await referencedInvoices(
    ctx,
    open,
    mine.map((e) => e.remittance),
  );
  // a few entries at a time: each payment locks only its own invoice, so they proceed side by side
  let next = 0;
  const worker = async () => {
    while (next < mine.length) {
      const e = mine[next++]!;
      const m = matchEntry(e, open, referenced);
      const why = m.status === 'matched' ? (m.by === 'reference' ? 'matched by payment reference' : 'matched by invoice number') : m.note;
      if (m.status === 'matched') await settle(ctx, id, e, keys[e.n - 1]!, m.invoiceId, actor, why);
      else await setEntry(ctx, id, e.n, m.status, null, null, why);
    }
  };
  await Promise.all(Array.from({ length: RECORDING_CONCURRENCY }, worker));
  return summary(ctx, id);
}

/** Records `entry` as a payment of `invoiceId` and marks it; a refusal leaves it unmatched with the reason. */
async function settle(
  ctx: PluginContext,
  statementId: number,
  e: Pick<StatementEntry, 'n' | 'date' | 'amount' | 'currency' | 'bankReference' | 'counterparty'>,
  entryKey: string,
  invoiceId: number,
  actor: Actor,
  note: string,
): Promise<EntryStatus> {
  try {
    const record = ctx.api.payments.recordBankTransfer;
    if (!record) throw new Error('bank-transfer must declare recordsBankTransfers to record payments');
    const out = await record(
      {
        invoiceId,
        amount: e.amount,
        currency: e.currency,
        // the booking day, at noon UTC so that it is that day in every site timezone near Europe
        date: new Date(`${e.date}T12:00:00Z`),
        transactionId: e.bankReference || null,
        key: paymentKey(entryKey),
        notes: `Bank statement ${statementId}, entry ${e.n}${e.counterparty ? ` (${e.counterparty})` : ''}`,
      },
      actor,
    );
    if (out.result === 'ignored' || !out.payment) {
      await setEntry(ctx, statementId, e.n, 'unmatched', null, null, out.note ?? 'the invoice takes no payment');
      return 'unmatched';
    }
    const status: EntryStatus = out.result === 'duplicate' ? 'duplicate' : 'matched';
    const why = out.result === 'review' ? `${note}; held for review: ${out.note}` : out.result === 'duplicate' ? 'recorded before' : note;
    await setEntry(ctx, statementId, e.n, status, invoiceId, out.payment.id, why);
    return status;
  } catch (err) {
    if (!(err instanceof BillingError) || err.status >= 500) throw err;
    await setEntry(ctx, statementId, e.n, 'unmatched', null, null, err.message);
    return 'unmatched';
  }
}

async function setEntry(
  ctx: PluginContext,
  statementId: number,
  n: number,
  status: EntryStatus,
  invoiceId: number | null,
  paymentId: number | null,
  note: string,
): Promise<void> {
  await ctx.db.query(
    `update bank_transfer_entries set status = $3, invoice_id = $4, payment_id = $5, note = $6 where statement_id = $1 and n = $2`,
    [statementId, n, status, invoiceId, paymentId, note.slice(0, 500)],
  );
}

const SUMMARY = `select s.id, s.format, s.account, s.entries, s.imported_at,
    (select count(*)::int from bank_transfer_entries e where e.statement_id = s.id and e.status = 'matched') as matched,
    (select count(*)::int from bank_transfer_entries e where e.statement_id = s.id and e.status in ('unmatched', 'ambiguous')) as unmatched
  from bank_transfer_statements s`;

function summaryFrom(r: Record<string, any>): StatementSummary {
  return {
    id: Number(r.id),
    format: r.format,
    account: r.account,
    entries: Number(r.entries),
    matched: Number(r.matched),
    unmatched: Number(r.unmatched),
  };
}

export async function summary(ctx: PluginContext, id: number): Promise<StatementSummary> {
  const [r] = await ctx.db.query(`${SUMMARY} where s.id = $1`, [id]);
  if (!r) throw new BillingError('billing_rest_not_found', 'There is no bank statement with that id.');
  return summaryFrom(r);
}

/** A page of statements, newest first, narrowed to `scope` (a user who sees only their own sees the ones they imported). */
export async function listStatements(
  ctx: PluginContext,
  limit: number,
  offset: number,
  scope: ListScope,
): Promise<{ items: StatementSummary[]; total: number }> {
  const owner = scope.created_by ?? null;
  const where = 'where ($1::bigint is null or s.imported_by = $1)';
  const rows = await ctx.db.query(`${SUMMARY} ${where} order by s.id desc limit $2 offset $3`, [owner, limit, offset]);
  const [{ n }] = await ctx.db.query<{ n: number }>(`select count(*)::int as n from bank_transfer_statements s ${where}`, [owner]);
  return { items: rows.map(summaryFrom), total: Number(n) };
}

const ENTRY_COLUMNS = `e.statement_id, e.n, to_char(e.date, 'YYYY-MM-DD') as date, e.amount::text, e.currency, e.counterparty,
  e.remittance, e.bank_reference, e.status, e.invoice_id, e.payment_id, e.note`;

export async function listEntries(ctx: PluginContext, statementId: number): Promise<EntryView[]> {
  await summary(ctx, statementId);
  const rows = await ctx.db.query<Record<string, any>>(
    `select ${ENTRY_COLUMNS} from bank_transfer_entries e where e.statement_id = $1 order by e.n`,
    [statementId],
  );
  return rows.map(entryFrom);
}

/** Entries of every statement in `scope`, newest statement first, optionally of one status. */
export async function listAllEntries(
  ctx: PluginContext,
  limit: number,
  offset: number,
  scope: ListScope,
  status?: EntryStatus,
): Promise<{ items: Array<EntryView & { id: string; statement_id: number }>; total: number }> {
  const where = `from bank_transfer_entries e join bank_transfer_statements s on s.id = e.statement_id
    where ($1::bigint is null or s.imported_by = $1) and ($2::text is null or e.status = $2)`;
  const params = [scope.created_by ?? null, status ?? null];
  const rows = await ctx.db.query<Record<string, any>>(
    `select ${ENTRY_COLUMNS} ${where} order by e.statement_id desc, e.n limit $3 offset $4`,
    [...params, limit, offset],
  );
  const [{ n }] = await ctx.db.query<{ n: number }>(`select count(*)::int as n ${where}`, params);
  return {
    items: rows.map((r) => ({ id: `${r.statement_id}-${r.n}`, statement_id: Number(r.statement_id), ...entryFrom(r) })),
    total: Number(n),
  };
}

function entryFrom(r: Record<string, any>): EntryView {
  return {
    n: Number(r.n),
    date: r.date,
    amount: Number(r.amount),
    currency: r.currency,
    counterparty: r.counterparty,
    remittance: r.remittance,
    bank_reference: r.bank_reference,
    status: r.status,
    invoice_id: r.invoice_id === null ? null : Number(r.invoice_id),
    payment_id: r.payment_id === null ? null : Number(r.payment_id),
    note: r.note,
  };
}

/** A person settles an unmatched or ambiguous credit entry with `invoiceId` (same key: never twice). */
export async function assignEntry(ctx: PluginContext, statementId: number, n: number, invoiceId: number, actor: Actor): Promise<EntryView> {
  const [row] = await ctx.db.query<Record<string, any>>(
    `select n, to_char(date, 'YYYY-MM-DD') as date, amount::text, currency, counterparty, bank_reference, status, entry_key
       from bank_transfer_entries where statement_id = $1 and n = $2`,
    [statementId, n],
  );
  if (!row) throw new BillingError('billing_rest_not_found', 'There is no such entry in that bank statement.');
  if (row.status !== 'unmatched' && row.status !== 'ambiguous') {
    throw new BillingError(
      'billing_rest_invalid_state',
      `The entry is ${row.status}: only an unmatched or ambiguous entry is assigned by hand.`,
    );
  }
  const invoice = await ctx.api.invoices.find(invoiceId);
  if (!invoice || invoice.trashed) throw new BillingError('billing_rest_not_found', 'There is no invoice with that id.');
  if (invoice.currency !== row.currency) {
    throw new BillingError('rest_invalid_param', `The invoice is in ${invoice.currency}, the transfer in ${row.currency}.`, {
      params: { invoice_id: 'currency differs' },
    });
  }
  const status = await settle(
    ctx,
    statementId,
    { n, date: row.date, amount: row.amount, currency: row.currency, bankReference: row.bank_reference, counterparty: row.counterparty },
    row.entry_key,
    invoiceId,
    actor,
    `assigned by ${actor.name}`,
  );
  if (status === 'unmatched') {
    const [again] = await ctx.db.query<{ note: string }>(`select note from bank_transfer_entries where statement_id = $1 and n = $2`, [
      statementId,
      n,
    ]);
    throw new BillingError('billing_rest_invalid_state', again?.note || 'The invoice takes no payment.');
  }
  return (await listEntries(ctx, statementId)).find((e) => e.n === n)!;
}
