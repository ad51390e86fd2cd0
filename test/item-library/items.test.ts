// The item library (docs/item-library.md) over real HTTP: REST /items with its validation (a unit
// outside Recommendation 20 is 400 and nothing is written; a price stays exact), pages and search;
// reading with bill_view_invoices, writing with bill_edit_invoice; the builders' search
// billing_search_items — matches by name, SKU and description, bounded in term and count, narrowed to a
// currency, refused without the nonce or the capability (and granted to manage_options, as the legacy
// table says); deactivated, its routes are gone and its items stay.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { SEARCH_LIMIT, TERM_MAX } from '../../plugins/item-library/index.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService({ plugins: ['item-library'] });
let k: Kernel;
let admin: TestUser;

async function rest(u: TestUser, method: string, path: string, body?: unknown) {
  const res = await svc.rest(u).request(method, path, body);
  return { status: res.status, body: res.body, total: res.headers.get('x-wp-total'), location: res.headers.get('location') };
}

const count = async () => Number((await k.db.query<{ n: string }>('select count(*) as n from item_library_items'))[0]!.n);

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator', 'boss-password');
});

describe('REST /items', () => {
  it('creates, reads, changes and deletes an item, the price exact as given', async () => {
    const made = await rest(admin, 'POST', '/items', {
      name: 'Design hour',
      description: 'Interface design, per hour',
      price: '95.1234',
      currency: 'EUR',
      unit: 'HUR',
      tax_rate: '19',
      sku: 'DES-H',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Design hour',
      description: 'Interface design, per hour',
      price: '95.1234',
      currency: 'EUR',
      unit: 'HUR',
      tax_rate: '19',
      taxable: true,
      sku: 'DES-H',
    });
    expect(made.location).toBe(`${k.url}/wp-json/billing/v1/items/${made.body.id}`);
    const id = made.body.id as number;
    expect((await rest(admin, 'GET', `/items/${id}`)).body).toEqual(made.body);

    // a price reads as money in its currency, and a float-looking number keeps its digits
    const cheap = await rest(admin, 'POST', '/items', { name: 'Sticker', price: 0.1, currency: 'EUR' });
    expect([cheap.status, cheap.body.price]).toEqual([201, '0.10']);
    const yen = await rest(admin, 'POST', '/items', { name: 'Tea', price: '1200', currency: 'JPY' });
    expect(yen.body.price).toBe('1200');

    // a change touches only what it names; null clears an optional field
    const changed = await rest(admin, 'PUT', `/items/${id}`, { price: '99.50', tax_rate: null, unit: 'DAY' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Design hour', price: '99.50', tax_rate: null, unit: 'DAY', sku: 'DES-H', currency: 'EUR' });

    const gone = await rest(admin, 'DELETE', `/items/${id}`);
    expect([gone.status, gone.body.deleted, gone.body.previous.name]).toEqual([200, true, 'Design hour']);
    expect((await rest(admin, 'GET', `/items/${id}`)).status).toBe(404);
    expect((await rest(admin, 'DELETE', `/items/${id}`)).body.code).toBe('billing_rest_not_found');
    // each change is in the audit log
    const actions = await k.db.query<{ action: string }>(
      `select action from billing_audit_log where object_type = 'item' and object_id = $1`,
      [id],
    );
    expect(actions.map((a) => a.action).sort()).toEqual(['item.create', 'item.delete', 'item.update']);
  });

  it('refuses a bad unit, price, rate, currency or name with 400 and writes nothing', async () => {
    const before = await count();
    const good = { name: 'Widget', price: '10' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, unit: 'HOURS' }, 'unit'],
      [{ ...good, unit: 'hur' }, 'unit'],
      [{ ...good, unit: 'QQQ' }, 'unit'],
      [{ ...good, price: '-1' }, 'price'],
      [{ ...good, price: '1.23456' }, 'price'],
      [{ ...good, price: 'ten' }, 'price'],
      [{ ...good, tax_rate: '101' }, 'tax_rate'],
      [{ ...good, currency: 'EURO' }, 'currency'],
      [{ ...good, name: '   ' }, 'name'],
      [{ ...good, taxable: false, tax_rate: '7' }, 'tax_rate'],
    ];
    for (const [body, param] of cases) {
      const r = await rest(admin, 'POST', '/items', body);
      expect([param, r.status, r.body.code, Object.keys(r.body.data.params)]).toEqual([param, 400, 'rest_invalid_param', [param]]);
    }
    const missing = await rest(admin, 'POST', '/items', { name: 'No price' });
    expect([missing.status, missing.body.code, missing.body.data.params]).toEqual([400, 'rest_missing_callback_param', ['price']]);
    expect(await count()).toBe(before);

    // a change with a bad unit changes nothing either
    const item = (await rest(admin, 'POST', '/items', { ...good, unit: 'KGM' })).body;
    const bad = await rest(admin, 'PUT', `/items/${item.id}`, { unit: 'XXXX', price: '11' });
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
    expect((await rest(admin, 'GET', `/items/${item.id}`)).body).toMatchObject({ unit: 'KGM', price: '10' });
    // nor one that would leave a rate on an item that is never taxed
    await rest(admin, 'PUT', `/items/${item.id}`, { tax_rate: '7' });
    expect((await rest(admin, 'PUT', `/items/${item.id}`, { taxable: false })).status).toBe(400);
    expect((await rest(admin, 'PUT', `/items/${item.id}`, { taxable: false, tax_rate: null })).body).toMatchObject({
      taxable: false,
      tax_rate: null,
    });
  });

  it('lists by name in pages, searches name, SKU and description, and counts in X-WP-Total', async () => {
    for (const [name, sku, description] of [
      ['Zebra print', 'ZP-1', ''],
      ['Alpha audit', 'AUD-9', 'Yearly accounts review'],
      ['Beta backup', 'BK-100%', 'Nightly copies'],
    ])
      expect((await rest(admin, 'POST', '/items', { name, sku, description, price: '1' })).status).toBe(201);
    const all = await rest(admin, 'GET', '/items?per_page=100');
    const names = (all.body as Array<{ name: string }>).map((i) => i.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(Number(all.total)).toBe(names.length);
    const page2 = await rest(admin, 'GET', '/items?per_page=1&page=2');
    expect(page2.body.map((i: { name: string }) => i.name)).toEqual([names[1]]);

    const byName = await rest(admin, 'GET', '/items?search=ZEBRA');
    expect([byName.body.map((i: { sku: string }) => i.sku), byName.total]).toEqual([['ZP-1'], '1']);
    expect((await rest(admin, 'GET', '/items?search=aud-9')).body.map((i: { name: string }) => i.name)).toEqual(['Alpha audit']);
    expect((await rest(admin, 'GET', '/items?search=nightly')).body.map((i: { name: string }) => i.name)).toEqual(['Beta backup']);
    // LIKE's wildcards match only themselves
    expect((await rest(admin, 'GET', '/items?search=100%25')).body.map((i: { name: string }) => i.name)).toEqual(['Beta backup']);
    expect((await rest(admin, 'GET', '/items?search=_')).total).toBe('0');
    expect((await rest(admin, 'GET', '/items?per_page=101')).status).toBe(400);
  });

  it('reads with bill_view_invoices and writes with bill_edit_invoice', async () => {
    const viewer = await svc.makeUser('viewer', 'billing_viewer');
    const client = await svc.makeUser('customer', 'billing_client');
    const item = (await rest(admin, 'POST', '/items', { name: 'Read me', price: '5' })).body;
    expect((await rest(viewer, 'GET', '/items')).status).toBe(200);
    expect((await rest(viewer, 'GET', `/items/${item.id}`)).status).toBe(200);
    const before = await count();
    for (const [method, path, body] of [
      ['POST', '/items', { name: 'Mine', price: '1' }],
      ['PUT', `/items/${item.id}`, { price: '0' }],
      ['DELETE', `/items/${item.id}`, undefined],
    ] as const) {
      const r = await rest(viewer, method, path, body);
      expect([method, r.status, r.body.code]).toEqual([method, 403, 'billing_rest_forbidden']);
    }
    expect(await count()).toBe(before);
    expect((await rest(client, 'GET', '/items')).status).toBe(403);
    expect((await rest(admin, 'GET', `/items/${item.id}`)).body.price).toBe('5');
  });
});

describe('billing_search_items', () => {
  it('answers matches by name, SKU or description, names starting with the term first', async () => {
    for (const [name, sku, description] of [
      ['Web hosting', 'HOST-1', 'Shared server, per month'],
      ['Hosting setup', 'HOST-0', ''],
      ['Domain', 'DOM-1', 'Includes hosting DNS'],
      ['Unrelated', 'UN-1', ''],
    ])
      await rest(admin, 'POST', '/items', { name, sku, description, price: '12.50', currency: 'EUR', unit: 'MON' });
    const ajax = await svc.ajax('boss', 'boss-password');
    const r = await ajax.call('billing_search_items', { term: 'hosting' });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const names = r.body.data.map((i: { name: string }) => i.name);
    expect(names).toEqual(['Hosting setup', 'Domain', 'Web hosting']);
    expect(r.body.data[0]).toMatchObject({ price: '12.50', unit: 'MON', currency: 'EUR', taxable: true, tax_rate: null });
    expect((await ajax.call('billing_search_items', { term: 'dom-1' })).body.data.map((i: { name: string }) => i.name)).toEqual(['Domain']);
  });

  it('is bounded: at most 20 answers, at most 200 characters of the term read', async () => {
    for (let i = 0; i < SEARCH_LIMIT + 5; i++) await rest(admin, 'POST', '/items', { name: `Bulk part ${i}`, price: '1' });
    const ajax = await svc.ajax('boss', 'boss-password');
    expect((await ajax.call('billing_search_items', { term: 'bulk part' })).body.data).toHaveLength(SEARCH_LIMIT);
    // a huge term is cut, not searched whole (nothing has 200 x's): an empty answer, quickly
    const long = await ajax.call('billing_search_items', { term: 'x'.repeat(100_000) });
    expect([long.status, long.body.data]).toEqual([200, []]);
    // the 200 characters read still find what they match
    const named = `Bulk part 1${'y'.repeat(TERM_MAX)}`;
    await rest(admin, 'POST', '/items', { name: named.slice(0, 500), price: '1' });
    expect((await ajax.call('billing_search_items', { term: `${named}zzz` })).body.data.map((i: { name: string }) => i.name)).toEqual([
      named,
    ]);
  });

  it('offers, for a document in a currency, the items in it or in none', async () => {
    await rest(admin, 'POST', '/items', { name: 'Curr test any', price: '1' });
    await rest(admin, 'POST', '/items', { name: 'Curr test euro', price: '1', currency: 'EUR' });
    await rest(admin, 'POST', '/items', { name: 'Curr test dollar', price: '1', currency: 'USD' });
    const ajax = await svc.ajax('boss', 'boss-password');
    const eur = await ajax.call('billing_search_items', { term: 'curr test', currency: 'eur' });
    expect(eur.body.data.map((i: { name: string }) => i.name)).toEqual(['Curr test any', 'Curr test euro']);
    const bad = await ajax.call('billing_search_items', { term: 'curr test', currency: 'EURO' });
    expect([bad.status, bad.body.data.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('refuses without the nonce and without the capability; manage_options passes as the legacy table says', async () => {
    await rest(admin, 'POST', '/items', { name: 'Secret sauce', price: '1' });
    await svc.makeUser('looker', 'billing_viewer', 'looker-password');
    const ajax = await svc.ajax('boss', 'boss-password');
    const noNonce = await ajax.post({ action: 'billing_search_items', term: 'secret' });
    expect([noNonce.status, noNonce.text]).toEqual([403, '-1']);
    const badNonce = await ajax.post({ action: 'billing_search_items', _wpnonce: 'abc123', term: 'secret' });
    expect([badNonce.status, badNonce.text]).toEqual([403, '-1']);
    const viewer = await svc.ajax('looker', 'looker-password');
    const refused = await viewer.call('billing_search_items', { term: 'secret' });
    expect([refused.status, refused.body.success, refused.body.data.code]).toEqual([403, false, 'billing_forbidden']);
    // a visitor with no session gets WordPress's answer for a missing nonce, and no item
    const visitor = await fetch(`${k.url}/wp-admin/admin-ajax.php`, {
      method: 'POST',
      body: new URLSearchParams({ action: 'billing_search_items', term: 'secret' }),
    });
    expect((await visitor.text()).includes('Secret sauce')).toBe(false);

    // a user holding the legacy capability (manage_options) but no billing one passes
    const old = await svc.makeUser('legacy', 'administrator', 'legacy-password');
    const off = k.hooks.addFilter(
      'billing_user_has_cap',
      (allcaps, _caps, args) =>
        args[1] === old.id ? Object.fromEntries(Object.entries(allcaps).map(([c, v]) => [c, c.startsWith('bill_') ? false : v])) : allcaps,
      10,
      'test',
    );
    try {
      const legacy = await svc.ajax('legacy', 'legacy-password');
      const allowed = await legacy.call('billing_search_items', { term: 'secret' });
      expect([allowed.status, allowed.body.data.map((i: { name: string }) => i.name)]).toEqual([200, ['Secret sauce']]);
      expect((await rest(old, 'GET', '/items')).status).toBe(403);
    } finally {
      off();
    }
  });
});

describe('activation', () => {
  it('deactivated, its routes and action are gone and its items stay; active again, they are back', async () => {
    const item = (await rest(admin, 'POST', '/items', { name: 'Kept', price: '3' })).body;
    await k.plugins.deactivate('item-library', CLI);
    await waitFor(() => !k.plugins.isLoaded('item-library'), { what: 'item-library to unload' });
    expect((await rest(admin, 'GET', '/items')).body.code).toBe('rest_no_route');
    const ajax = await svc.ajax('boss', 'boss-password');
    expect((await ajax.call('billing_search_items', { term: 'kept' })).status).toBe(400);
    await k.plugins.activate('item-library', CLI);
    await waitFor(() => k.plugins.isLoaded('item-library'), { what: 'item-library to load' });
    expect((await rest(admin, 'GET', `/items/${item.id}`)).body.name).toBe('Kept');
  });
});
