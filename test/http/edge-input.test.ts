import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';
import { useService, type Session, type TestUser } from '../../testing/index.ts';

/**
 * Input of the kinds an attack sends (issue 14), against EVERY REST route and admin-ajax action in the
 * live registries — the core's and the active fixture plugins' — as an administrator, so that no
 * capability is what stops it: a NUL, an unpaired surrogate, a 20-digit integer, a malformed escape, a
 * body naming another document than the URL. Each must be a 4xx in the surface's shape, and nothing
 * may be written.
 */
const svc = useService({
  pluginDirs: [FIXTURE_PLUGINS, resolve(import.meta.dirname, 'fixtures/plugins')],
  plugins: ['hello', 'hello-addon', 'widgets', 'example-gateway'],
});
let k: Kernel;
let admin: TestUser;
let browser: Session;
let nonce: string;
let invoiceId: number;

const WRITES = ['billing_documents', 'billing_payments', 'billing_audit_log', 'billing_options', 'billing_users', 'billing_outbox'];

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of WRITES) out[t] = Number((await k.db.query<{ n: string }>(`select count(*) as n from ${t}`))[0]!.n);
  return out;
}

/** Every REST route as [method, concrete path, key, has an id]: each numeric group gets `id`. */
function routes(id: string = String(invoiceId)): Array<[string, string, string, boolean]> {
  return k.rest.routes.entriesWithOwner().map(({ key }) => {
    const [method, template] = key.split(' ') as [string, string];
    const path = template.replace(/\(\?P<(\w+)>([^)]*)\)/g, (_m, _n, pattern: string) => (/\\d|0-9/.test(pattern) ? id : 'sample'));
    return [method, path, key, /\(\?P<id>/.test(template)];
  });
}

/** As the administrator, the body (exactly as given) only where the method takes one. */
async function rest(method: string, path: string, opts: { query?: string; body?: string } = {}) {
  const body = opts.body !== undefined && method !== 'GET' && method !== 'HEAD' ? { raw: opts.body, type: 'application/json' } : undefined;
  const res = await svc
    .rest(admin)
    .request(method, `/wp-json${path}${opts.query ? `?${opts.query}` : ''}`, body, { 'content-type': 'application/json' });
  return { status: res.status, text: res.text, json: safeJson(res.text) };
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('edge', 'administrator', 'edge-password');
  ({ session: browser, nonce } = await svc.ajax('edge', 'edge-password'));
  invoiceId = (
    await k.api.invoices.create(
      { items: [{ name: 'Edge', quantity: 1, price: 10 }], status: 'available', customer_name: 'E' },
      { actor: CLI, source: 'api' },
    )
  ).id;
});

