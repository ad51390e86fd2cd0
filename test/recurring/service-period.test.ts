// The recurring addon's service periods on a real database, in a site timezone with DST (Europe/Berlin):
// from start dates at month ends, a monthly profile's invoices carry consecutive periods (each starts the
// day after the previous ends, the last covers today) and its template's placeholders expanded, checked
// against oracles of their own (no code of the product computes the expected text).
import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { siteDate } from '../../core/time/site-time.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const JOB = 'billing_generate_recurring_invoices';
const TZ = 'Europe/Berlin';
const svc = useService({ options: { timezone: TZ }, plugins: ['recurring'] });
let admin: TestUser;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** `2026-01-31` → `31 Jan 2026`: the documents' date format, written out here. */
const printed = (ymd: string) => `${Number(ymd.slice(8))} ${MONTHS[Number(ymd.slice(5, 7)) - 1]!.slice(0, 3)} ${ymd.slice(0, 4)}`;
const utcDay = (ymd: string) => Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(5, 7)) - 1, Number(ymd.slice(8)));
const daysBetween = (a: string, b: string) => (utcDay(b) - utcDay(a)) / 86400000;

async function rest(method: string, path: string, body?: unknown) {
  const res = await svc.rest(admin).request(method, path, body);
  return { status: res.status, body: res.body };
}

beforeAll(async () => {
  admin = await svc.makeUser('boss', 'administrator');
});

/** The last day of a month `back` months before the site's today (and up to 3 days before it). */
const monthEndArb = fc.record({ back: fc.integer({ min: 1, max: 14 }), early: fc.integer({ min: 0, max: 3 }) }).map(({ back, early }) => {
  const today = siteDate(new Date(), TZ);
  const last = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - back, 0));
  last.setUTCDate(last.getUTCDate() - early);
  return { start: last.toISOString().slice(0, 10), back };
});

describe('recurring invoices and their service periods', () => {
  it('monthly from a month end: consecutive periods, no gap and no overlap, and the placeholders expanded', async () => {
    await fc.assert(
      fc.asyncProperty(monthEndArb, async ({ start, back }) => {
        const today = siteDate(new Date(), TZ);
        const created = await rest('POST', '/recurring', {
          template: {
            customer_name: 'Monthly Customer',
            title: 'Hosting {month} {year}',
            items: [{ name: 'Hosting {period_start} – {period_end}', description: 'Billed for {month}, {weird}', quantity: 1, price: 25 }],
          },
          frequency: 'monthly',
          start_date: today,
        });
        expect(created.status).toBe(201);
        const id = created.body.id;
        // saved long ago, the server off since: the schedule moved back to the month end
        await svc.kernel.db.query(`update recurring_profiles set start_date = $2, next_date = $2, next_period = 0 where id = $1`, [
          id,
          start,
        ]);
        for (let run = 0; run < 3; run++) expect(await svc.kernel.jobs.runNow(JOB)).toMatchObject({ status: 'succeeded' });

        const list = await rest('GET', `/invoices?recurring_id=${id}&per_page=100&orderby=date&order=asc`);
        const invoices = list.body as Array<Record<string, any>>;
        // one per month since the start (and this month's, when its date has come)
        expect(invoices.length).toBeGreaterThanOrEqual(back);
        expect(invoices.length).toBeLessThanOrEqual(back + 1);
        expect(invoices[0]!.period_start).toBe(start);
        invoices.forEach((inv, i) => {
          expect(inv.period_start).toBe(inv.issue_date); // billed in advance, from its own date
          expect(daysBetween(inv.period_start, inv.period_end)).toBeGreaterThanOrEqual(27);
          expect(daysBetween(inv.period_start, inv.period_end)).toBeLessThanOrEqual(30);
          if (i > 0) expect(daysBetween(invoices[i - 1]!.period_end, inv.period_start)).toBe(1);
          const month = MONTHS[Number(inv.period_start.slice(5, 7)) - 1];
          expect(inv.title).toBe(`Hosting ${month} ${inv.period_start.slice(0, 4)}`);
          expect(inv.items[0].name).toBe(`Hosting ${printed(inv.period_start)} – ${printed(inv.period_end)}`);
          expect(inv.items[0].description).toBe(`Billed for ${month}, {weird}`);
        });
        const last = invoices[invoices.length - 1]!;
        expect(last.period_start <= today && today <= last.period_end).toBe(true);
        // the profile keeps its placeholders for the next period
        const profile = await rest('GET', `/recurring/${id}`);
        expect(profile.body.template.title).toBe('Hosting {month} {year}');
      }),
      { numRuns: 8 },
    );
  }, 180_000);
});
