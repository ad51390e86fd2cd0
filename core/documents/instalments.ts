import { Decimal, Money, type CurrencyCode } from '../money/index.ts';
import { invalidParam } from '../validation/invalid-param.ts';

/** One instalment as stored on the invoice: its date and its exact amount (decimal text in the invoice's currency). */
export interface Instalment {
  due_date: string;
  amount: string;
}

/** An instalment as the input gives it: a fixed amount, or a percent of the invoice's total. */
export interface InstalmentInput {
  due_date: string;
  amount?: number | string;
  percent?: number | string;
}

export type InstalmentStatus = 'open' | 'partial' | 'paid' | 'overdue';

/** An instalment with what has been paid of it, payments and credits filling the instalments oldest first. */
export interface InstalmentState extends Instalment {
  paid: string;
  due: string;
  status: InstalmentStatus;
}

/** More instalments than any payment plan has; bounds the input. */
export const SCHEDULE_MAX = 60;

const PERCENT_DECIMALS = 4;

/**
 * The stored schedule of an invoice from its input: dates in order from the issue date on, amounts
 * exact in the currency, and the whole summing exactly to `total`. Percents are of the total; the amount
 * the fixed instalments leave is split over the percent instalments by the largest remainder (so a
 * rounding cent goes to one instalment, never lost), and the percents must then account for exactly that
 * amount — 30/30/40 of anything, or a fixed deposit and the percents of the rest it leaves. Any fault is a
 * 400 naming `schedule`. An empty or missing schedule is none.
 */
export function resolveSchedule(
  input: readonly InstalmentInput[] | null | undefined,
  total: Money,
  issueDate: string,
): Instalment[] | null {
  if (!input || input.length === 0) return null;
  const fault = (message: string) => invalidParam('schedule', message);
  if (input.length > SCHEDULE_MAX) throw fault(`schedule has at most ${SCHEDULE_MAX} instalments.`);
  const currency = total.currency as CurrencyCode;
  let previous = issueDate;
  const fixed: Array<Money | null> = [];
  const percents: Decimal[] = [];
  input.forEach((entry, i) => {
    const n = i + 1;
    if (entry.due_date < previous) {
      throw fault(
        i === 0
          ? `schedule: instalment 1 is due ${entry.due_date}, before the issue date ${issueDate}.`
          : `schedule: instalment ${n} is due ${entry.due_date}, before instalment ${i} (${previous}); list them in date order.`,
      );
    }
    previous = entry.due_date;
    const hasAmount = entry.amount !== undefined && entry.amount !== null;
    const hasPercent = entry.percent !== undefined && entry.percent !== null;
    if (hasAmount === hasPercent) throw fault(`schedule: instalment ${n} needs either an amount or a percent.`);
    if (hasAmount) {
      let amount: Money;
      try {
        amount = Money.parse(entry.amount, currency, 'schedule');
      } catch {
        throw fault(`schedule: the amount of instalment ${n} is not an amount in ${currency}.`);
      }
      if (!amount.isPositive()) throw fault(`schedule: the amount of instalment ${n} must be more than 0.`);
      fixed.push(amount);
    } else {
      let percent: Decimal;
      try {
        percent = Decimal.parse(entry.percent, { maxDecimals: PERCENT_DECIMALS, param: 'schedule' });
      } catch {
        throw fault(`schedule: the percent of instalment ${n} must be a number with at most ${PERCENT_DECIMALS} decimals.`);
      }
      if (percent.sign() <= 0 || percent.compare(100) > 0)
        throw fault(`schedule: the percent of instalment ${n} must be above 0 and at most 100.`);
      fixed.push(null);
      percents.push(percent);
    }
  });

  const fixedSum = Money.sum(
    fixed.filter((m): m is Money => m !== null),
    currency,
  );
  const rest = total.minus(fixedSum);
  const percentSum = percents.reduce((a, p) => a.plus(p), Decimal.from(0));
  // the percents must be exactly the share of the total the fixed amounts leave: rest × 100 = total × Σ%
  if (rest.isNegative() || !rest.toDecimal().times(100).equals(total.toDecimal().times(percentSum))) {
    const given = percents.length ? `${fixedSum.toString()} and ${percentSum.toString()}%` : fixedSum.toString();
    throw fault(`schedule must sum exactly to the invoice total ${total.toString()} ${currency}; it gives ${given}.`);
  }
  const shares = percents.length ? rest.allocate(percents) : [];
  let next = 0;
  return input.map((entry, i) => ({ due_date: entry.due_date, amount: (fixed[i] ?? shares[next++]!).toString() }));
}

