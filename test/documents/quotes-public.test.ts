import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type RestClient, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let admin: TestUser;
/** The administrator's REST client; its `seen` also keeps the public AJAX answers: no access key may be in any. */
let api: RestClient;

async function rest(method: string, path: string, body?: unknown) {
  const res = await api.request(method, path, body);
  return { status: res.status, body: res.body };
}

async function ajax(fields: Record<string, string>) {
  const res = await fetch(`${k.url}/wp-admin/admin-ajax.php`, { method: 'POST', body: new URLSearchParams(fields) });
  const text = await res.text();
  api.seen.push(text);
  return { status: res.status, body: JSON.parse(text) };
}

async function page(kind: 'invoice' | 'quote', id: number, key: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${k.url}/billing/${kind}/${id}?key=${encodeURIComponent(key)}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const tokenOf = (html: string) => /name="token"\s+value="([^"]+)"/.exec(html)?.[1] ?? null;
const quoteInput = (over: object = {}) => ({
  items: [{ name: 'Website', quantity: 1, price: 2500 }],
  customer_name: 'Zoë Quinn',
  status: 'available',
  ...over,
});

async function newQuote(over: object = {}) {
  const { body } = await rest('POST', '/quotes', quoteInput(over));
  return { id: body.id as number, number: body.number as string, key: await k.api.quotes.accessKey(body.id) };
}

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('owner', 'administrator', 'correct horse battery');
  api = svc.rest(admin);
  svc.beforeStop(async () => {
    const keys = (await k.db.query<{ access_key: string }>('select access_key from billing_documents')).map((r) => r.access_key);
    for (const key of keys) for (const body of api.seen) expect(body).not.toContain(key);
  });
});

describe('quotes over REST', () => {
  it('are created from their own sequence and read through billing_rest_quote', async () => {
    const created = await rest('POST', '/quotes', quoteInput({ expiry_date: '2099-12-31' }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      number: 'QUO-0001',
      status: 'available',
      expiry_date: '2099-12-31',
      accepted: null,
      declined: null,
      invoice_id: null,
    });
    const off = k.hooks.addFilter('billing_rest_quote', (data) => ({ ...data, seen: true }));
    const got = await rest('GET', `/quotes/${created.body.id}`);
    off();
    expect(got.body).toMatchObject({ id: created.body.id, seen: true });
    const list = await rest('GET', '/quotes');
    expect(list.body.map((q: { number: string }) => q.number)).toEqual(['QUO-0001']);
    expect((await rest('GET', `/invoices/${created.body.id}`)).status).toBe(404);
  });
});

describe('the public quote page', () => {
  it('answers only with the right key, with no-store and no-referrer, and mints a token per rendering', async () => {
    const q = await newQuote();
    const good = await page('quote', q.id, q.key);
    expect(good.status).toBe(200);
    expect(good.headers.get('cache-control')).toBe('no-store');
    expect(good.headers.get('referrer-policy')).toBe('no-referrer');
    expect(good.text).toContain(q.number);
    const second = await page('quote', q.id, q.key);
    expect(tokenOf(good.text)).not.toBe(tokenOf(second.text));
    const wrong = await page('quote', q.id, `${q.key.slice(0, -2)}xx`);
    const missing = await page('quote', 99999999, q.key);
    expect(wrong.status).toBe(404);
    expect(wrong.text).toBe(missing.text);
    expect((await page('invoice', q.id, q.key)).text).toBe(missing.text);
  });

  it('accepts once with a token, converting to an invoice; the token cannot be used again', async () => {
    const q = await newQuote();
    const older = tokenOf((await page('quote', q.id, q.key)).text)!;
    const token = tokenOf((await page('quote', q.id, q.key)).text)!;
    const heard: unknown[] = [];
    const off = k.hooks.addAction('billing_quote_accepted', (id, quote, invoice) => {
      heard.push([id, quote.status, invoice?.number]);
    });
    const created: string[] = [];
    const off2 = k.hooks.addAction('billing_invoice_created', (_id, _inv, c) => {
      created.push(c.source);
    });
    const res = await ajax({ action: 'billing_accept_quote', quote_id: String(q.id), token });
    off();
    off2();
    expect(res).toEqual({
      status: 200,
      body: { success: true, data: { quote_id: q.id, status: 'accepted', invoice_id: expect.any(Number) } },
    });
    const invoice = await rest('GET', `/invoices/${res.body.data.invoice_id}`);
    expect(invoice.body).toMatchObject({ status: 'available', customer: { name: 'Zoë Quinn' }, totals: { total: 2500 } });
    expect(heard).toEqual([[q.id, 'accepted', invoice.body.number]]);
    expect(created).toEqual(['quote']);
    const quote = await rest('GET', `/quotes/${q.id}`);
    expect(quote.body).toMatchObject({
      status: 'accepted',
      invoice_id: invoice.body.id,
      accepted: { at: expect.any(String), by: 'Zoë Quinn' },
    });
    // reused, and an older unused token of the same quote: refused alike, and the quote stays accepted
    for (const t of [token, older]) {
      const again = await ajax({ action: 'billing_accept_quote', quote_id: String(q.id), token: t });
      expect(again.status).toBe(t === token ? 403 : 409);
    }
    expect(tokenOf((await page('quote', q.id, q.key)).text)).toBeNull();
  });

  it('refuses a token of another quote, an expired one, and a made-up one, with 403 billing_invalid_token', async () => {
    const a = await newQuote();
    const b = await newQuote();
    const tokenA = tokenOf((await page('quote', a.id, a.key)).text)!;
    const foreign = await ajax({ action: 'billing_decline_quote', quote_id: String(b.id), token: tokenA });
    expect(foreign).toEqual({
      status: 403,
      body: { success: false, data: { code: 'billing_invalid_token', message: expect.any(String) } },
    });
    await k.db.query(`update billing_quote_tokens set expires_at = now() - interval '1 second' where quote_id = $1`, [a.id]);
    expect((await ajax({ action: 'billing_accept_quote', quote_id: String(a.id), token: tokenA })).body.data.code).toBe(
      'billing_invalid_token',
    );
    expect((await ajax({ action: 'billing_quote_accept', quote_id: String(a.id), token: 'x'.repeat(32) })).body.data.code).toBe(
      'billing_invalid_token',
    );
    expect((await rest('GET', `/quotes/${a.id}`)).body.status).toBe('available');
  });

  it('declines with a reason through the legacy name too', async () => {
    const q = await newQuote();
    const token = tokenOf((await page('quote', q.id, q.key)).text)!;
    const res = await ajax({ action: 'billing_quote_decline', quote_id: String(q.id), token, reason: 'Too expensive <b>sorry</b>' });
    expect(res.body).toEqual({ success: true, data: { quote_id: q.id, status: 'declined' } });
    expect((await rest('GET', `/quotes/${q.id}`)).body.declined).toMatchObject({ reason: 'Too expensive <b>sorry</b>' });
  });

  it('follows quote_accept_action: none makes no invoice, convert_draft a draft', async () => {
    for (const [setting, expected] of [
      ['none', null],
      ['convert_draft', 'draft'],
    ] as const) {
      await k.options.set('quote_accept_action', setting, CLI);
      const q = await newQuote();
      const token = tokenOf((await page('quote', q.id, q.key)).text)!;
      const res = await ajax({ action: 'billing_accept_quote', quote_id: String(q.id), token });
      const invoiceId = res.body.data.invoice_id;
      expect(invoiceId === null ? null : (await rest('GET', `/invoices/${invoiceId}`)).body.status).toBe(expected);
    }
    await k.options.delete('quote_accept_action', CLI);
  });

  it('shows an expired quote as expired, without forms, and refuses answers to it', async () => {
    const q = await newQuote({ issue_date: '2026-01-01', expiry_date: '2026-01-31' });
    const token = await k.api.quotes.mintToken(q.id);
    const shown = await page('quote', q.id, q.key);
    expect(shown.text).toContain('status-expired');
    expect(tokenOf(shown.text)).toBeNull();
    const res = await ajax({ action: 'billing_accept_quote', quote_id: String(q.id), token });
    expect([res.status, res.body.data.code]).toEqual([409, 'billing_rest_invalid_state']);
    expect((await rest('GET', `/quotes/${q.id}`)).body.status).toBe('expired');
  });
});

