import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { join } from 'node:path';
import { bootKernel, RestClient, TestService, type TestUser } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { archiveDir, restSnapshot } from './support.ts';

const RATES = [0, 5.5, 7, 20] as const;

/** A line: quantity, price in cents, tax rate (or untaxed). */
const line = fc.record({
  quantity: fc.integer({ min: 1, max: 5 }),
  cents: fc.integer({ min: 1000, max: 250_000 }), // above the fixed discounts below
  rate: fc.constantFrom(...RATES),
  taxable: fc.boolean(),
});

/** An invoice and what happens to it: payments (parts of what is due), a refund, a credit note. */
const invoice = fc.record({
  client: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
  lines: fc.array(line, { minLength: 1, maxLength: 3 }),
  discount: fc.oneof(
    fc.constant(null),
    fc.record({ type: fc.constant('percent' as const), value: fc.integer({ min: 1, max: 50 }) }),
    fc.record({ type: fc.constant('fixed' as const), value: fc.integer({ min: 1, max: 5 }) }),
  ),
  draft: fc.boolean(),
  /** Each payment as a share (per mille) of what is still due. */
  payments: fc.array(fc.integer({ min: 50, max: 600 }), { maxLength: 3 }),
  /** A refund of the first payment, as a share (per mille) of it. */
  refund: fc.option(fc.integer({ min: 100, max: 1000 }), { nil: null }),
  /** A credit note, as a share (per mille) of what is due after the payments. */
  credit: fc.option(fc.integer({ min: 100, max: 1000 }), { nil: null }),
});

const history = fc.record({
  clients: fc.array(fc.stringMatching(/^[A-Z][a-z]{2,8}$/), { minLength: 3, maxLength: 3 }),
  invoices: fc.array(invoice, { minLength: 1, maxLength: 5 }),
  quotes: fc.integer({ min: 0, max: 2 }),
});

type History = typeof history extends fc.Arbitrary<infer T> ? T : never;

const cents = (v: number | string) => Math.round(Number(v) * 100);
const amount = (c: number) => (c / 100).toFixed(2);

/** Writes a generated history through the REST API; refusals (a credit note above what is due) are part of it. */
async function play(svc: TestService, admin: TestUser, h: History): Promise<number> {
  const rest = svc.rest(admin);
  const clients: number[] = [];
  for (const [i, name] of h.clients.entries()) clients.push((await svc.makeUser(`${name.toLowerCase()}${i}`, 'billing_client')).id);
  let applied = 0;
  for (const inv of h.invoices) {
    const created = await rest.post('/invoices', {
      ...(inv.client === null ? { customer_name: 'Walk-in' } : { client_id: clients[inv.client] }),
      status: inv.draft ? 'draft' : 'available',
      items: inv.lines.map((l, i) => ({
        name: `Line ${i + 1}`,
        quantity: l.quantity,
        price: amount(l.cents),
        taxable: l.taxable,
        ...(l.taxable ? { tax_rate: l.rate } : {}),
      })),
      ...(inv.discount ? { discount: inv.discount } : {}),
    });
    expect({ status: created.status, refused: created.body.message }).toEqual({ status: 201, refused: undefined });
    if (inv.draft) continue;
    let due = cents(created.body.totals.due);
    const paid: Array<{ id: number; cents: number }> = [];
    for (const share of inv.payments) {
      const c = Math.floor((due * share) / 1000);
      if (c < 1) continue;
      const p = await rest.post(`/invoices/${created.body.id}/payments`, {
        amount: amount(c),
        method: 'bank_transfer',
        status: 'completed',
      });
      expect(p.status).toBe(201);
      paid.push({ id: p.body.id, cents: c });
      due -= c;
      applied++;
    }
    if (inv.refund !== null && paid[0]) {
      const c = Math.max(1, Math.floor((paid[0].cents * inv.refund) / 1000));
      expect((await rest.post(`/payments/${paid[0].id}/refund`, { amount: amount(c), reason: 'returned' })).status).toBe(200);
      applied++;
    }
    if (inv.credit !== null && due > 0) {
      const c = Math.max(1, Math.floor((due * inv.credit) / 1000));
      const cn = await rest.post(`/invoices/${created.body.id}/credit-notes`, { amount: amount(c), reason: 'credited' });
      expect([201, 400, 409]).toContain(cn.status);
      if (cn.status === 201) applied++;
    }
  }
  for (let i = 0; i < h.quotes; i++) {
    expect((await rest.post('/quotes', { client_id: clients[i], items: [{ name: 'Offer', quantity: 2, price: '10.05' }] })).status).toBe(
      201,
    );
  }
  return applied;
}

describe('a generated history survives export and restore', () => {
  it('clients, invoices of several rates and discounts, partial payments, refunds and credit notes: every REST answer equal', async () => {
    const dir = archiveDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(history, async (h) => {
        const archive = join(dir, `run-${++run}.tar.gz`);
        const source = await new TestService({ options: { allow_partial_payments: true } }).start();
        const target = await new TestService().start();
        let restored: Awaited<ReturnType<typeof bootKernel>> | null = null;
        try {
          const admin = await source.makeUser('boss', 'administrator');
          await play(source, admin, h);
          const out = await billing(source.databaseUrl, ['export', '--output', archive, '--include-secrets']);
          expect({ code: out.code, errors: out.stderr.match(/^Error.*$/gm) }).toEqual({ code: 0, errors: null });
          const load = await billing(target.databaseUrl, ['import', archive]);
          expect({ code: load.code, errors: load.stderr.match(/^Error.*$/gm) }).toEqual({ code: 0, errors: null });
          restored = await bootKernel(target.databaseUrl);
          const before = await restSnapshot(source.rest(admin), source.kernel.config.baseUrl);
          const after = await restSnapshot(new RestClient(restored.url, admin.authorization), restored.config.baseUrl);
          expect(after).toEqual(before);
        } finally {
          await restored?.stop();
          await target.stop();
          await source.stop();
        }
      }),
      // each run starts two services and the CLI twice: a few runs, each a whole history
      { numRuns: 3, endOnFailure: true },
    );
  }, 600_000);
});
