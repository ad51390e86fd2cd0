// CSV import over REST and the CLI: each product's preset on files in the shape of its real export
// (test/fixtures/csv/, invented data), a preview that writes nothing, re-importing that creates
// nothing, totals checked against the lines, decimal commas, Windows-1252, the sequence moved past
// imported numbers without being wedged by them, and the route's own 50 MiB body limit.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';
import { ImportRowError, type ImportResource } from '../../core/plugin-api.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService();
const FIXTURES = join(import.meta.dirname, '../fixtures/csv');
let admin: TestUser;

beforeAll(async () => {
  admin = await svc.makeUser('importer', 'administrator');
}, 60_000);

afterAll(() => closeBoundedWorkers());

const fixture = (name: string) => readFileSync(join(FIXTURES, name));

async function preview(body: Buffer | string, resource: string, preset?: string, user: TestUser = admin) {
  const q = new URLSearchParams({ resource, ...(preset ? { preset } : {}) });
  return svc.rest(user).post(`/imports?${q}`, { raw: body, type: 'text/csv' });
}

/** Previews and commits a file; answers the finished import (following it when the commit answers 202). */
async function importCsv(body: Buffer | string, resource: string, preset?: string, commit: Record<string, unknown> = {}) {
  const p = await preview(body, resource, preset);
  expect(p.status).toBe(201);
  const c = await svc.rest(admin).post(`/imports/${p.body.id}/commit`, commit);
  expect([200, 202]).toContain(c.status);
  if (c.status === 200) return c.body;
  return waitFor(
    async () => {
      const s = await svc.rest(admin).get(`/imports/${p.body.id}`);
      return s.body.status === 'done' || s.body.status === 'failed' ? s.body : null;
    },
    { timeoutMs: 120_000, what: 'the import to finish' },
  );
}

async function invoice(number: string) {
  const list = await svc.rest(admin).get(`/invoices?search=${encodeURIComponent(number)}&per_page=100`);
  return (list.body as Array<Record<string, any>>).find((i) => i.number === number) ?? null;
}

async function counts() {
  const [r] = await svc.kernel.db.query<{ docs: string; users: string; payments: string }>(
    `select (select count(*) from billing_documents) as docs, (select count(*) from billing_users) as users,
            (select count(*) from billing_payments) as payments`,
  );
  return r;
}

