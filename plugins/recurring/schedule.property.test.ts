// The period function against independent oracles: the day-31 rule, leap years, count and date ends,
// and "today" taken in a site timezone with DST (a schedule moves by calendar days, never by hours);
// the service periods of consecutive invoices leave no gap and no overlap, from month ends and across DST.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { addDays, siteDate } from '../../core/time/site-time.ts';
import { FREQUENCIES, nextDate, periodDate, periodsDue, servicePeriod, startsTooFarBack, type Frequency } from './schedule.ts';

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const monthLength = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
const ymd = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

const dateArb = fc
  .record({ y: fc.integer({ min: 1990, max: 2090 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .map(({ y, m, d }) => ({ y, m, d: Math.min(d, monthLength(y, m)) }));
const freqArb = fc.constantFrom(...FREQUENCIES);

/** Julian day number: days counted without Date, to check day steps independently. */
const jdn = (s: string) => {
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) - 32045;
};

describe('periodDate', () => {
  it('months: the start day, or the last day of a shorter month, and back to the start day after it', () => {
    fc.assert(
      fc.property(dateArb, fc.constantFrom<Frequency>('monthly', 'quarterly', 'yearly'), fc.integer({ min: 0, max: 400 }), (s, f, n) => {
        const step = f === 'monthly' ? 1 : f === 'quarterly' ? 3 : 12;
        const total = s.m - 1 + n * step;
        const y = s.y + Math.floor(total / 12);
        const m = (total % 12) + 1;
        expect(periodDate(ymd(s.y, s.m, s.d), f, n)).toBe(ymd(y, m, Math.min(s.d, monthLength(y, m))));
      }),
    );
  });

  it('day 31 monthly: 31 Jan, 28/29 Feb, 31 Mar, 30 Apr, 31 May…', () => {
    const got = Array.from({ length: 14 }, (_, n) => periodDate('2024-01-31', 'monthly', n));
    expect(got).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
      '2024-05-31',
      '2024-06-30',
      '2024-07-31',
      '2024-08-31',
      '2024-09-30',
      '2024-10-31',
      '2024-11-30',
      '2024-12-31',
      '2025-01-31',
      '2025-02-28',
    ]);
  });

  it('29 February yearly: the 28th in common years, the 29th in leap years', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120 }), (n) => {
        const y = 1996 + n;
        expect(periodDate('1996-02-29', 'yearly', n)).toBe(ymd(y, 2, isLeap(y) ? 29 : 28));
      }),
    );
  });

  it('days and weeks: exactly 1, 7 or 14 calendar days apart, whatever the year or DST', () => {
    fc.assert(
      fc.property(dateArb, fc.constantFrom<Frequency>('daily', 'weekly', 'fortnightly'), fc.integer({ min: 0, max: 2000 }), (s, f, n) => {
        const start = ymd(s.y, s.m, s.d);
        const step = f === 'daily' ? 1 : f === 'weekly' ? 7 : 14;
        expect(jdn(periodDate(start, f, n)) - jdn(start)).toBe(n * step);
      }),
    );
  });

  it('strictly increasing, so no two periods of a profile share a date', () => {
    fc.assert(
      fc.property(dateArb, freqArb, fc.integer({ min: 0, max: 300 }), (s, f, n) => {
        const start = ymd(s.y, s.m, s.d);
        expect(periodDate(start, f, n) < periodDate(start, f, n + 1)).toBe(true);
      }),
    );
  });
});

