// The item library's items from a CSV, through the core importer (`POST /imports?resource=items`, real
// HTTP): the generic columns are the item's fields; the same file imported twice creates once (rows
// matched by SKU, else by name); a changed row updates its item; bad cells are row errors, nothing written.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService({ plugins: ['item-library'] });
let admin: TestUser;

async function preview(csv: string) {
  return svc.rest(admin).post(`/imports?${new URLSearchParams({ resource: 'items', preset: 'generic' })}`, { raw: csv, type: 'text/csv' });
}

async function importCsv(csv: string) {
  const p = await preview(csv);
  expect(p.status).toBe(201);
  const c = await svc.rest(admin).post(`/imports/${p.body.id}/commit`, {});
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

const items = async () => (await svc.rest(admin).get('/items?per_page=100')).body as Array<Record<string, unknown>>;

beforeAll(async () => {
  admin = await svc.makeUser('stock', 'administrator');
});

const CSV = [
  'name,description,price,currency,unit,tax_rate,taxable,sku',
  'Design hour,"Interface design, per hour",95.1234,EUR,HUR,19,yes,DES-H',
  'Hosting,Monthly hosting,12.5,,MON,,yes,',
  'Travel flat fee,,40,EUR,LS,,no,TRV',
].join('\n');

describe('items from a generic CSV', () => {
  it('creates each item once, however often the file is imported, and updates an item the file changes', async () => {
    const p = await preview(CSV);
    expect(p.body).toMatchObject({
      resource: 'items',
      rows: 3,
      errors: [],
      mapping: { name: 'name', description: 'description', price: 'price', currency: 'currency', sku: 'sku', taxable: 'taxable' },
    });

    expect(await importCsv(CSV)).toMatchObject({ status: 'done', created: 3, updated: 0, skipped: 0, failed: [] });
    expect(await importCsv(CSV)).toMatchObject({ status: 'done', created: 0, updated: 0, skipped: 3, failed: [] });
    const all = await items();
    expect(all).toHaveLength(3);
    expect(all.find((i) => i.sku === 'DES-H')).toMatchObject({
      name: 'Design hour',
      description: 'Interface design, per hour',
      price: '95.1234',
      currency: 'EUR',
      unit: 'HUR',
      tax_rate: '19',
      taxable: true,
    });
    expect(all.find((i) => i.name === 'Hosting')).toMatchObject({ price: '12.5', currency: null, unit: 'MON', tax_rate: null, sku: null });
    expect(all.find((i) => i.sku === 'TRV')).toMatchObject({ price: '40.00', taxable: false, tax_rate: null });

    // a renamed item with its SKU, and a new price for the one matched by name: updated, not doubled
    const changed = CSV.replace('Design hour,', 'UX design hour,').replace('Hosting,Monthly hosting,12.5', 'Hosting,Monthly hosting,14');
    expect(await importCsv(changed)).toMatchObject({ created: 0, updated: 2, skipped: 1, failed: [] });
    const after = await items();
    expect(after).toHaveLength(3);
    expect(after.find((i) => i.sku === 'DES-H')).toMatchObject({ name: 'UX design hour' });
    expect(after.find((i) => i.name === 'Hosting')).toMatchObject({ price: '14' });
  });

  it('refuses rows it cannot read, row by row, writing none of them', async () => {
    const bad = [
      'name,price,currency,unit,tax_rate,taxable,sku',
      ',10,EUR,,,,X-1',
      'Widget,-3,EUR,,,,X-2',
      'Gadget,3,EURO,,,,X-3',
      'Gizmo,3,EUR,HOURS,,,X-4',
      'Doohickey,3,EUR,,7,no,X-5',
    ].join('\n');
    const before = (await items()).length;
    const done = await importCsv(bad);
    expect(done).toMatchObject({ created: 0 });
    expect((done.failed as Array<{ row: number; message: string }>).map((f) => f.row)).toEqual([1, 2, 3, 4, 5]);
    expect(done.failed[2].message).toContain('currency');
    expect(done.failed[3].message).toContain('unit');
    expect((await items()).length).toBe(before);
  });
});