describe('the public invoice page', () => {
  it('counts customer views (first one fires billing_invoice_viewed), not staff views, and escapes what customers typed', async () => {
    const created = await rest('POST', '/invoices', {
      items: [{ name: '<img src=x onerror=alert(1)>', quantity: 1, price: 10 }],
      customer_name: '<script>alert("x")</script>',
      status: 'available',
    });
    const id = created.body.id;
    const key = await k.api.invoices.accessKey(id);
    const viewed: number[] = [];
    const off = k.hooks.addAction('billing_invoice_viewed', (vid) => {
      viewed.push(vid);
    });
    const first = await page('invoice', id, key);
    await page('invoice', id, key);
    off();
    expect(first.status).toBe(200);
    expect(first.text).not.toContain('<script>alert');
    expect(first.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(first.text).not.toContain('<img src=x');
    expect(viewed).toEqual([id]);
    const rep = await rest('GET', `/invoices/${id}`);
    expect(rep.body.viewed).toEqual({
      count: 2,
      first: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      last: expect.any(String),
    });

    // an administrator signed in with a cookie does not count
    const login = await fetch(`${k.url}/wp-login.php`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ log: 'owner', pwd: 'correct horse battery' }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(cookie).not.toBe('');
    await page('invoice', id, key, { cookie });
    expect((await rest('GET', `/invoices/${id}`)).body.viewed.count).toBe(2);
  });

  it('shows the company logo from the options, and refuses a logo that could break out of the page', async () => {
    const created = await rest('POST', '/invoices', { items: [{ name: 'Logo test', quantity: 1, price: 1 }], status: 'available' });
    const key = await k.api.invoices.accessKey(created.body.id);
    await k.options.set('company_logo_url', 'data:image/png;base64,iVBORw0KGgo=', CLI);
    expect((await page('invoice', created.body.id, key)).text).toContain('<img class="logo" src="data:image/png;base64,iVBORw0KGgo="');
    for (const hostile of ['data:image/png;base64,iVBORw0KGgo="onerror="alert(1)', 'javascript:alert(1)', 'http://example.com/logo.png']) {
      await expect(k.options.set('company_logo_url', hostile, CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    }
    // the refused writes changed nothing
    expect((await page('invoice', created.body.id, key)).text).toContain('<img class="logo" src="data:image/png;base64,iVBORw0KGgo="');
    await k.options.delete('company_logo_url', CLI);
    expect((await page('invoice', created.body.id, key)).text).not.toContain('class="logo"');
  });

  it('serves the PDF with the key, and 404 without', async () => {
    const created = await rest('POST', '/invoices', {
      items: [{ name: 'Hosting', quantity: 12, price: 9.99 }],
      customer_name: 'Дмитрий Иванов',
      status: 'available',
    });
    const key = await k.api.invoices.accessKey(created.body.id);
    const pdf = await fetch(`${k.url}/billing/invoice/${created.body.id}/pdf?key=${key}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await fetch(`${k.url}/billing/invoice/${created.body.id}/pdf?key=nope-nope-nope-nope`)).status).toBe(404);
  });
});
