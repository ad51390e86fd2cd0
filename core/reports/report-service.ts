import type { Database } from '../db/database.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { AuthUser } from '../http/auth.ts';
import { listScope } from '../scope/list-scope.ts';
import { addDays, siteDate } from '../time/site-time.ts';
import { isCurrency, Money } from '../money/index.ts';
import type { OptionsStore } from '../options/options.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import { sqlLiterals } from '../db/sql-literals.ts';
import { RECEIVED_PAYMENT_STATUSES } from '../payments/statuses.ts';

/** Payments whose money was received, as SQL literals. */
const RECEIVED = sqlLiterals(RECEIVED_PAYMENT_STATUSES);

export type ReportGroup = 'day' | 'week' | 'month';

export interface ReportQuery {
  /** `Y-m-d`, first day of the range (site timezone); default: 29 days before `end`. */
  start?: string;
  /** `Y-m-d`, last day of the range, included; default: today in the site timezone. */
  end?: string;
  group?: ReportGroup;
  /** ISO 4217; default: option `currency`. Only documents and payments in this currency are counted. */
  currency?: string;
  /**
   * The user the report is for: it counts only what their lists show (`billing_list_scope` of kinds
   * `invoice` and `payment`; a payment by its invoice's creator). None: in-process, the whole site.
   */
  viewer?: AuthUser;
}

/** Chart-ready data (docs/ajax.md): one label per period, one value per period in each series. */
export interface ReportData {
  labels: string[];
  series: { invoiced: number[]; paid: number[]; outstanding: number[] };
  totals: { invoiced: number; paid: number; outstanding: number };
  currency: string;
  group: ReportGroup;
  start: string;
  end: string;
}

/** More periods than this is not a chart any more: ask for a coarser group. */
export const MAX_PERIODS = 1000;

/**
 * Invoiced, paid and outstanding amounts per day, week (ISO, from Monday) or month, summed in SQL as
 * exact numerics, with periods in the site timezone (option `timezone`):
 *
 * - **invoiced**: the totals of issued invoices (not drafts, not cancelled, not trashed) by issue date,
 *   which is already a date of the site's calendar;
 * - **paid**: money received by payment date (payments `completed` or `refunded` when they came in)
 *   minus refunds by the date of each refund, both turned into site dates with `at time zone`;
 * - **outstanding**: what is still due today on the invoices counted as invoiced in that period.
 *
 * Every period of the range is present, empty ones as 0; the first and last may be partial (a week or
 * month cut by `start` or `end` counts only its days inside the range, and is labelled by its first day).
 */
export class ReportService {
  private readonly db: Database;
  private readonly options: OptionsStore;
  private readonly hooks: HookRegistry | undefined;

  constructor(deps: { db: Database; options: OptionsStore; hooks?: HookRegistry }) {
    this.db = deps.db;
    this.options = deps.options;
    this.hooks = deps.hooks;
  }

  async data(q: ReportQuery = {}): Promise<ReportData> {
    const o = await this.options.getMany(['timezone', 'currency']);
    const group: ReportGroup = q.group ?? 'day';
    const end = q.end ?? siteDate(new Date(), o.timezone);
    const start = q.start ?? addDays(end, -29);
    if (start > end) throw invalidParam('end', 'end must not be before start.');
    const currency = q.currency ?? o.currency;
    if (!isCurrency(currency)) throw invalidParam('currency', `currency ${currency} is not an ISO 4217 code.`);
    if (periodCount(start, end, group) > MAX_PERIODS) {
      throw invalidParam('group', `A ${group} report covers at most ${MAX_PERIODS} periods; choose a shorter range or a longer group.`);
    }

    const params = [start, end, group, currency, o.timezone];
    const scoped = await this.scope(q.viewer);
    let rows: ReportRow[];
    if (scoped) {
      // the per-day sums are the site's: a narrowed report sums the caller's own rows
      rows = await this.db.query<ReportRow>(REPORT_SCOPED_SCAN_SQL, [...params, scoped.invoices ?? null, scoped.payments ?? null]);
    } else {
      rows = await this.db.query<ReportRow>(REPORT_SQL, params);
      // the per-day sums are in the timezone the database holds; an instance whose copy of the option is
      // behind (or ahead) of it for a moment sums the rows themselves instead
      if (rows[0] && rows[0].days_tz !== o.timezone) rows = await this.db.query<ReportRow>(REPORT_SCAN_SQL, params);
    }
    const money = (v: string) => Money.parse(v, currency).toNumber();
    const first = rows[0];
    return {
      labels: rows.map((r) => (group === 'month' ? r.period.slice(0, 7) : r.period)),
      series: {
        invoiced: rows.map((r) => money(r.invoiced)),
        paid: rows.map((r) => money(r.paid)),
        outstanding: rows.map((r) => money(r.outstanding)),
      },
      totals: {
        invoiced: money(first?.total_invoiced ?? '0'),
        paid: money(first?.total_paid ?? '0'),
        outstanding: money(first?.total_outstanding ?? '0'),
      },
      currency,
      group,
      start,
      end,
    };
  }

  /** Whose invoices and payments (by their invoice's creator) `viewer` may count; null when nothing narrows them. */
  private async scope(viewer: AuthUser | undefined): Promise<{ invoices?: number; payments?: number } | null> {
    if (!this.hooks || !viewer) return null;
    const invoices = (await listScope(this.hooks, 'invoice', viewer)).created_by;
    const payments = (await listScope(this.hooks, 'payment', viewer)).created_by;
    return invoices === undefined && payments === undefined ? null : { invoices, payments };
  }
}

