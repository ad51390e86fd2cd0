import type { Database } from '../db/database.ts';
import type { OptionsStore } from '../options/options.ts';
import { DOCUMENT_COLUMNS, documentFromRow, type BillingDocument } from './document.ts';
import type { DocumentKind } from './numbering.ts';
import { siteDate } from '../time/site-time.ts';
import { containsPattern } from '../db/like.ts';
import { columns, qb, run, sql } from '../db/query-builder.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { AuthUser } from '../http/auth.ts';
import { listScope } from '../scope/list-scope.ts';
import { isOpenInvoiceStatus, OPEN_INVOICE_STATUSES } from './statuses.ts';

export interface ListQuery {
  page: number;
  per_page: number;
  search?: string;
  status?: string[];
  client_id?: number;
  /** Issue date strictly after / before (`Y-m-d`), as WordPress's `after` and `before`. */
  after?: string;
  before?: string;
  overdue?: boolean;
  /** Only the invoices a recurring profile generated. */
  recurring_id?: number;
  /** Only the document of this number (exactly: what a person knows a document by). */
  number?: string;
  orderby?: 'date' | 'id' | 'number' | 'due_date' | 'total';
  order?: 'asc' | 'desc';
  /** The user the list is for: it is narrowed to their scope (`billing_list_scope`). None: in-process, unscoped. */
  viewer?: AuthUser;
}

export interface ListResult {
  items: BillingDocument[];
  total: number;
}

const ORDER_COLUMNS = { date: 'issue_date', id: 'id', number: 'number', due_date: 'due_date', total: 'total' } as const;

/**
 * One page of a kind's documents and the total count, with the filters of docs/api.md. The search is
 * a case-insensitive substring match over number, title, customer name and e-mail, served by a trigram
 * index on exactly that expression; list and count share one WHERE clause.
 */
export async function listDocuments(
  db: Database,
  options: OptionsStore,
  kind: DocumentKind,
  q: ListQuery,
  hooks?: HookRegistry,
): Promise<ListResult> {
  let where = qb.selectFrom('billing_documents').where('kind', '=', kind).where('trashed_at', 'is', null);
  const scope = hooks ? await listScope(hooks, kind, q.viewer) : {};
  if (scope.created_by !== undefined) where = where.where('created_by', '=', scope.created_by);
  if (q.status?.length) where = where.where('status', 'in', q.status);
  if (q.client_id !== undefined) where = where.where('client_id', '=', q.client_id);
  if (q.recurring_id !== undefined) where = where.where('recurring_id', '=', q.recurring_id);
  if (q.number !== undefined) where = where.where('number', '=', q.number);
  if (q.after) where = where.where('issue_date', '>', sql`${q.after}::date`);
  if (q.before) where = where.where('issue_date', '<', sql`${q.before}::date`);
  const today = q.overdue !== undefined ? siteDate(new Date(), await options.get('timezone')) : '';
  if (q.overdue !== undefined) {
    // the statuses as literals: the planner must see that billing_documents_open_list's predicate holds
    const open = sql.join(OPEN_INVOICE_STATUSES.map((s) => sql.lit(s)));
    const overdue = sql<boolean>`(due_date < ${today}::date and due > 0 and status in (${open}))`;
    where = where.where(q.overdue ? overdue : sql<boolean>`not ${overdue}`);
  }
  if (q.search) {
    where = where.where(
      sql`lower(number || ' ' || title || ' ' || customer_name || ' ' || customer_email)`,
      'like',
      containsPattern(q.search),
    );
  }
  const dir = q.order === 'asc' ? 'asc' : 'desc';
  const orderby = q.orderby ?? 'date';
  let offset = (q.page - 1) * q.per_page;
  let total: number;
  if (q.overdue === true && answeredByCounts({ ...q, overdue: undefined })) {
    // exact, from the open documents per due date the same trigger keeps
    const open = q.status?.length ? q.status.filter(isOpenInvoiceStatus) : OPEN_INVOICE_STATUSES;
    if (!open.length) return { items: [], total: 0 };
    let openDue = qb
      .selectFrom('billing_document_open_due')
      .where('kind', '=', kind)
      .where('due_date', '<', sql`${today}::date`)
      .where('status', 'in', open);
    if (scope.created_by !== undefined) openDue = openDue.where('created_by', '=', scope.created_by);
    [{ n: total }] = await run<{ n: number }>(db, openDue.select(sql<number>`coalesce(sum(n), 0)::int`.as('n')));
    if (total === 0 || offset >= total) return { items: [], total };
  } else if (answeredByCounts(q)) {
    // exact, from the count table the documents' trigger keeps (core/documents/migrations.ts 0005)
    const counts = { kind, status: q.status, createdBy: scope.created_by };
    if (orderby === 'date' && offset >= DEEP_OFFSET) {
      // a deep page in date order starts on a known day: skip the months before it by their counts, then
      // the days of its month by theirs (0006), and scan from that day's first row instead of stepping
      // over every row before the page
      const months = await counted(db, 'month', counts);
      total = months.reduce((t, m) => t + m.n, 0);
      if (offset >= total) return { items: [], total };
      if (dir === 'asc') months.reverse();
      const month = landing(months, offset);
      const days = await counted(db, 'day', { ...counts, month: month.at });
      if (dir === 'asc') days.reverse();
      const day = landing(days, offset - month.before);
      // (no day counted: the month emptied since it was counted; its bound then, as its first or last day)
      const from = day.at ?? (dir === 'desc' ? sql`(${month.at}::date + interval '1 month' - interval '1 day')::date` : month.at);
      where = where.where('issue_date', dir === 'desc' ? '<=' : '>=', sql`${from}::date`);
      offset -= month.before + day.before;
    } else {
      // the total alone: a sum with no grouping or sorting costs PostgreSQL a fifth of the months' query
      [{ n: total }] = await run<{ n: number }>(db, countRows('month', counts).select(sql<number>`coalesce(sum(n), 0)::int`.as('n')));
      if (total === 0 || offset >= total) return { items: [], total };
    }
  } else {
    [{ n: total }] = await run<{ n: number }>(db, where.select(sql<number>`count(*)::int`.as('n')));
    if (total === 0 || offset >= total) return { items: [], total };
  }
  // ordered by the table's columns, not the text casts of the select list that share their names:
  // sorting `issue_date::text` could use no index
  const column = `billing_documents.${ORDER_COLUMNS[orderby]}`;
  const ordered = <T extends typeof where>(w: T) => w.orderBy(sql.ref(column), dir).orderBy(sql.ref('billing_documents.id'), dir) as T;
  // past the first pages, the rows skipped are read as ids only (from the list's index, without the
  // table), and only the page's rows are fetched whole; so is an overdue list, whose index holds the
  // due date that passes over the open documents not yet due
  const rows =
    offset >= DEEP_OFFSET || q.overdue === true
      ? await run(
          db,
          ordered(
            qb
              .selectFrom('billing_documents')
              .where('id', 'in', ordered(where.select('billing_documents.id')).limit(q.per_page).offset(offset))
              .select(columns(DOCUMENT_COLUMNS)),
          ),
        )
      : await run(
          db,
          ordered(where.select(columns(DOCUMENT_COLUMNS)))
            .limit(q.per_page)
            .offset(offset),
        );
  return { items: rows.map(documentFromRow), total };
}

