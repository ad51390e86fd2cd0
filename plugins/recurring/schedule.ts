// When a recurring profile's invoices fall due: pure calendar arithmetic on `Y-m-d` dates, so the
// answer depends on nothing but its arguments (property-tested in schedule.property.test.ts).

export const FREQUENCIES = ['daily', 'weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export type End = { type: 'never' } | { type: 'count'; count: number } | { type: 'date'; date: string };

export interface Schedule {
  start_date: string;
  frequency: Frequency;
  end: End;
}

const DAYS: Partial<Record<Frequency, number>> = { daily: 1, weekly: 7, fortnightly: 14 };
const MONTHS: Partial<Record<Frequency, number>> = { monthly: 1, quarterly: 3, yearly: 12 };

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * The date of period `n` (0 for the start date). Each period is counted from the start date, never from
 * the previous period, so a schedule on the 31st gives the last day of a shorter month and is back on
 * the 31st the month after (and 29 February gives the 28th in common years and the 29th in leap years).
 * Dates are calendar dates in the site timezone: no clock time is involved, so DST cannot move them.
 */
export function periodDate(start: string, frequency: Frequency, n: number): string {
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const days = DAYS[frequency];
  if (days !== undefined) {
    const t = new Date(Date.UTC(y, m - 1, d + n * days));
    return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  }
  const months = m - 1 + n * MONTHS[frequency]!;
  const year = y + Math.floor(months / 12);
  const month0 = months % 12;
  return `${pad(year, 4)}-${pad(month0 + 1)}-${pad(Math.min(d, daysInMonth(year, month0)))}`;
}

/**
 * Whether period `n` may still be generated under the profile's end: a count end counts invoices
 * generated (`generated`; periods skipped while paused are not counted), a date end the period's date.
 */
export function withinEnd(s: Schedule, n: number, generated = n): boolean {
  if (s.end.type === 'count') return generated < s.end.count;
  if (s.end.type === 'date') return periodDate(s.start_date, s.frequency, n) <= s.end.date;
  return true;
}

/**
 * The periods from `from` on whose date has come by `today` (the site's date now), in order; at most
 * `limit` of them. After downtime this is every missed period, each exactly once per index.
 */
export function periodsDue(
  s: Schedule,
  from: number,
  today: string,
  limit = Infinity,
  generated = from,
): Array<{ n: number; date: string }> {
  const out: Array<{ n: number; date: string }> = [];
  for (let n = from; out.length < limit && withinEnd(s, n, generated + out.length); n++) {
    const date = periodDate(s.start_date, s.frequency, n);
    if (date > today) break;
    out.push({ n, date });
  }
  return out;
}

/** The date of the next period to generate, or null when the profile has no more (it is finished). */
export function nextDate(s: Schedule, n: number, generated = n): string | null {
  return withinEnd(s, n, generated) ? periodDate(s.start_date, s.frequency, n) : null;
}

/** The first period on or after `today`: where a resumed profile picks up (periods of the pause are skipped). */
export function firstPeriodFrom(s: Schedule, from: number, today: string): number {
  let n = from;
  while (periodDate(s.start_date, s.frequency, n) < today) n++;
  return n;
}

/**
 * Whether a profile whose first invoice is period `first` would start with a backlog: more than one
 * period before `today` (the period after it is already past). A daily profile may start yesterday, a
 * monthly one on this day last month; older periods are never billed by a new profile in one go.
 */
export function startsTooFarBack(s: Schedule, first: number, today: string): boolean {
  return periodDate(s.start_date, s.frequency, first + 1) < today;
}

/**
 * The service period invoice `n` bills: billed in advance, from its period date to the day before the
 * next period date, so consecutive invoices cover the calendar without a gap or an overlap (a profile on
 * the 31st bills 31 Jan – 27 Feb, then 28 Feb – 30 Mar).
 */
export function servicePeriod(s: Pick<Schedule, 'start_date' | 'frequency'>, n: number): { start: string; end: string } {
  const next = periodDate(s.start_date, s.frequency, n + 1);
  return { start: periodDate(s.start_date, s.frequency, n), end: periodDate(next, 'daily', -1) };
}