interface ReportRow {
  period: string;
  invoiced: string;
  paid: string;
  outstanding: string;
  total_invoiced: string;
  total_paid: string;
  total_outstanding: string;
  days_tz?: string;
}

/**
 * The report from the per-day sums the triggers keep (billing_invoice_days by issue date, billing_payment_days
 * by day of the site timezone): a year is a few hundred rows however many invoices there are. Equal to
 * REPORT_SCAN_SQL (test/scale/aggregates.test.ts); `days_tz` is the timezone the payment days are in.
 */
const REPORT_SQL = `
  with periods as (
    select p::date as period
      from generate_series(date_trunc($3, $1::date::timestamp), $2::date::timestamp, ('1 ' || $3)::interval) as p
  ),
  invoiced as (
    select date_trunc($3, day::timestamp)::date as period, sum(invoiced) as invoiced, sum(outstanding) as outstanding
      from billing_invoice_days
     where currency = $4 and day between $1::date and $2::date
     group by 1
  ),
  paid as (
    select date_trunc($3, day::timestamp)::date as period, sum(amount) as amount
      from billing_payment_days
     where tz = $5 and currency = $4 and day between $1::date and $2::date
     group by 1
  ),
  report as (
    select to_char(periods.period, 'YYYY-MM-DD') as period, periods.period as sort,
           coalesce(i.invoiced, 0) as invoiced, coalesce(pd.amount, 0) as paid, coalesce(i.outstanding, 0) as outstanding
      from periods
      left join invoiced i on i.period = periods.period
      left join paid pd on pd.period = periods.period
  )
  select period, invoiced::text, paid::text, outstanding::text,
         (sum(invoiced) over ())::text as total_invoiced,
         (sum(paid) over ())::text as total_paid,
         (sum(outstanding) over ())::text as total_outstanding,
         (select billing_site_timezone()) as days_tz
    from report
   order by sort`;

/**
 * The report summed from the invoices, payments and refunds themselves (what the per-day sums are kept
 * equal to). $1 start and $2 end (`Y-m-d`, inclusive), $3 group (`day`, `week`, `month`: a `date_trunc` field and an
 * interval unit alike), $4 currency, $5 site timezone. Instants (payment and refund times) become site
 * wall-clock times with `at time zone`, and the range's bounds become instants the same way, so an
 * index on the instant can serve the range.
 */
export const REPORT_SCAN_SQL = reportScanSql(false);

/** REPORT_SCAN_SQL narrowed to one user's: $6 counts only invoices they created, $7 payments on invoices they created (null: all). */
const REPORT_SCOPED_SCAN_SQL = reportScanSql(true);

function reportScanSql(scoped: boolean): string {
  const invoicesOf = scoped ? 'and ($6::int is null or d.created_by = $6)' : '';
  const paymentsOf = scoped ? 'and ($7::int is null or d.created_by = $7)' : '';
  return `
  with periods as (
    select p::date as period
      from generate_series(date_trunc($3, $1::date::timestamp), $2::date::timestamp, ('1 ' || $3)::interval) as p
  ),
  bounds as (
    select ($1::date::timestamp at time zone $5) as since, (($2::date + 1)::timestamp at time zone $5) as until
  ),
  invoiced as (
    select date_trunc($3, d.issue_date::timestamp)::date as period, sum(d.total) as invoiced, sum(d.due) as outstanding
      from billing_documents d
     where d.kind = 'invoice' and d.trashed_at is null and d.status not in ('draft', 'cancelled')
       and d.currency = $4 and d.issue_date between $1::date and $2::date ${invoicesOf}
     group by 1
  ),
  received as (
    select date_trunc($3, p.date at time zone $5)::date as period, sum(p.amount) as amount
      from billing_payments p
      join billing_documents d on d.id = p.invoice_id and d.trashed_at is null, bounds
     where p.status in (${RECEIVED}) and p.currency = $4
       and p.date >= bounds.since and p.date < bounds.until ${paymentsOf}
     group by 1
  ),
  refunded as (
    select date_trunc($3, r.created_at at time zone $5)::date as period, sum(r.amount) as amount
      from billing_payment_refunds r
      join billing_payments p on p.id = r.payment_id and p.currency = $4
      join billing_documents d on d.id = p.invoice_id and d.trashed_at is null, bounds
     where r.created_at >= bounds.since and r.created_at < bounds.until ${paymentsOf}
     group by 1
  ),
  report as (
    select to_char(periods.period, 'YYYY-MM-DD') as period, periods.period as sort,
           coalesce(i.invoiced, 0) as invoiced,
           coalesce(rc.amount, 0) - coalesce(rf.amount, 0) as paid,
           coalesce(i.outstanding, 0) as outstanding
      from periods
      left join invoiced i on i.period = periods.period
      left join received rc on rc.period = periods.period
      left join refunded rf on rf.period = periods.period
  )
  select period, invoiced::text, paid::text, outstanding::text,
         (sum(invoiced) over ())::text as total_invoiced,
         (sum(paid) over ())::text as total_paid,
         (sum(outstanding) over ())::text as total_outstanding
    from report
   order by sort`;
}

/** How many periods `start`..`end` spans (counted in JavaScript only to refuse a huge range early). */
function periodCount(start: string, end: string, group: ReportGroup): number {
  const days = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
  if (group === 'day') return days;
  if (group === 'week') return Math.ceil(days / 7) + 1;
  const [ys, ms] = start.split('-').map(Number);
  const [ye, me] = end.split('-').map(Number);
  return (ye! - ys!) * 12 + (me! - ms!) + 1;
}
