import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { addDays, siteDate } from '../../core/time/site-time.ts';
import { useService, type RestClient, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let rest: RestClient;
let admin: TestUser;
let today: string;

/** Minor units per currency, written out here rather than taken from the money module. */
const DIGITS: Record<string, number> = { JPY: 0, EUR: 2, KWD: 3 };
const CURRENCIES = Object.keys(DIGITS);

/** An amount in minor units as the decimal text of its currency. */
const text = (minor: number, currency: string) => {
  const d = DIGITS[currency]!;
  return d === 0 ? String(minor) : (minor / 10 ** d).toFixed(d);
};
/** A JSON amount back in minor units (exact: the numbers carry at most the currency's digits). */
const minor = (n: number, currency: string) => Math.round(n * 10 ** DIGITS[currency]!);

const op = fc.oneof(
  fc.record({
    kind: fc.constant('pay' as const),
    share: fc.double({ min: 0.05, max: 1, noNaN: true }),
    after: fc.integer({ min: 0, max: 90 }),
  }),
  fc.record({ kind: fc.constant('refund' as const), share: fc.double({ min: 0.05, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('credit' as const), share: fc.double({ min: 0.05, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('cancel' as const) }),
);
const invoiceArb = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  minor: fc.integer({ min: 1, max: 5_000_000 }),
  age: fc.integer({ min: 0, max: 400 }),
  term: fc.integer({ min: 0, max: 45 }),
  draft: fc.boolean(),
  trashed: fc.boolean(),
  ops: fc.array(op, { maxLength: 5 }),
});

type InvoiceSpec = typeof invoiceArb extends fc.Arbitrary<infer T> ? T : never;

let clients = 0;
/** Every kind of line the generated histories produced: the property must have met them all. */
const seenTypes = new Set<string>();

/** Builds a client's history through the services, as staff and gateways make it; answers the client id. */
async function history(invoices: InvoiceSpec[]): Promise<{ id: number; numbers: { hidden: string[] } }> {
  clients++;
  const user = await k.identity.users.create(
    { login: `st${clients}`, email: `st${clients}@example.test`, role: 'billing_client', display_name: `Client ${clients}` },
    CLI,
  );
  const hidden: string[] = [];
  for (const spec of invoices) {
    const issue = addDays(today, -spec.age);
    const doc = await k.api.invoices.create(
      {
        items: [{ name: 'Work', quantity: 1, price: text(spec.minor, spec.currency) }],
        client_id: user.id,
        currency: spec.currency,
        issue_date: issue,
        due_date: addDays(issue, spec.term),
        status: spec.draft ? 'draft' : 'available',
      } as never,
      { actor: CLI, source: 'api' },
    );
    if (spec.draft) {
      hidden.push(doc.number);
      continue;
    }
    for (const o of spec.ops) {
      const inv = (await k.api.invoices.find(doc.id))!;
      if (inv.status === 'cancelled') break;
      const due = minor(Number(inv.totals.due), spec.currency);
      if (o.kind === 'pay' && due > 0) {
        const amount = Math.max(1, Math.floor(due * o.share));
        const date = addDays(issue, o.after) > today ? today : addDays(issue, o.after);
        await k.api.payments.record(
          doc.id,
          { amount: text(amount, spec.currency), method: 'bank_transfer', status: 'completed', date },
          CLI,
        );
      } else if (o.kind === 'refund') {
        const [p] = await k.db.query<{ id: string; left: string }>(
          `select id, (amount - refunded)::text as left from billing_payments where invoice_id = $1 and amount > refunded order by id desc limit 1`,
          [doc.id],
        );
        if (!p) continue;
        const left = minor(Number(p.left), spec.currency);
        await k.api.payments.refund(
          Number(p.id),
          { amount: text(Math.max(1, Math.floor(left * o.share)), spec.currency), reason: 'Returned' },
          CLI,
        );
      } else if (o.kind === 'credit' && due > 0) {
        const amount = Math.max(1, Math.floor(due * o.share));
        await k.api.creditNotes.create(doc.id, { amount: text(amount, spec.currency), reason: 'Goodwill' }, CLI);
      } else if (o.kind === 'cancel' && minor(Number(inv.totals.paid), spec.currency) === 0) {
        await k.api.payments.cancelInvoice(doc.id, CLI, 'Ordered twice');
      }
    }
    if (spec.trashed) {
      await k.db.query('update billing_documents set trashed_at = now() where id = $1', [doc.id]);
      hidden.push(doc.number);
    }
  }
  return { id: user.id, numbers: { hidden } };
}

async function statement(id: number, query: string) {
  const res = await rest.as(admin.authorization).get(`/clients/${id}/statement?${query}`);
  expect(res.status).toBe(200);
  return res.body as {
    currency: string;
    from: string;
    to: string;
    opening_balance: number;
    closing_balance: number;
    lines: { date: string; type: string; number: string; debit: number; credit: number; balance: number }[];
    aging: Record<string, number>;
  };
}

beforeAll(async () => {
  k = svc.kernel;
  rest = svc.rest();
  admin = await svc.makeUser('boss', 'administrator');
  today = siteDate(new Date(), await k.options.get('timezone'));
});

describe('statement of account', () => {
  it('opening + debits − credits = closing, closing = totals.due, aging sums to it, in JPY, EUR and KWD', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(invoiceArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 400 }), async (invoices, cut) => {
        const { id, numbers } = await history(invoices);
        const client = (await rest.as(admin.authorization).get(`/clients/${id}`)).body as {
          totals_by_currency: Record<string, { due: number }>;
        };
        for (const currency of CURRENCIES) {
          const from = `${Number(today.slice(0, 4)) - 2}-01-01`;
          const whole = await statement(id, `currency=${currency}&from=${from}`);
          const m = (n: number) => minor(n, currency);
          expect(whole.opening_balance).toBe(0); // nothing is older than two years
          let balance = m(whole.opening_balance);
          for (const line of whole.lines) {
            seenTypes.add(line.type);
            expect(line.date >= whole.from && line.date <= whole.to).toBe(true);
            expect(numbers.hidden).not.toContain(line.number);
            balance += m(line.debit) - m(line.credit);
            expect(m(line.balance)).toBe(balance);
          }
          expect(m(whole.closing_balance)).toBe(balance);
          expect(m(whole.closing_balance)).toBe(m(client.totals_by_currency[currency]?.due ?? 0));
          expect(Object.values(whole.aging).reduce((s, v) => s + m(v), 0)).toBe(m(whole.closing_balance));
          expect(whole.lines.map((l) => l.date)).toEqual(whole.lines.map((l) => l.date).sort());

          // a later period opens where the whole one stood the day before it
          const start = addDays(today, -cut);
          const part = await statement(id, `currency=${currency}&from=${start}`);
          const before = whole.lines.filter((l) => l.date < start);
          expect(m(part.opening_balance)).toBe(before.length ? m(before[before.length - 1]!.balance) : 0);
          expect(part.lines).toEqual(whole.lines.filter((l) => l.date >= start));
          expect(m(part.closing_balance)).toBe(m(whole.closing_balance));
        }
      }),
      {
        numRuns: 12,
        // one history known to hold every kind of line, besides the generated ones
        examples: [
          [
            [
              {
                currency: 'KWD',
                minor: 1_234_567,
                age: 120,
                term: 30,
                draft: false,
                trashed: false,
                ops: [
                  { kind: 'pay', share: 0.5, after: 10 },
                  { kind: 'refund', share: 0.3 },
                  { kind: 'credit', share: 0.2 },
                ],
              },
              { currency: 'JPY', minor: 98_765, age: 40, term: 14, draft: false, trashed: false, ops: [{ kind: 'cancel' }] },
              { currency: 'EUR', minor: 10_000, age: 5, term: 0, draft: true, trashed: false, ops: [] },
            ],
            60,
          ],
        ],
      },
    );
    expect([...seenTypes].sort()).toEqual(['credit_note', 'invoice', 'payment', 'refund']);
  });

  it('asks for a currency when the client has invoices in several, and refuses a period that ends before it starts', async () => {
    const { id } = await history([
      { currency: 'EUR', minor: 1000, age: 1, term: 0, draft: false, trashed: false, ops: [] },
      { currency: 'JPY', minor: 1000, age: 1, term: 0, draft: false, trashed: false, ops: [] },
    ]);
    const many = await rest.as(admin.authorization).get(`/clients/${id}/statement`);
    expect([many.status, many.body.code, many.body.data.params.currency]).toEqual([
      400,
      'rest_invalid_param',
      expect.stringContaining('EUR, JPY'),
    ]);
    const reversed = await rest.as(admin.authorization).get(`/clients/${id}/statement?currency=EUR&from=${today}&to=${addDays(today, -1)}`);
    expect(reversed.status).toBe(400);
    const one = await statement(id, 'currency=JPY');
    expect([one.from, one.to, one.closing_balance, one.lines.map((l) => [l.type, l.debit])]).toEqual([
      `${today.slice(0, 4)}-01-01`,
      today,
      today.endsWith('-01-01') ? 0 : 1000,
      today.endsWith('-01-01') ? [] : [['invoice', 1000]],
    ]);
  });
});