/** From this offset on, a page is looked for through the counts (date order) and read ids first. */
const DEEP_OFFSET = 200;

/** Whether the count table can answer this list's total: only kind, status and the creator scope narrow it. */
function answeredByCounts(q: ListQuery): boolean {
  return (
    !q.search &&
    q.client_id === undefined &&
    q.recurring_id === undefined &&
    q.number === undefined &&
    !q.after &&
    !q.before &&
    q.overdue === undefined
  );
}

interface CountFilter {
  kind: DocumentKind;
  status?: string[];
  createdBy?: number;
  /** Day counts only: the month (its first day) they are read for. */
  month?: string;
}

/** The rows of the month counts (0005) or the day counts (0006) that a list's filters select. */
function countRows(per: 'month' | 'day', f: CountFilter) {
  let query = qb.selectFrom(per === 'month' ? 'billing_document_counts' : 'billing_document_day_counts').where('kind', '=', f.kind);
  if (f.month) query = query.where(per, '>=', sql`${f.month}::date`).where(per, '<', sql`(${f.month}::date + interval '1 month')::date`);
  if (f.status?.length) query = query.where('status', 'in', f.status);
  if (f.createdBy !== undefined) query = query.where('created_by', '=', f.createdBy);
  return query;
}

/**
 * The live documents of a kind per month of issue (newest first), or per day of one month: a few
 * hundred rows, or a few dozen.
 */
async function counted(db: Database, per: 'month' | 'day', f: CountFilter): Promise<Array<{ at: string; n: number }>> {
  const rows = await run<{ at: string; n: number }>(
    db,
    countRows(per, f)
      .select([sql<string>`${sql.ref(per)}::text`.as('at'), sql<number>`sum(n)::int`.as('n')])
      .groupBy(per)
      .having(sql`sum(n)`, '>', 0)
      .orderBy(per, 'desc'),
  );
  return rows.map((r) => ({ at: r.at, n: Number(r.n) }));
}

/**
 * The count the row `offset` rows into the counted list falls in, and how many rows the counts before it
 * hold. The counts and the page are read by different statements: rows that left in between can put the
 * offset past the last count, which is then the one landed on (the page's scan reads on past it).
 */
function landing(counts: Array<{ at: string; n: number }>, offset: number): { at?: string; before: number } {
  let before = 0;
  for (const [i, c] of counts.entries()) {
    if (offset < before + c.n || i === counts.length - 1) return { at: c.at, before };
    before += c.n;
  }
  return { before: 0 };
}