describe('every REST route', () => {
  const cases: Array<[string, (m: string, p: string) => Promise<{ status: number; json: any }>]> = [
    ['a NUL in the query', (m, p) => rest(m, p, { query: 'search=a%00b' })],
    ['a NUL in a query name', (m, p) => rest(m, p, { query: 'x%00y=1' })],
    [
      'a NUL in the body',
      (m, p) => rest(m, p, { body: JSON.stringify({ name: 'a\u0000b', items: [{ name: '\u0000' }], reason: 'x\u0000' }) }),
    ],
    ['an unpaired surrogate in the body', (m, p) => rest(m, p, { body: '{"name":"\\ud800","reason":"\\udc00x","title":"\\ud800"}' })],
  ];
  for (const [what, send] of cases) {
    it(`answers ${what} with a 400 in the REST shape, writing nothing`, async () => {
      const before = await counts();
      const wrong: unknown[] = [];
      let checked = 0;
      for (const [method, path, key] of routes()) {
        if (/^(GET|HEAD)$/.test(method) && what.includes('body')) continue;
        checked++;
        const r = await send(method, path);
        if (r.status !== 400 || r.json?.code !== 'rest_invalid_param' || r.json?.data?.status !== 400)
          wrong.push({ key, status: r.status, body: r.json });
      }
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(5);
      expect(await counts()).toEqual(before);
    });
  }

  it('answers a 20-digit id, a malformed escape and an encoded slash with a 4xx in the REST shape', async () => {
    const before = await counts();
    const wrong: unknown[] = [];
    let checked = 0;
    for (const bad of ['99999999999999999999', '%ZZ']) {
      for (const [method, path, key, hasId] of routes(bad)) {
        if (!hasId) continue;
        checked++;
        const r = await rest(method, path, { body: '{}' });
        if (r.status !== 400 || typeof r.json?.code !== 'string') wrong.push({ key, bad, status: r.status, body: r.json });
      }
    }
    const slash = await rest('GET', `/billing/v1/invoices%2F${invoiceId}`);
    expect([slash.status, slash.json?.code]).toEqual([404, 'rest_no_route']);
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(5);
    expect(await counts()).toEqual(before);
  });

  it('refuses a body or query that names another document than the URL', async () => {
    const before = await counts();
    const wrong: unknown[] = [];
    let checked = 0;
    for (const [method, path, key, hasId] of routes()) {
      if (!hasId || method === 'GET') continue;
      checked++;
      const r = await rest(method, path, { body: JSON.stringify({ id: invoiceId + 1 }) });
      if (r.status !== 400 || r.json?.code !== 'rest_invalid_param') wrong.push({ key, status: r.status, body: r.json });
    }
    for (const [method, path, key, hasId] of routes()) {
      if (!hasId || method !== 'GET') continue;
      checked++;
      const r = await rest(method, path, { query: `id=${invoiceId + 1}` });
      if (r.status !== 400 || r.json?.code !== 'rest_invalid_param') wrong.push({ key, status: r.status, body: r.json });
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(5);
    expect(await counts()).toEqual(before);
  });
});

describe('integers a column cannot hold', () => {
  it('are 400s: a client id past int4, a page past any offset', async () => {
    const before = await counts();
    const create = await rest('POST', '/billing/v1/invoices', {
      body: JSON.stringify({ items: [{ name: 'x', quantity: 1, price: 1 }], client_id: 2147483648 }),
    });
    expect([create.status, create.json?.code]).toEqual([400, 'rest_invalid_param']);
    for (const query of ['client_id=2147483648', 'page=99999999999999999999', 'client_id=99999999999999999999']) {
      const list = await rest('GET', '/billing/v1/invoices', { query });
      expect([query, list.status, list.json?.code]).toEqual([query, 400, 'rest_invalid_param']);
    }
    const audit = await rest('GET', '/billing/v1/audit-log', { query: 'page=99999999999999999999' });
    expect([audit.status, audit.json?.code]).toEqual([400, 'rest_invalid_param']);
    expect(await counts()).toEqual(before);
  });
});

describe('every admin-ajax action', () => {
  const actions = () =>
    k.ajax.actions
      .entriesWithOwner()
      .filter(({ item }) => item.kind === 'ajax')
      .map(({ key }) => key);

  it('answers a NUL or an unpaired surrogate in any field with 400 billing_bad_request, writing nothing', async () => {
    const before = await counts();
    const wrong: unknown[] = [];
    let checked = 0;
    for (const action of actions()) {
      const fields: Array<[string, string]> = [
        ['id', '1\u0000'],
        ['term', '\ud800'],
        ['reason', 'no\u0000'],
      ];
      // the builders' document travels as JSON text inside a field: what it holds is checked too
      if (/^billing_save_(invoice|quote)$/.test(action)) {
        fields.push([action.slice(13), JSON.stringify({ items: [{ name: 'x\u0000', quantity: 1, price: 1 }] })]);
      }
      for (const [field, value] of fields) {
        checked++;
        const res = await browser.fetch('/wp-admin/admin-ajax.php', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action, _wpnonce: nonce, [field]: value }),
        });
        const json = safeJson(await res.text());
        if (res.status !== 400 || json?.success !== false || json?.data?.code !== 'billing_bad_request')
          wrong.push({ action, field, status: res.status, json });
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(5);
    expect(await counts()).toEqual(before);
  });

  it('answers a 20-digit id with a 4xx, writing nothing', async () => {
    const before = await counts();
    const wrong: unknown[] = [];
    let checked = 0;
    for (const action of actions()) {
      checked++;
      const res = await browser.fetch('/wp-admin/admin-ajax.php', {
        method: 'POST',
        body: new URLSearchParams({
          action,
          _wpnonce: nonce,
          id: '99999999999999999999',
          invoice_id: '99999999999999999999',
          payment_id: '99999999999999999999',
          quote_id: '99999999999999999999',
        }),
      });
      if (res.status >= 500) wrong.push({ action, status: res.status, text: await res.text() });
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(5);
    expect(await counts()).toEqual(before);
  });
});

describe('the pages', () => {
  it('answer a malformed escape with a 400, and a NUL in the sign-in form like a failed sign-in', async () => {
    for (const path of ['/billing/invoice/%ZZ', '/billing/quote/%ZZ/pdf', '/wp-admin/%ZZ']) {
      expect([path, (await fetch(`${svc.url}${path}`)).status]).toEqual([path, 400]);
    }
    const res = await fetch(`${svc.url}/wp-login.php`, {
      method: 'POST',
      body: new URLSearchParams({ log: 'ed\u0000ge', pwd: 'edge-password' }),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('login_error');
  });
});
