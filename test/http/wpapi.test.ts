import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import WPAPI from 'wpapi';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type TestUser } from '../../testing/index.ts';

/** The real `wpapi` client, unmodified, against a running server (issue 3, "Tests that must exist"). */
const svc = useService({ pluginDirs: [resolve(import.meta.dirname, 'fixtures/plugins')], plugins: ['widgets'] });
let k: Kernel;
let viewer: TestUser;

beforeAll(async () => {
  k = svc.kernel;
  viewer = await svc.makeUser('viewer', 'billing_viewer');
});

const credentials = () => ({ username: 'viewer', password: viewer.appPassword });

describe('the wpapi client', () => {
  it('discovers the API from the site root and lists a collection page by page, reading _paging from the headers', async () => {
    const site = await WPAPI.discover(k.url);
    site.auth(credentials());
    const billing = site.namespace('billing/v1');
    const page2 = await billing.widgets().perPage(5).page(2).get();
    expect(page2.map((w: { id: number }) => w.id)).toEqual([6, 7, 8, 9, 10]);
    expect(page2._paging).toMatchObject({ total: 23, totalPages: 5 });
    const link = (href: string) => {
      const u = new URL(href);
      return [`${u.origin}${u.pathname}`, Object.fromEntries(u.searchParams)];
    };
    const collection = `${k.config.baseUrl}/wp-json/billing/v1/widgets`;
    expect(link(page2._paging.links.next)).toEqual([collection, { per_page: '5', page: '3' }]);
    expect(link(page2._paging.links.prev)).toEqual([collection, { per_page: '5', page: '1' }]);

    const page3 = await page2._paging.next.get();
    expect(page3.map((w: { id: number }) => w.id)).toEqual([11, 12, 13, 14, 15]);
    const back = await page3._paging.prev.get();
    expect(back.map((w: { id: number }) => w.id)).toEqual([6, 7, 8, 9, 10]);

    const last = await billing.widgets().perPage(5).page(5).get();
    expect(last).toHaveLength(3);
    expect(last._paging.next).toBeUndefined();
  });

  it('keeps the query (search) in the paging links', async () => {
    const site = await WPAPI.discover(k.url);
    site.auth(credentials());
    const gears = await site.namespace('billing/v1').widgets().search('gear').perPage(3).get();
    expect(gears._paging.total).toBe(8);
    expect(gears._paging.totalPages).toBe(3);
    const next = await gears._paging.next.get();
    expect(next.every((w: { name: string }) => w.name.startsWith('Gear'))).toBe(true);
  });

  it('works with registerRoute on billing/v1 too, for single items and for creating', async () => {
    const site = new WPAPI({ endpoint: `${k.url}/wp-json`, ...credentials() });
    site.widgets = site.registerRoute('billing/v1', '/widgets/(?P<id>[\\d]+)');
    expect(await site.widgets().id(7).auth(credentials()).get()).toEqual({ id: 7, name: 'Gear 7' });
    await expect(site.widgets().id(99).auth(credentials()).get()).rejects.toMatchObject({
      code: 'billing_rest_not_found',
      data: { status: 404 },
    });
    const admin = await svc.makeUser('boss', 'administrator');
    const created = await site.widgets().auth({ username: 'boss@example.com', password: admin.appPassword }).create({ name: 'Flange' });
    expect(created).toEqual({ id: 24, name: 'Flange' });
    // the viewer may read but not create
    await expect(site.widgets().auth(credentials()).create({ name: 'No' })).rejects.toMatchObject({
      code: 'billing_rest_forbidden',
      data: { status: 403 },
    });
  });

  it('is told 401 billing_rest_unauthenticated without valid credentials', async () => {
    const site = await WPAPI.discover(k.url);
    await expect(site.namespace('billing/v1').widgets().get()).rejects.toMatchObject({
      code: 'billing_rest_unauthenticated',
      data: { status: 401 },
    });
    site.auth({ username: 'viewer', password: 'abcd abcd abcd abcd abcd abcd' });
    await expect(site.namespace('billing/v1').widgets().get()).rejects.toMatchObject({ code: 'billing_rest_unauthenticated' });
  });
});
