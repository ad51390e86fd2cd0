import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { siteDate, addDays } from '../../core/time/site-time.ts';
import { InvoiceService } from '../../core/documents/invoice-service.ts';
import type { DocumentInput } from '../../core/documents/document-schema.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { services, type Services } from '../helpers/services.ts';

let tdb: TestDatabase;
let s: Services;
let other: Services;
let invoices: InvoiceService;

const ctx = { actor: CLI, source: 'api' as const };
const item = (over: Partial<DocumentInput['items'][number]> = {}) => ({ name: 'Consulting', quantity: 2, price: 150, ...over });
const numbers = async () =>
  (await s.db.query<{ number: string }>(`select number from billing_documents where kind = 'invoice' order by number`)).map(
    (r) => r.number,
  );
const sequence = async () =>
  (await s.db.query<{ v: string }>(`select next_value::text as v from billing_sequences where kind = 'invoice'`))[0]!.v;

beforeAll(async () => {
  tdb = await freshDatabase();
  s = await services(tdb.url);
  other = await services(tdb.url);
  invoices = new InvoiceService(s);
});

afterAll(async () => {
  await s?.db.close();
  await other?.db.close();
  await tdb?.drop();
});

describe('creating invoices', () => {
  beforeEach(async () => {
    await s.db.query(`delete from billing_documents`);
    await s.db.query(`update billing_sequences set next_value = 1`);
    await s.options.delete('next_invoice_number', CLI);
    await s.options.delete('tax_rate', CLI);
  });

  it('numbers from the sequence, fills defaults, computes exact totals, fires the action after commit', async () => {
    const heard: unknown[] = [];
    const off = s.hooks.addAction('billing_invoice_created', async (id, inv, c) => {
      // after commit: another connection sees the row
      const seen = await other.db.query('select number from billing_documents where id = $1', [id]);
      heard.push([inv.number, c.source, seen]);
    });
    await s.options.set('tax_rate', 20, CLI);
    const inv = await invoices.create(
      { items: [item({ quantity: 3, price: 19.99 }), item({ name: 'Book', quantity: 1, price: 10, taxable: false })] },
      ctx,
    );
    off();
    expect(inv).toMatchObject({
      number: 'INV-0001',
      status: 'draft',
      currency: 'USD',
      kind: 'invoice',
      issueDate: siteDate(new Date(), 'UTC'),
      dueDate: addDays(siteDate(new Date(), 'UTC'), 30),
      totals: { subtotal: '69.97', discount: '0.00', tax: '11.99', total: '81.96', paid: '0.00', credited: '0.00', due: '81.96' },
      tax: { category: 'standard', rate: '20' },
    });
    expect(inv.items.map((i) => i.amount)).toEqual(['59.97', '10.00']);
    expect(JSON.stringify(inv)).not.toMatch(/access/i);
    expect(heard).toEqual([['INV-0001', 'api', [{ number: 'INV-0001' }]]]);
  });

  it('never repeats or skips a number under 60 concurrent creations on two instances', async () => {
    const theirs = new InvoiceService(other);
    await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? invoices : theirs).create({ items: [item()] }, ctx)));
    expect(await numbers()).toEqual(Array.from({ length: 60 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));
  });

  it('gives back the number of a creation that rolls back', async () => {
    await invoices.create({ items: [item()] }, ctx);
    // a trigger that fails the insert after the number was taken, inside the same transaction
    await s.db.query(`create or replace function fail_titled() returns trigger language plpgsql as $$
      begin if new.title = 'fail' then raise exception 'refused by trigger'; end if; return new; end $$`);
    await s.db.query(`create trigger fail_titled before insert on billing_documents for each row execute function fail_titled()`);
    try {
      await expect(invoices.create({ items: [item()], title: 'fail' }, ctx)).rejects.toThrow(/refused by trigger/);
    } finally {
      await s.db.query('drop trigger fail_titled on billing_documents');
    }
    await invoices.create({ items: [item()] }, ctx);
    expect(await numbers()).toEqual(['INV-0001', 'INV-0002']);
  });

  it('takes a given number without consuming the sequence, and refuses one in use', async () => {
    await invoices.create({ items: [item()], number: 'LEGACY-7' }, ctx);
    await expect(invoices.create({ items: [item()], number: 'LEGACY-7' }, ctx)).rejects.toMatchObject({
      code: 'billing_rest_number_taken',
      status: 400,
    });
    await invoices.create({ items: [item()] }, ctx);
    expect(await numbers()).toEqual(['INV-0001', 'LEGACY-7']);
  });

  it('moves the sequence forward to next_invoice_number, never back', async () => {
    await invoices.create({ items: [item()] }, ctx);
    await s.options.set('next_invoice_number', 100, CLI);
    await invoices.create({ items: [item()] }, ctx);
    await invoices.create({ items: [item()] }, ctx);
    await s.options.set('next_invoice_number', 5, CLI);
    await invoices.create({ items: [item()] }, ctx);
    expect(await numbers()).toEqual(['INV-0001', 'INV-0100', 'INV-0101', 'INV-0102']);
  });

  it('refuses bad input with a 400 and writes nothing', async () => {
    const bad: Array<[DocumentInput, string, string]> = [
      [{ items: [item()], discount: { type: 'fixed', value: 301 } }, 'rest_invalid_param', 'discount'],
      [{ items: [item({ quantity: 0 })] }, 'rest_invalid_param', 'items'],
      [{ items: [item({ price: -1 })] }, 'rest_invalid_param', 'items'],
      [{ items: [item({ price: 1.23456 })] }, 'rest_invalid_param', 'items'],
      [{ items: [item()], issue_date: '2026-05-10', due_date: '2026-05-09' }, 'rest_invalid_param', 'due_date'],
      [{ items: [item()], currency: 'XYZ' }, 'rest_invalid_param', 'currency'],
      [{ items: [item()], status: 'paid' as never }, 'rest_invalid_param', 'status'],
      [{ items: [item()], client_id: 987654 }, 'billing_rest_no_client', 'client_id'],
    ];
    for (const [input, code, param] of bad) {
      const err = await invoices.create(input, ctx).then(
        () => null,
        (e) => e,
      );
      expect({ code: err?.code, param: Object.keys(err?.data?.params ?? {})[0] }).toEqual({ code, param });
      expect(err.status).toBe(400);
    }
    expect(await numbers()).toEqual([]);
    expect(await sequence()).toBe('1');
  });

  it('spreads a discount and taxes only taxable lines, in any currency', async () => {
    await s.options.set('tax_rate', 10, CLI);
    const inv = await invoices.create(
      {
        currency: 'JPY',
        discount: { type: 'percent', value: 10 },
        items: [item({ quantity: 1, price: 1000 }), item({ quantity: 3, price: 333, taxable: false })],
      },
      ctx,
    );
    expect(inv.totals).toMatchObject({ subtotal: '1999', discount: '200', tax: '90', total: '1889' });
  });
});

