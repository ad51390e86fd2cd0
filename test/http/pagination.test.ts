import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type TestUser } from '../../testing/index.ts';

/** Collections, through the pagination helper (the `widgets` fixture: 23 items, 8 "Gear"). */
const svc = useService({ pluginDirs: [resolve(import.meta.dirname, 'fixtures/plugins')], plugins: ['widgets'] });
let k: Kernel;
let user: TestUser;

const get = (query: string, method = 'GET') => svc.rest(user).request(method, `/widgets${query}`);

/** The prev/next URLs of a Link header, as [rel, query] pairs (the api.w.org link is always there too). */
function links(res: { headers: Headers }): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const m of (res.headers.get('link') ?? '').matchAll(/<([^>]+)>; rel="([^"]+)"/g)) {
    if (m[2] === 'https://api.w.org/') continue;
    const u = new URL(m[1]!);
    expect(`${u.origin}${u.pathname}`).toBe(`${k.config.baseUrl}/wp-json/billing/v1/widgets`);
    out[m[2]!] = Object.fromEntries(u.searchParams);
  }
  return out;
}

beforeAll(async () => {
  k = svc.kernel;
  user = await svc.makeUser('reader', 'subscriber');
});

describe('collections', () => {
  it('default to page 1 of 10, with X-WP-Total, X-WP-TotalPages and a next link', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.map((w: { id: number }) => w.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(res.headers.get('x-wp-total')).toBe('23');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    expect(res.headers.get('link')).toContain(`<${k.config.baseUrl}/wp-json/>; rel="https://api.w.org/"`);
    expect(links(res)).toEqual({ next: { page: '2' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('X-WP-TotalPages');
  });

  it('link prev and next keeping every query parameter', async () => {
    const res = await get('?search=e&per_page=2&page=2&orderby=x&_fields=id');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 4 }, { id: 5 }]); // "e": Gear and Sprocket, not Cog
    expect(links(res)).toEqual({
      prev: { search: 'e', per_page: '2', page: '1', orderby: 'x', _fields: 'id' },
      next: { search: 'e', per_page: '2', page: '3', orderby: 'x', _fields: 'id' },
    });
    const last = await get('?per_page=5&page=5');
    expect(last.body).toHaveLength(3);
    expect(links(last)).toEqual({ prev: { per_page: '5', page: '4' } });
  });

  it('take per_page from 1 to 100: anything else is 400 rest_invalid_param', async () => {
    expect((await get('?per_page=100')).status).toBe(200);
    expect((await get('?per_page=1')).headers.get('x-wp-totalpages')).toBe('23');
    for (const bad of ['101', '0', '-1', 'ten', '2.5']) {
      const res = await get(`?per_page=${bad}`);
      expect(res.status).toBe(400);
      const body = res.body;
      expect(body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { per_page: expect.any(String) } } });
    }
    for (const bad of ['0', '-3', 'x']) {
      const res = await get(`?page=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.data.params).toHaveProperty('page');
    }
  });

  it('answer 400 billing_rest_invalid_page_number past the last page', async () => {
    const res = await get('?page=4');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'billing_rest_invalid_page_number',
      message: 'The page number requested is larger than the number of pages available.',
      data: { status: 400 },
    });
  });

  it('with no results are [] with 0 and 0, on any page', async () => {
    for (const q of ['?search=nothing-matches', '?search=nothing-matches&page=3']) {
      const res = await get(q);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('x-wp-total')).toBe('0');
      expect(res.headers.get('x-wp-totalpages')).toBe('0');
      expect(links(res)).toEqual(q.includes('page=3') ? { prev: { search: 'nothing-matches', page: '1' } } : {});
    }
  });

  it('answer HEAD with the same headers and no body, and _envelope with the headers inside', async () => {
    const head = await get('?per_page=5', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('x-wp-total')).toBe('23');
    expect(head.text).toBe('');
    const env = (await get('?per_page=5&page=9&_envelope')).body;
    expect(env).toMatchObject({ status: 400, body: { code: 'billing_rest_invalid_page_number' } });
    const ok = (await get('?per_page=20&_envelope')).body;
    expect(ok).toMatchObject({ status: 200, headers: { 'X-WP-Total': '23', 'X-WP-TotalPages': '2' } });
    expect(ok.body).toHaveLength(20);
  });
});