describe('periodsDue and the ends', () => {
  it('after any downtime: every period up to today, once, in order, from where generation stopped', () => {
    fc.assert(
      fc.property(dateArb, freqArb, fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 800 }), (s, f, from, days) => {
        const start = ymd(s.y, s.m, s.d);
        const today = periodDate(start, 'daily', days);
        const due = periodsDue({ start_date: start, frequency: f, end: { type: 'never' } }, from, today);
        expect(due.map((p) => p.n)).toEqual(due.map((_, i) => from + i));
        for (const p of due) expect(p.date <= today).toBe(true);
        expect(periodDate(start, f, from + due.length) > today).toBe(true);
      }),
    );
  });

  it('a count end gives exactly count periods; a date end none after it', () => {
    fc.assert(
      fc.property(dateArb, freqArb, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 3000 }), (s, f, count, span) => {
        const start = ymd(s.y, s.m, s.d);
        const far = '2999-12-31';
        expect(periodsDue({ start_date: start, frequency: f, end: { type: 'count', count } }, 0, far)).toHaveLength(count);
        expect(nextDate({ start_date: start, frequency: f, end: { type: 'count', count } }, count)).toBeNull();
        const endDate = periodDate(start, 'daily', span);
        const byDate = periodsDue({ start_date: start, frequency: f, end: { type: 'date', date: endDate } }, 0, far);
        expect(byDate.every((p) => p.date <= endDate)).toBe(true);
        expect(periodDate(start, f, byDate.length) > endDate).toBe(true);
      }),
    );
  });

  it('in a site timezone with DST, a period becomes due at local midnight, never an hour early or late', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Australia/Sydney', 'America/Santiago', 'Pacific/Chatham'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(2020, 0, 1) / 60000, max: Date.UTC(2030, 0, 1) / 60000 }),
        freqArb,
        (tz, minute, f) => {
          const now = new Date(minute * 60000);
          const today = siteDate(now, tz);
          const start = f === 'daily' ? periodDate(today, 'daily', -3) : today;
          const s = { start_date: start, frequency: f, end: { type: 'never' } as const };
          const due = periodsDue(s, 0, today);
          // the oracle: the local wall-clock date, read with a different formatter
          const local = now.toLocaleDateString('sv-SE', { timeZone: tz });
          expect(today).toBe(local);
          expect(due.length).toBe(f === 'daily' ? 4 : 1);
          // the last minute of the previous local day (found by bisection: DST days are 23 or 25 hours)
          let lo = minute - 26 * 60; // surely yesterday
          let hi = minute; // today
          while (hi - lo > 1) {
            const mid = Math.floor((lo + hi) / 2);
            if (siteDate(new Date(mid * 60000), tz) === today) hi = mid;
            else lo = mid;
          }
          expect(periodsDue(s, 0, siteDate(new Date(lo * 60000), tz)).length).toBe(f === 'daily' ? 3 : 0);
          expect(periodsDue(s, 0, siteDate(new Date(hi * 60000), tz)).length).toBe(f === 'daily' ? 4 : 1);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('startsTooFarBack (the start-date rule of a new profile)', () => {
  it('refuses exactly the starts that already owed two periods yesterday; one it accepts owes at most two today', () => {
    fc.assert(
      fc.property(dateArb, dateArb, freqArb, (start, today, f) => {
        const s = { start_date: ymd(start.y, start.m, start.d), frequency: f, end: { type: 'never' as const } };
        const t = ymd(today.y, today.m, today.d);
        const owedYesterday = periodsDue(s, 0, addDays(t, -1), 3).length;
        expect(startsTooFarBack(s, 0, t)).toBe(owedYesterday >= 2);
        if (!startsTooFarBack(s, 0, t)) expect(periodsDue(s, 0, t, 3).length).toBeLessThanOrEqual(2);
      }),
      { numRuns: 2000 },
    );
  });

  it('the year-2000 daily profile is refused; yesterday is the limit', () => {
    const daily = (start_date: string) => ({ start_date, frequency: 'daily' as const, end: { type: 'never' as const } });
    expect(startsTooFarBack(daily('2000-01-01'), 0, '2026-11-27')).toBe(true);
    expect(startsTooFarBack(daily('2026-11-25'), 0, '2026-11-27')).toBe(true);
    expect(startsTooFarBack(daily('2026-11-26'), 0, '2026-11-27')).toBe(false);
  });
});

describe('servicePeriod (billed in advance: from a period date to the day before the next)', () => {
  /** Start dates biased to month ends: the 28th to the 31st (or the month's last day), where months differ. */
  const monthEndArb = fc
    .record({ y: fc.integer({ min: 1990, max: 2090 }), m: fc.integer({ min: 1, max: 12 }), back: fc.integer({ min: 0, max: 3 }) })
    .map(({ y, m, back }) => ymd(y, m, monthLength(y, m) - back));
  const startArb = fc.oneof(
    monthEndArb,
    dateArb.map((s) => ymd(s.y, s.m, s.d)),
  );

  it('consecutive invoices cover the calendar: each starts the day after the previous ends, none is empty', () => {
    fc.assert(
      fc.property(startArb, freqArb, fc.integer({ min: 0, max: 300 }), (start, f, n) => {
        const s = { start_date: start, frequency: f };
        const p = servicePeriod(s, n);
        const next = servicePeriod(s, n + 1);
        expect(p.start).toBe(periodDate(start, f, n));
        expect(jdn(next.start) - jdn(p.end)).toBe(1);
        expect(jdn(p.end) - jdn(p.start)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('monthly from a month end: 28 to 31 days each, e.g. 31 Jan – 28 Feb in a leap year, then 29 Feb – 30 Mar', () => {
    fc.assert(
      fc.property(monthEndArb, fc.integer({ min: 0, max: 240 }), (start, n) => {
        const p = servicePeriod({ start_date: start, frequency: 'monthly' }, n);
        const days = jdn(p.end) - jdn(p.start) + 1;
        expect(days).toBeGreaterThanOrEqual(28);
        expect(days).toBeLessThanOrEqual(31);
      }),
    );
    const monthly = (n: number) => servicePeriod({ start_date: '2024-01-31', frequency: 'monthly' }, n);
    expect([0, 1, 2, 3].map(monthly)).toEqual([
      { start: '2024-01-31', end: '2024-02-28' },
      { start: '2024-02-29', end: '2024-03-30' },
      { start: '2024-03-31', end: '2024-04-29' },
      { start: '2024-04-30', end: '2024-05-30' },
    ]);
    expect(servicePeriod({ start_date: '2026-01-01', frequency: 'monthly' }, 0)).toEqual({ start: '2026-01-01', end: '2026-01-31' });
  });

  it('in a site timezone with DST: the invoices due by local today carry consecutive periods, the last one covering today', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'America/Santiago'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        // instants around the spring and autumn changes of both hemispheres (±36 hours)
        fc.integer({ min: 2020, max: 2030 }),
        fc.constantFrom(3, 4, 9, 10),
        fc.integer({ min: 24, max: 31 }),
        fc.integer({ min: -36 * 60, max: 36 * 60 }),
        monthEndArb.filter((d) => d >= '2018-01-01' && d <= '2019-12-31'),
        fc.constantFrom<Frequency>('monthly', 'quarterly', 'weekly'),
        (tz, year, month, day, minutes, start, f) => {
          const now = new Date(Date.UTC(year, month - 1, Math.min(day, 30), 1) + minutes * 60000);
          const today = siteDate(now, tz);
          expect(today).toBe(now.toLocaleDateString('sv-SE', { timeZone: tz }));
          const s = { start_date: start, frequency: f, end: { type: 'never' } as const };
          const due = periodsDue(s, 0, today);
          const periods = due.map((p) => servicePeriod(s, p.n));
          for (let i = 1; i < periods.length; i++) expect(jdn(periods[i]!.start) - jdn(periods[i - 1]!.end)).toBe(1);
          const last = periods[periods.length - 1]!;
          expect(last.start <= today && today <= last.end).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