describe('reading and trashing invoices', () => {
  beforeAll(() => s.options.delete('tax_rate', CLI));

  it('trashes (410 the second time), hides from get and lists, restores', async () => {
    const inv = await invoices.create({ items: [item()], status: 'available' }, ctx);
    await invoices.trash(inv.id, CLI);
    await expect(invoices.get(inv.id)).rejects.toMatchObject({ code: 'billing_rest_not_found', status: 404 });
    await expect(invoices.trash(inv.id, CLI)).rejects.toMatchObject({ code: 'billing_rest_already_trashed', status: 410 });
    expect((await invoices.list({ page: 1, per_page: 100 })).items.map((i) => i.id)).not.toContain(inv.id);
    const back = await invoices.restore(inv.id, CLI);
    expect(back.status).toBe('available');
    expect((await invoices.get(inv.id)).status).toBe('available');
  });

  it('answers 404 for an id of another kind or none', async () => {
    await s.db.query(
      `insert into billing_documents (kind, number, status, currency, issue_date, access_key) values ('quote', 'QUO-9', 'draft', 'USD', '2026-01-01', 'k-quote-9')`,
    );
    const [{ id }] = await s.db.query<{ id: string }>(`select id from billing_documents where number = 'QUO-9'`);
    await expect(invoices.get(Number(id))).rejects.toMatchObject({ code: 'billing_rest_not_found' });
    await expect(invoices.get(99999999)).rejects.toMatchObject({ code: 'billing_rest_not_found' });
  });

  it('locks an issued invoice except its notes', async () => {
    const draft = await invoices.create({ items: [item()] }, ctx);
    const edited = await invoices.update(draft.id, { items: [item({ quantity: 5 })], status: 'available' }, CLI);
    expect(edited).toMatchObject({ status: 'available', totals: { total: '750.00' } });
    await expect(invoices.update(draft.id, { items: [item({ quantity: 6 })] }, CLI)).rejects.toMatchObject({
      code: 'billing_rest_invalid_state',
      status: 409,
    });
    const noted = await invoices.update(
      draft.id,
      { items: [item({ quantity: 5 })], notes: 'Paid by cheque soon', issue_date: edited.issueDate, due_date: edited.dueDate! },
      CLI,
    );
    expect(noted).toMatchObject({ notes: 'Paid by cheque soon', status: 'available', totals: { total: '750.00' } });
  });
});

describe('listing invoices', () => {
  beforeAll(async () => {
    await s.db.query(`delete from billing_documents`);
    const mk = (over: Partial<DocumentInput>) => invoices.create({ items: [item()], ...over }, ctx);
    await mk({
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.org',
      issue_date: '2026-01-05',
      due_date: '2026-01-20',
      status: 'available',
    });
    await mk({
      customer_name: 'Grace Hopper',
      title: 'Compiler work',
      issue_date: '2026-02-01',
      due_date: '2026-02-10',
      items: [item({ price: 200 })],
    });
    await mk({
      customer_name: 'Édith Piaf',
      issue_date: '2026-03-01',
      due_date: '2099-03-31',
      status: 'available',
      items: [item({ price: 1 })],
    });
  });

  it('searches number, title, customer name and e-mail, case-insensitively', async () => {
    const names = async (search: string) => (await invoices.list({ page: 1, per_page: 10, search })).items.map((i) => i.customer.name);
    expect(await names('ADA@EXAMPLE')).toEqual(['Ada Lovelace']);
    expect(await names('compiler')).toEqual(['Grace Hopper']);
    expect(await names('édith')).toEqual(['Édith Piaf']);
    expect(await names('100%')).toEqual([]);
  });

  it('filters by status, dates and overdue, and orders', async () => {
    const q = async (over: object) => (await invoices.list({ page: 1, per_page: 10, ...over })).items.map((i) => i.customer.name);
    expect(await q({ status: ['available'] })).toEqual(['Édith Piaf', 'Ada Lovelace']);
    expect(await q({ after: '2026-01-05', before: '2026-03-01' })).toEqual(['Grace Hopper']);
    expect(await q({ overdue: true })).toEqual(['Ada Lovelace']);
    expect(await q({ orderby: 'total', order: 'asc' })).toEqual(['Édith Piaf', 'Ada Lovelace', 'Grace Hopper']);
  });

  it('pages with an exact total', async () => {
    const page2 = await invoices.list({ page: 2, per_page: 2 });
    expect(page2.total).toBe(3);
    expect(page2.items.map((i) => i.customer.name)).toEqual(['Ada Lovelace']);
  });
});