describe('preview', () => {
  it('answers columns, a proposed mapping and the first rows, and writes nothing else', async () => {
    const before = await counts();
    const res = await preview(fixture('freshbooks-invoices.csv'), 'invoices', 'freshbooks');
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`/wp-json/billing/v1/imports/${res.body.id}$`));
    expect(res.body).toMatchObject({ resource: 'invoices', preset: 'freshbooks', rows: 3, errors: [] });
    expect(res.body.columns).toContain('Invoice #');
    expect(res.body.mapping).toMatchObject({ 'Invoice #': 'number', Rate: 'item_price', 'Tax 1 Type': null });
    expect(res.body.sample[0]).toMatchObject({ number: '0000101', customer_name: 'Maple Studio', item_price: '450.00' });
    expect(await counts()).toEqual(before);
    const state = await svc.rest(admin).get(`/imports/${res.body.id}`);
    expect(state.body).toMatchObject({ status: 'previewed', progress: 0, created: 0 });
  });

  it('matches columns by name without a preset (case, spaces and _ aside; synonyms)', async () => {
    const csv = 'Invoice_Number,CLIENT NAME,Qty,Unit Price,Something Else\nA-1,Jo,1,5\n';
    const res = await preview(csv, 'invoices');
    expect(res.body.mapping).toEqual({
      Invoice_Number: 'number',
      'CLIENT NAME': 'customer_name',
      Qty: 'item_quantity',
      'Unit Price': 'item_price',
      'Something Else': null,
    });
  });

  it("lists the first rows' problems, checked as the commit will (an invoice's rows together)", async () => {
    const csv =
      'number,customer_name,item_name,item_quantity,item_price,date\nP-1,A,One,1,5,2024-01-01\nP-1,A,Two,x,5,2024-01-01\nP-2,B,Three,1,5,2024-13-40\n';
    const res = await preview(csv, 'invoices');
    expect(res.body.errors).toEqual([
      { row: 1, column: 'item_quantity', message: expect.stringMatching(/item_quantity: "x" is not an amount/) },
      { row: 3, column: 'date', message: expect.stringMatching(/date: "2024-13-40" is not a date/) },
    ]);
  });

  it('refuses an unknown resource or preset, and a file that is no CSV', async () => {
    expect((await preview('a,b\n1,2\n', 'spaceships')).body.code).toBe('rest_invalid_param');
    expect((await preview('a,b\n1,2\n', 'clients', 'quickbooks')).body.code).toBe('rest_invalid_param');
    const empty = await preview('', 'clients');
    expect(empty).toMatchObject({ status: 400, body: { code: 'billing_import_unreadable' } });
  });

  it('is for bill_manage_settings only', async () => {
    const editor = await svc.makeUser('import-editor', 'editor');
    const res = await preview('name,email\nA,a@example.com\n', 'clients', undefined, editor);
    expect(res.status).toBe(403);
  });

  it('takes up to 50 MiB and refuses more with 413, storing nothing', async () => {
    const [{ n: before }] = await svc.kernel.db.query<{ n: string }>('select count(*) as n from billing_imports');
    const head = 'name,email,company\n';
    const line = 'Someone,someone@example.com,Big file\n';
    const over = head + line.repeat(Math.ceil((50 * 1024 * 1024) / line.length) + 1);
    const res = await preview(over, 'clients');
    expect(res).toMatchObject({ status: 413, body: { code: 'rest_payload_too_large' } });
    const [{ n: after }] = await svc.kernel.db.query<{ n: string }>('select count(*) as n from billing_imports');
    expect(after).toBe(before);
  }, 120_000);
});

