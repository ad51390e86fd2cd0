import type { Database } from '../db/database.ts';
import type { OptionsStore } from '../options/options.ts';
import { DOCUMENT_COLUMNS, documentFromRow, type BillingDocument } from './document.ts';
import type { DocumentKind } from './numbering.ts';
import { siteDate } from './site-time.ts';
import { containsPattern } from '../db/like.ts';

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
  orderby?: 'date' | 'id' | 'number' | 'due_date' | 'total';
  order?: 'asc' | 'desc';
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
export async function listDocuments(db: Database, options: OptionsStore, kind: DocumentKind, q: ListQuery): Promise<ListResult> {
  const params: unknown[] = [kind];
  const where = ['kind = $1', 'trashed_at is null'];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (q.status?.length) add((n) => `status = any(${n}::text[])`, q.status);
  if (q.client_id !== undefined) add((n) => `client_id = ${n}`, q.client_id);
  if (q.after) add((n) => `issue_date > ${n}::date`, q.after);
  if (q.before) add((n) => `issue_date < ${n}::date`, q.before);
  if (q.overdue !== undefined) {
    const today = siteDate(new Date(), await options.get('timezone'));
    params.push(today, OPEN_STATUSES);
    const overdue = `(due_date < $${params.length - 1}::date and due > 0 and status = any($${params.length}::text[]))`;
    where.push(q.overdue ? overdue : `not ${overdue}`);
  }
  if (q.search) {
    add((n) => `lower(number || ' ' || title || ' ' || customer_name || ' ' || customer_email) like ${n}`,
      containsPattern(q.search));
  }
  const whereSql = where.join(' and ');
  const column = ORDER_COLUMNS[q.orderby ?? 'date'];
  const dir = q.order === 'asc' ? 'asc' : 'desc';
  const countRows = await db.query<{ n: number }>(`select count(*)::int as n from billing_documents where ${whereSql}`, params);
  const total = countRows[0]!.n;
  if (total === 0 || (q.page - 1) * q.per_page >= total) return { items: [], total };
  // ordered by the table's columns, not the text casts of the select list that share their names:
  // sorting `issue_date::text` could use no index
  const rows = await db.query(
    `select ${DOCUMENT_COLUMNS} from billing_documents where ${whereSql}
      order by billing_documents.${column} ${dir}, billing_documents.id ${dir} limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`, params);
  return { items: rows.map(documentFromRow), total };
}
