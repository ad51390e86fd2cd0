// Instalment schedules are exact: any split in JPY (no minor unit), USD (2) and KWD (3) sums to the
// total to the minor unit, and money received fills the instalments oldest first.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Money, type CurrencyCode } from '../money/index.ts';
import { instalmentStates, resolveSchedule, type InstalmentInput } from './instalments.ts';

const CURRENCIES: CurrencyCode[] = ['JPY', 'USD', 'KWD'];
const ISSUE = '2026-01-01';
const date = (n: number) => `2026-${String(1 + Math.floor(n / 28)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;

/** Percents of up to 4 decimals that add up to exactly 100: cuts of 1 000 000 ten-thousandths. */
const percentsArb = fc.uniqueArray(fc.integer({ min: 1, max: 999_999 }), { minLength: 0, maxLength: 11 }).map((cuts) => {
  const points = [0, ...cuts.sort((a, b) => a - b), 1_000_000];
  return points.slice(1).map((p, i) => ((p - points[i]!) / 10_000).toFixed(4));
});

const caseArb = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  minor: fc.bigInt({ min: 1n, max: 10_000_000_000n }),
  percents: percentsArb,
});

const schedule = (percents: string[]): InstalmentInput[] => percents.map((percent, i) => ({ due_date: date(i * 20), percent }));

describe('instalment schedules', () => {
  it('split any total by percents into whole minor units that sum exactly to it, each within one unit of its share', () => {
    fc.assert(
      fc.property(caseArb, ({ currency, minor, percents }) => {
        const total = Money.fromMinor(minor, currency);
        const out = resolveSchedule(schedule(percents), total, ISSUE)!;
        const amounts = out.map((s) => Money.parse(s.amount, currency));
        expect(Money.sum(amounts, currency).equals(total)).toBe(true);
        amounts.forEach((a, i) => {
          // |amount − total × p / 100| < one minor unit
          const exact = total.toDecimal().times(percents[i]!);
          const gap = a.toDecimal().times(100).minus(exact).abs();
          expect(gap.compare(Money.fromMinor(100n, currency).toDecimal())).toBe(-1);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('take a fixed deposit and percents of the total that account for the rest exactly', () => {
    const total = Money.parse('1000.00', 'USD');
    expect(
      resolveSchedule(
        [
          { due_date: '2026-01-01', amount: '100.00' },
          { due_date: '2026-02-01', percent: 45 },
          { due_date: '2026-03-01', percent: 45 },
        ],
        total,
        ISSUE,
      ),
    ).toEqual([
      { due_date: '2026-01-01', amount: '100.00' },
      { due_date: '2026-02-01', amount: '450.00' },
      { due_date: '2026-03-01', amount: '450.00' },
    ]);
    // thirds of 100 yen: the remainder yen goes to one instalment, none is lost
    const yen = resolveSchedule(schedule(['33.3333', '33.3333', '33.3334']), Money.parse('100', 'JPY'), ISSUE)!;
    expect(yen.map((s) => s.amount)).toEqual(['33', '33', '34']);
  });

  it.each([
    [
      'amounts short of the total',
      [
        { due_date: '2026-01-10', amount: '500' },
        { due_date: '2026-02-10', amount: '499.99' },
      ],
      /sum exactly/,
    ],
    [
      'percents short of 100',
      [
        { due_date: '2026-01-10', percent: 50 },
        { due_date: '2026-02-10', percent: 49 },
      ],
      /sum exactly/,
    ],
    ['a date before the issue date', [{ due_date: '2025-12-31', amount: '1000' }], /before the issue date/],
    [
      'dates out of order',
      [
        { due_date: '2026-02-10', amount: '500' },
        { due_date: '2026-01-10', amount: '500' },
      ],
      /date order/,
    ],
    ['an instalment with both', [{ due_date: '2026-01-10', amount: '1000', percent: 100 }], /either an amount or a percent/],
    [
      'more decimals than the currency has',
      [
        { due_date: '2026-01-10', amount: '999.999' },
        { due_date: '2026-01-11', amount: '0.001' },
      ],
      /not an amount/,
    ],
  ])('refuse %s with a 400 naming schedule', (_, input, message) => {
    let err: any;
    try {
      resolveSchedule(input as InstalmentInput[], Money.parse('1000.00', 'USD'), ISSUE);
    } catch (e) {
      err = e;
    }
    expect([err?.code, Object.keys(err?.data?.params ?? {})]).toEqual(['rest_invalid_param', ['schedule']]);
    expect(err.message).toMatch(message);
  });

  it('fill the instalments oldest first under any sequence of partial payments', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.array(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 12 }),
        ({ currency, minor, percents }, weights) => {
          const total = Money.fromMinor(minor, currency);
          const plan = resolveSchedule(schedule(percents), total, ISSUE)!;
          // payments that add up to at most the total, received one after another
          const payments = total.allocate([...weights, weights.length]).slice(0, -1);
          let received = Money.zero(currency);
          for (const p of payments) {
            received = received.plus(p);
            const states = instalmentStates(plan, received.toString(), currency, '2000-01-01');
            const paid = states.map((s) => Money.parse(s.paid, currency));
            expect(Money.sum(paid, currency).equals(received)).toBe(true);
            // nothing is paid of an instalment while an earlier one still has something due
            const firstOpen = states.findIndex((s) => s.status !== 'paid');
            if (firstOpen >= 0) states.slice(firstOpen + 1).forEach((s) => expect(s.paid).toBe(Money.zero(currency).toString()));
            states.forEach((s, i) =>
              expect(Money.parse(s.paid, currency).plus(Money.parse(s.due, currency)).toString()).toBe(plan[i]!.amount),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