describe('presets on files shaped as each product exports', () => {
  it('Invoice Ninja: clients, invoices (partial, paid, draft), payments; the title block above the header passed over', async () => {
    const clients = await importCsv(fixture('invoice-ninja-clients.csv'), 'clients', 'invoice-ninja');
    expect(clients).toMatchObject({ status: 'done', created: 2, failed: [] });
    const invoices = await importCsv(fixture('invoice-ninja-invoices.csv'), 'invoices', 'invoice-ninja');
    expect(invoices).toMatchObject({ status: 'done', created: 3, updated: 0, skipped: 0, failed: [] });
    const partial = await invoice('0001');
    expect(partial).toMatchObject({
      status: 'partial',
      totals: { total: 150, paid: 50, due: 100 },
      issue_date: '2024-01-10',
      due_date: '2024-02-09',
    });
    expect(partial!.items).toHaveLength(2);
    const birch = await svc.rest(admin).get('/clients?search=accounts%40birch.example');
    expect(birch.body).toEqual([
      expect.objectContaining({ id: partial!.client_id, name: 'Birch & Co', country: 'GB', vat: 'GB123456789' }),
    ]);
    const paid = await invoice('0002');
    expect(paid).toMatchObject({ status: 'paid', totals: { total: 1200, due: 0 }, title: 'PO-77' });
    const payments = await svc.rest(admin).get(`/invoices/${paid!.id}/payments`);
    expect(payments.body).toEqual([expect.objectContaining({ method: 'manual', status: 'completed', amount: 1200 })]);
    expect(payments.body[0].date).toMatch(/^2024-01-15 /);
    expect(await invoice('0003')).toMatchObject({ status: 'draft', totals: { total: 80 } });
    // a payment against a draft is refused, and said so, row by row
    const pays = await importCsv(fixture('invoice-ninja-payments.csv'), 'payments', 'invoice-ninja');
    expect(pays).toMatchObject({ created: 0, failed: [{ row: 1, message: expect.stringMatching(/draft/i) }] });
  });

  it('FreshBooks: clients by organization, invoices found their clients by name; paid on the date paid', async () => {
    expect(await importCsv(fixture('freshbooks-clients.csv'), 'clients', 'freshbooks')).toMatchObject({ created: 2, failed: [] });
    const result = await importCsv(fixture('freshbooks-invoices.csv'), 'invoices', 'freshbooks');
    expect(result).toMatchObject({ created: 2, failed: [] });
    const sent = await invoice('0000101');
    expect(sent).toMatchObject({ status: 'available', totals: { total: 700 }, currency: 'USD', customer: { email: 'iris@maple.example' } });
    const paid = await invoice('0000102');
    expect(paid).toMatchObject({ status: 'paid', totals: { total: 300 } });
    const payments = await svc.rest(admin).get(`/invoices/${paid!.id}/payments`);
    expect(payments.body[0].date).toMatch(/^2024-03-20 /);
  });

  it('Wave: the ledger lines make the invoices; the receivable and payment rows are left out', async () => {
    expect(await importCsv(fixture('wave-clients.csv'), 'clients', 'wave')).toMatchObject({ created: 2, failed: [] });
    const result = await importCsv(fixture('wave-invoices.csv'), 'invoices', 'wave');
    expect(result).toMatchObject({ created: 2, failed: [] });
    const seven = await invoice('7');
    expect(seven).toMatchObject({ status: 'available', totals: { total: 200 }, customer: { email: 'hello@oakbakery.example' } });
    expect(seven!.items.map((i: { name: string }) => i.name)).toEqual([
      'Oak Street Bakery - 7 - Website hosting',
      'Oak Street Bakery - 7 - Maintenance',
    ]);
    expect(await invoice('8')).toMatchObject({ totals: { total: 45.5 } });
  });

  it('Zoho Invoice: contacts, invoices with balance (partly paid), line totals checked, EUR', async () => {
    expect(await importCsv(fixture('zoho-contacts.csv'), 'clients', 'zoho')).toMatchObject({ created: 1, failed: [] });
    const result = await importCsv(fixture('zoho-invoices.csv'), 'invoices', 'zoho');
    expect(result).toMatchObject({ created: 3, failed: [] });
    expect(await invoice('INV-000001')).toMatchObject({
      status: 'draft',
      totals: { total: 89.5 },
      currency: 'EUR',
      notes: 'Thanks for your business.',
    });
    expect(await invoice('INV-000002')).toMatchObject({ status: 'partial', totals: { paid: 50, due: 100 } });
    expect(await invoice('INV-000003')).toMatchObject({ status: 'paid', totals: { paid: 190 } });
  });
});

