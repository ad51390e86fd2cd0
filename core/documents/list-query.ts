import type { Database } from '../db/database.ts';
import type { OptionsStore } from '../options/options.ts';
import { DOCUMENT_COLUMNS, documentFromRow, type BillingDocument } from './document.ts';
import type { DocumentKind } from './numbering.ts';
import { siteDate } from '../time/site-time.ts';
import { containsPattern } from '../db/like.ts';
import { columns, qb, run, sql } from '../db/query-builder.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { AuthUser } from '../http/auth.ts';
import { listScope } from './list-scope.ts';

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

/** Statuses in which an unpaid balance can be overdue. */
export const OPEN_STATUSES = ['available', 'partial', 'unpaid'];

/**
 * One page of a kind's documents and the total count, with the filters of contract §4. The search is
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
    const open = sql.join(OPEN_STATUSES.map((s) => sql.lit(s)));
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
    const open = q.status?.length ? q.status.filter((s) => OPEN_STATUSES.includes(s)) : OPEN_STATUSES;
    if (!open.length) return { items: [], total: 0 };
    let counted = qb
      .selectFrom('billing_document_open_due')
      .where('kind', '=', kind)
      .where('due_date', '<', sql`${today}::date`)
      .where('status', 'in', open);
    if (scope.created_by !== undefined) counted = counted.where('created_by', '=', scope.created_by);
    [{ n: total }] = await run<{ n: number }>(db, counted.select(sql<number>`coalesce(sum(n), 0)::int`.as('n')));
    if (total === 0 || offset >= total) return { items: [], total };
  } else if (answeredByCounts(q)) {
    // exact, from the count table the documents' trigger keeps (core/documents/migrations.ts 0005)
    const months = await countedMonths(db, kind, q.status, scope.created_by);
    total = months.reduce((t, m) => t + m.n, 0);
    if (offset >= total) return { items: [], total };
    if (orderby === 'date' && offset >= DEEP_OFFSET) {
      // a deep page in date order starts in a known month: skip the months before it by their counts
      // and scan only from its first row, instead of stepping over every row before the page
      if (dir === 'asc') months.reverse();
      let before = 0;
      for (const m of months) {
        if (offset < before + m.n) {
          where =
            dir === 'desc'
              ? where.where('issue_date', '<', sql`(${m.month}::date + interval '1 month')::date`)
              : where.where('issue_date', '>=', sql`${m.month}::date`);
          offset -= before;
          break;
        }
        before += m.n;
      }
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

/** The live documents of a kind per month of issue (newest first), from the count table: a few hundred rows. */
async function countedMonths(
  db: Database,
  kind: DocumentKind,
  status: string[] | undefined,
  createdBy: number | undefined,
): Promise<Array<{ month: string; n: number }>> {
  let query = qb.selectFrom('billing_document_counts').where('kind', '=', kind);
  if (status?.length) query = query.where('status', 'in', status);
  if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
  const rows = await run<{ month: string; n: number }>(
    db,
    query
      .select([sql<string>`month::text`.as('month'), sql<number>`sum(n)::int`.as('n')])
      .groupBy('month')
      .having(sql`sum(n)`, '>', 0)
      .orderBy('month', 'desc'),
  );
  return rows.map((r) => ({ month: r.month, n: Number(r.n) }));
}