/**
 * Each instalment's paid, due and status, the money received (paid and credited) filling the
 * instalments oldest first. An instalment past its date (site timezone `today`) with something due is
 * `overdue`.
 */
export function instalmentStates(
  schedule: readonly Instalment[],
  settled: string,
  currency: CurrencyCode,
  today: string,
): InstalmentState[] {
  let left = Money.parse(settled, currency);
  return schedule.map((s) => {
    const amount = Money.parse(s.amount, currency);
    const paid = left.isNegative() ? Money.zero(currency) : Money.min(left, amount);
    left = left.minus(paid);
    const due = amount.minus(paid);
    const status: InstalmentStatus = due.isZero() ? 'paid' : s.due_date < today ? 'overdue' : paid.isPositive() ? 'partial' : 'open';
    return { due_date: s.due_date, amount: s.amount, paid: paid.toString(), due: due.toString(), status };
  });
}

/**
 * The schedule after a charge (a late fee) is added to the invoice: the charge joins the earliest
 * instalment the money received does not cover (the one it is charged for; the last when all are paid),
 * so the schedule still sums exactly to the new total.
 */
export function withCharge(schedule: readonly Instalment[], settled: Money, charge: Money): Instalment[] {
  const states = instalmentStates(schedule, settled.toString(), settled.currency as CurrencyCode, '');
  const open = states.findIndex((s) => s.status !== 'paid');
  const target = open >= 0 ? open : schedule.length - 1;
  return schedule.map((s, i) =>
    i === target
      ? {
          ...s,
          amount: Money.parse(s.amount, charge.currency as CurrencyCode)
            .plus(charge)
            .toString(),
        }
      : { ...s },
  );
}

/** The date of the earliest instalment with something due, or null when all are paid. */
export function earliestUnpaidDate(states: readonly InstalmentState[]): string | null {
  return states.find((s) => s.status !== 'paid')?.due_date ?? null;
}

/**
 * What the payer is asked for now: everything due up to today, or, when nothing is due yet, the next
 * instalment's rest. Zero when the schedule is paid.
 */
export function amountDueNow(states: readonly InstalmentState[], currency: CurrencyCode, today: string): Money {
  const now = Money.sum(
    states.filter((s) => s.due_date <= today).map((s) => Money.parse(s.due, currency)),
    currency,
  );
  if (now.isPositive()) return now;
  const next = states.find((s) => s.status !== 'paid');
  return next ? Money.parse(next.due, currency) : Money.zero(currency);
}

/** The earliest instalment of invoice row `alias` the money received (paid and credited) does not cover, as SQL. */
const owedInstalment = (alias: string, pick: string) => `(select ${pick}
      from (select e, n, sum((e->>'amount')::numeric) over (order by n) as upto
              from jsonb_array_elements(${alias}.schedule) with ordinality as i(e, n)) x
     where x.upto > ${alias}.paid + ${alias}.credited order by x.n limit 1)`;

/**
 * SQL for the date invoice row `alias` is owed from — its earliest unpaid instalment's date, or its due
 * date without a schedule — so queries over many invoices (the reminders) count from the same date
 * `owedSince` gives one invoice.
 */
export function owedSinceSql(alias: string): string {
  return `coalesce(${owedInstalment(alias, "(x.e->>'due_date')::date")}, ${alias}.due_date)`;
}

/** SQL for which instalment of invoice row `alias` is owed (0 for the first, and without a schedule). */
export function owedInstalmentSql(alias: string): string {
  return `coalesce(${owedInstalment(alias, '(x.n - 1)::int')}, 0)`;
}