describe('re-importing and checking', () => {
  it('imports the same file twice: the second time creates nothing', async () => {
    const file = fixture('invoice-ninja-invoices.csv')
      .toString()
      .replace(/\b000([123])\b/g, 'R-00$1')
      .replace(/@(birch|harbor)/g, '@again-$1');
    const first = await importCsv(file, 'invoices', 'invoice-ninja');
    expect(first).toMatchObject({ created: 3, failed: [] });
    const before = await counts();
    const second = await importCsv(file, 'invoices', 'invoice-ninja');
    expect(second).toMatchObject({ status: 'done', created: 0, updated: 0, skipped: 3, failed: [] });
    expect(await counts()).toEqual(before);
    // a changed draft is updated; a changed issued invoice is reported and left alone
    const changed = file.replace('Support,Hourly,40,2', 'Support,Hourly,40,3').replace('Design,Logo and colours', 'Design,Another logo');
    const third = await importCsv(changed, 'invoices', 'invoice-ninja');
    expect(third).toMatchObject({
      created: 0,
      updated: 1,
      skipped: 1,
      failed: [{ row: 3, message: expect.stringMatching(/R-002.*issued/) }],
    });
    expect(await invoice('R-003')).toMatchObject({ status: 'draft', totals: { subtotal: 120 } });
    expect((await invoice('R-002'))!.items[0].description).toBe('Logo and colours');
  });

  it('clients twice: matched by e-mail, nothing doubled', async () => {
    const csv = 'name,email,country\nTwice Ltd,twice@example.com,FR\n';
    expect(await importCsv(csv, 'clients')).toMatchObject({ created: 1 });
    expect(await importCsv(csv, 'clients')).toMatchObject({ created: 0, skipped: 1 });
    expect(await importCsv(csv.replace('FR', 'DE'), 'clients')).toMatchObject({ created: 0, updated: 1 });
  });

  it('payments twice: matched by transaction id', async () => {
    await importCsv('number,status,customer_name,item_name,item_price\nPAY-1,available,Payer,Work,100\n', 'invoices');
    const csv = 'invoice_number,amount,date,transaction_id\nPAY-1,40,2024-06-01,BANK-991\n';
    expect(await importCsv(csv, 'payments')).toMatchObject({ created: 1, failed: [] });
    expect(await importCsv(csv, 'payments')).toMatchObject({ created: 0, skipped: 1, failed: [] });
    expect(await invoice('PAY-1')).toMatchObject({ status: 'partial', totals: { paid: 40 } });
  });

  it('a total that disagrees with the lines is a row error, and that invoice is not created', async () => {
    const csv = [
      'number,customer_name,item_name,item_quantity,item_price,total',
      'T-1,Right,Work,2,10.00,20.00',
      'T-2,Wrong,Work,2,10.00,21.00',
      'T-3,Rounded,Work,3,0.333,1.00',
    ].join('\n');
    const result = await importCsv(csv, 'invoices');
    expect(result).toMatchObject({ created: 2, failed: [{ row: 2, message: expect.stringMatching(/total.*21\.00.*20\.00/) }] });
    expect(await invoice('T-2')).toBeNull();
    expect(await invoice('T-3')).toMatchObject({ totals: { total: 1 } });
  });

  it('reads decimal commas in a semicolon file, and dates written d.m.Y', async () => {
    const csv =
      'Rechnungsnummer;Kunde;Artikel;Menge;Einzelpreis;Datum\nDE-1;Müller GmbH;Beratung;1;1.234,50;03.02.2024\nDE-1;Müller GmbH;Reise;2;10,25;03.02.2024\n';
    const p = await preview(csv, 'invoices');
    expect(p.body.columns).toEqual(['Rechnungsnummer', 'Kunde', 'Artikel', 'Menge', 'Einzelpreis', 'Datum']);
    const c = await svc.rest(admin).post(`/imports/${p.body.id}/commit`, {
      decimal_separator: ',',
      date_format: 'd.m.Y',
      mapping: {
        Rechnungsnummer: 'number',
        Kunde: 'customer_name',
        Artikel: 'item_name',
        Menge: 'item_quantity',
        Einzelpreis: 'item_price',
        Datum: 'date',
      },
    });
    const done =
      c.status === 200
        ? c.body
        : await waitFor(async () => ((await svc.rest(admin).get(`/imports/${p.body.id}`)).body.status === 'done' ? true : null));
    expect(done).toBeTruthy();
    expect(await invoice('DE-1')).toMatchObject({
      totals: { subtotal: 1255 },
      issue_date: '2024-02-03',
      customer: { name: 'Müller GmbH' },
    });
  });

  it('reads a Windows-1252 file (as Excel saves it), tab-separated, with a UTF-8 BOM elsewhere', async () => {
    const cp1252 = Buffer.concat([
      Buffer.from('name\temail\n'),
      Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x4e, 0x6f, 0xeb, 0x6c]),
      Buffer.from('\tcafe@example.com\n'),
    ]);
    expect(await importCsv(cp1252, 'clients')).toMatchObject({ created: 1, failed: [] });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name,email\n"Zoë, ""the"" Studio",zoe@example.com\n')]);
    const p = await preview(bom, 'clients');
    expect(p.body.columns).toEqual(['name', 'email']);
    expect(p.body.sample[0]).toEqual({ name: 'Zoë, "the" Studio', email: 'zoe@example.com' });
    const list = await svc.rest(admin).get('/clients?search=cafe%40example.com');
    expect(list.body[0].name).toBe('Café Noël');
  });

  it('moves the invoice sequence past the highest imported number in its format, and a huge one does not wedge it', async () => {
    const csv =
      'number,customer_name,item_name,item_price\nINV-0420,Seq,Work,1\nINV-99999999999999999999999,Seq,Work,1\nINV-0419,Seq,Work,1\n';
    expect(await importCsv(csv, 'invoices')).toMatchObject({ created: 3, failed: [] });
    const next = await svc.rest(admin).post('/invoices', { customer_name: 'After', items: [{ name: 'x', quantity: 1, price: 1 }] });
    expect(next.status).toBe(201);
    expect(next.body.number).toBe('INV-0421');
  });

  it('rows of one invoice must stand together', async () => {
    const csv = 'number,customer_name,item_name,item_price\nG-1,A,One,1\nG-2,B,Two,2\nG-1,A,Three,3\n';
    expect(await importCsv(csv, 'invoices')).toMatchObject({
      created: 2,
      failed: [{ row: 3, message: expect.stringMatching(/together/) }],
    });
  });
});

describe('billing import csv', () => {
  it('previews, and with --commit imports, with --map changing the mapping', async () => {
    const file = join(FIXTURES, 'freshbooks-clients.csv');
    const found = svc.kernel.commands.find(['import', 'csv', file])!;
    expect(found.command.words).toEqual(['import', 'csv']);
    const shown = (await found.command.run({ args: found.args, flags: { resource: 'clients', preset: 'freshbooks' } })) as Record<
      string,
      any
    >;
    expect(shown.mapping).toMatchObject({ Organization: 'name', Email: 'email' });
    const flags = {
      resource: 'clients',
      preset: 'freshbooks',
      map: ['Organization=company', 'First Name=name'],
      commit: true,
    } as unknown as Record<string, string>;
    const done = (await found.command.run({ args: found.args, flags })) as Record<string, any>;
    // the clients exist (the FreshBooks test made them): their names change to the first names, the organization is kept as company
    expect(done).toMatchObject({ status: 'done', created: 0, failed: [] });
    const list = await svc.rest(admin).get('/clients?search=iris%40maple.example');
    expect(list.body[0]).toMatchObject({ name: 'Iris', company: 'Maple Studio' });
  });
});

describe('resources added through billing_import_resources', () => {
  it('a listener adds a resource as data: previewed, mapped by its synonyms and written by its own code', async () => {
    const written: Array<{ sku: string; name: string }> = [];
    const notes: ImportResource<{ sku: string; name: string }> = {
      name: 'test_items',
      label: 'Test items',
      fields: [
        { name: 'sku', label: 'SKU', synonyms: ['Item Code'] },
        { name: 'name', label: 'Name' },
      ],
      prepare(rows) {
        const v = rows[0]!.values;
        if (!v.sku) throw new ImportRowError('sku: required', 'sku');
        return { sku: v.sku, name: v.name ?? '' };
      },
      async write(records) {
        return records.map((r) => {
          if (written.some((w) => w.sku === r.sku)) return 'skipped';
          written.push(r);
          return 'created';
        });
      },
    };
    const remove = svc.kernel.hooks.addFilter('billing_import_resources', async (list) => [...list, notes], 10, 'test-plugin');
    try {
      const csv = 'Item Code,Name\nA-1,Anvil\n,Nameless\nB-2,Bolt\n';
      const p = await preview(csv, 'test_items');
      expect(p.body).toMatchObject({ mapping: { 'Item Code': 'sku', Name: 'name' }, errors: [{ row: 2, column: 'sku' }] });
      expect(await importCsv(csv, 'test_items')).toMatchObject({ created: 2, failed: [{ row: 2, message: 'sku: required' }] });
      expect(await importCsv(csv, 'test_items')).toMatchObject({ created: 0, skipped: 2 });
      expect(written.map((w) => w.name)).toEqual(['Anvil', 'Bolt']);
    } finally {
      remove();
    }
    expect((await preview('a,b\n1,2\n', 'test_items')).body.code).toBe('rest_invalid_param');
  });
});
