import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { useService, type RestClient, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const svc = useService();
let admin: TestUser;
let viewer: TestUser;
let clientId: number;
/** Shares its `seen` with every caller's client: every body this suite received, to prove no access key left the server. */
let nobody: RestClient;

/** A string body goes as it is (malformed JSON), anything else as JSON. */
function call(user: TestUser | null, method: string, path: string, body?: unknown) {
  const sent = typeof body === 'string' ? { raw: body, type: 'application/json' } : body;
  return nobody.as(user?.authorization ?? null).request(method, path, sent);
}

const item = { name: 'Design work', description: 'Logo', quantity: 3, price: 120.5, taxable: true };

beforeAll(async () => {
  nobody = svc.rest();
  admin = await svc.makeUser('boss', 'administrator');
  viewer = await svc.makeUser('peek', 'billing_viewer');
  const client = await svc.kernel.identity.users.create(
    {
      login: 'acme',
      email: 'billing@acme.test',
      role: 'billing_client',
      display_name: 'Acme GmbH',
      country: 'DE',
      vat: 'DE123456789',
    },
    CLI,
  );
  clientId = client.id;
  // a document whose key no answer may carry, whichever tests run (a quote: the invoices' numbers stay as the tests expect)
  await svc.kernel.api.quotes.create({ items: [item], customer_name: 'Quoted' }, { actor: CLI, source: 'api' });
  svc.beforeStop(async () => {
    const keys = (await svc.kernel.db.query<{ access_key: string }>('select access_key from billing_documents')).map((r) => r.access_key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) for (const body of nobody.seen) expect(body).not.toContain(key);
  });
});

describe('POST /invoices', () => {
  it('creates a numbered draft and answers 201 with the full representation and Location', async () => {
    const heard: string[] = [];
    const off = svc.kernel.hooks.addAction('billing_invoice_created', (_id, _inv, c) => {
      heard.push(c.source);
    });
    const res = await call(admin, 'POST', '/invoices', {
      items: [item],
      customer_name: 'Jane Roe',
      customer_email: 'jane@roe.test',
      title: 'Branding',
    });
    off();
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${svc.kernel.config.baseUrl}/wp-json/billing/v1/invoices/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      number: 'INV-0001',
      title: 'Branding',
      status: 'draft',
      viewed: { count: 0, first: null, last: null },
      issue_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      overdue: false,
      period_start: null,
      period_end: null,
      schedule: null,
      recurring_id: null,
      customer: { name: 'Jane Roe', email: 'jane@roe.test', country: '', vat: '' },
      client_id: null,
      currency: 'USD',
      totals: { subtotal: 361.5, discount: 0, tax: 0, total: 361.5, paid: 0, credited: 0, due: 361.5 },
      items: [
        { name: 'Design work', description: 'Logo', quantity: 3, price: 120.5, amount: 361.5, unit: null, taxable: true, tax_rate: null },
      ],
      discount: null,
      tax_treatment: { category: 'standard', statement: '' },
      // taxable at the site's rate, 0 % by default: zero rated
      tax_breakdown: [{ category: 'Z', rate: 0, taxable_amount: 361.5, tax: 0, exemption_reason: '' }],
      notes: '',
      terms: '',
      locale: null,
      date_created: expect.any(String),
      date_modified: expect.any(String),
      links: { pdf: `${svc.kernel.config.baseUrl}/wp-json/billing/v1/invoices/${res.body.id}/pdf` },
    });
    expect(heard).toEqual(['rest']);
  });

  it('fills the customer from the client, each field overridable, and applies the tax treatment', async () => {
    await svc.kernel.options.set('tax_rate', 19, CLI);
    await svc.kernel.options.set('business_country', 'FR', CLI);
    const res = await call(admin, 'POST', '/invoices', {
      items: [item],
      client_id: clientId,
      customer_email: 'ap@acme.test',
      status: 'available',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'available',
      client_id: clientId,
      customer: { name: 'Acme GmbH', email: 'ap@acme.test', country: 'DE', vat: 'DE123456789' },
      tax_treatment: { category: 'reverse_charge', statement: expect.stringContaining('DE123456789') },
      totals: { tax: 0, total: 361.5 },
    });
    await svc.kernel.options.delete('business_country', CLI);
    await svc.kernel.options.delete('tax_rate', CLI);
  });

  it('answers clear 400s and writes nothing', async () => {
    const before = await call(admin, 'GET', '/invoices?per_page=100');
    const cases: Array<[unknown, string, unknown?]> = [
      [{}, 'rest_missing_callback_param', { params: ['items'] }],
      [{ items: [] }, 'rest_invalid_param'],
      [{ items: [{ ...item, name: '  ' }] }, 'rest_invalid_param'],
      [{ items: [{ ...item, quantity: 0 }] }, 'rest_invalid_param'],
      [{ items: [{ ...item, price: 0.00001 }] }, 'rest_invalid_param'],
      [{ items: [item], status: 'paid' }, 'rest_invalid_param', { params: { status: expect.stringMatching(/payments/) } }],
      [{ items: [item], currency: 'EURO' }, 'rest_invalid_param'],
      [{ items: [item], customer_country: 'Germany' }, 'rest_invalid_param'],
      [{ items: [item], customer_email: 'not-an-address' }, 'rest_invalid_param'],
      [{ items: [item], issue_date: '2026-02-30' }, 'rest_invalid_param'],
      [{ items: [item], issue_date: '2026-03-02', due_date: '2026-03-01' }, 'rest_invalid_param'],
      [{ items: [item], discount: { type: 'fixed', value: 1000 } }, 'rest_invalid_param'],
      [{ items: [item], client_id: 424242 }, 'billing_rest_no_client'],
      [{ items: [item], number: 'INV-0001' }, 'billing_rest_number_taken'],
      ['{"items": [', 'rest_invalid_json'],
    ];
    for (const [body, code, data] of cases) {
      const res = await call(admin, 'POST', '/invoices', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code });
      if (data) expect(res.body.data).toMatchObject(data as object);
    }
    const after = await call(admin, 'GET', '/invoices?per_page=100');
    expect(after.headers.get('x-wp-total')).toBe(before.headers.get('x-wp-total'));
  });

  it('needs the capability: 401 without credentials, 403 for a viewer', async () => {
    const anon = await call(null, 'POST', '/invoices', { items: [item] });
    expect([anon.status, anon.body.code, anon.headers.get('www-authenticate')]).toEqual([
      401,
      'billing_rest_unauthenticated',
      'Basic realm="billing"',
    ]);
    const peek = await call(viewer, 'POST', '/invoices', { items: [item] });
    expect([peek.status, peek.body.code]).toEqual([403, 'billing_rest_forbidden']);
  });
});

describe('GET /invoices', () => {
  /** The numbers of 25 invoices to customers named `Customer <n>`, and a client with one available invoice. */
  const listed: string[] = [];
  let listedClientId: number;
  beforeAll(async () => {
    for (let i = 0; i < 25; i++)
      listed.push((await call(admin, 'POST', '/invoices', { items: [item], customer_name: `Customer ${i}` })).body.number);
    const client = await svc.kernel.identity.users.create(
      { login: 'listed', email: 'ap@listed.test', role: 'billing_client', display_name: 'Listed Ltd' },
      CLI,
    );
    listedClientId = client.id;
    await call(admin, 'POST', '/invoices', { items: [item], client_id: listedClientId, status: 'available' });
  });

  it('pages with X-WP-Total, X-WP-TotalPages and Link keeping the query', async () => {
    const res = await call(viewer, 'GET', '/invoices?search=customer&per_page=10&page=2&orderby=id&order=asc');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-wp-total')).toBe('25');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    const link = res.headers.get('link')!;
    expect(link).toContain('page=1');
    expect(link).toContain('rel="prev"');
    expect(link).toContain('page=3');
    expect(link).toContain('orderby=id');
    expect(res.body.map((i: { number: string }) => i.number)).toEqual(listed.slice(10, 20));
  });

  it('refuses a page past the last and per_page over 100', async () => {
    expect((await call(viewer, 'GET', '/invoices?search=customer&page=4')).body.code).toBe('billing_rest_invalid_page_number');
    expect((await call(viewer, 'GET', '/invoices?per_page=101')).body.code).toBe('rest_invalid_param');
  });

  it('answers [] with zero totals when nothing matches, and searches', async () => {
    const none = await call(viewer, 'GET', '/invoices?search=nobody-at-all');
    expect([none.status, none.body, none.headers.get('x-wp-total'), none.headers.get('x-wp-totalpages')]).toEqual([200, [], '0', '0']);
    const one = await call(viewer, 'GET', '/invoices?search=customer%2017');
    expect(one.body.map((i: { customer: { name: string } }) => i.customer.name)).toEqual(['Customer 17']);
    const filtered = await call(viewer, 'GET', `/invoices?status=available&client_id=${listedClientId}`);
    expect(filtered.body).toHaveLength(1);
  });

  it('trims with _fields and runs billing_rest_invoice', async () => {
    const off = svc.kernel.hooks.addFilter('billing_rest_invoice', (data, invoice) => ({
      ...data,
      shouted: String(invoice.number).toLowerCase(),
    }));
    const res = await call(viewer, 'GET', '/invoices?per_page=1&orderby=id&order=asc&_fields=id,number,totals.total,shouted');
    off();
    expect(res.body).toEqual([{ id: expect.any(Number), number: 'INV-0001', totals: { total: 361.5 }, shouted: 'inv-0001' }]);
  });
});

describe('GET and DELETE /invoices/{id}', () => {
  it('reads one, trashes it (200 with previous), then 404 on GET and 410 on a second DELETE', async () => {
    const created = await call(admin, 'POST', '/invoices', { items: [item], status: 'available' });
    const id = created.body.id;
    expect((await call(viewer, 'GET', `/invoices/${id}`)).body).toEqual(created.body);
    expect((await call(viewer, 'DELETE', `/invoices/${id}`)).status).toBe(403);
    expect((await call(admin, 'DELETE', `/invoices/${id}?force=true`)).body.code).toBe('billing_rest_trash_only');
    const del = await call(admin, 'DELETE', `/invoices/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ trashed: true, previous: created.body });
    expect((await call(viewer, 'GET', `/invoices/${id}`)).body.code).toBe('billing_rest_not_found');
    expect((await call(admin, 'DELETE', `/invoices/${id}`)).status).toBe(410);
    await svc.kernel.api.invoices.restore(id, CLI);
    expect((await call(viewer, 'GET', `/invoices/${id}`)).body.status).toBe('available');
  });

  it('answers 404 billing_rest_not_found for unknown ids, and rest_no_route for non-integers', async () => {
    expect((await call(viewer, 'GET', '/invoices/999999')).body.code).toBe('billing_rest_not_found');
    expect((await call(viewer, 'GET', '/invoices/abc')).body.code).toBe('rest_no_route');
  });
});

describe('GET /invoices/{id}/pdf', () => {
  it('renders the invoice as a PDF with its number, customer and total, with an ETag that answers 304', async () => {
    const created = await call(admin, 'POST', '/invoices', { items: [item], customer_name: 'Ελένη Παπαδοπούλου', status: 'available' });
    const path = `/invoices/${created.body.id}/pdf`;
    const res = await svc.rest(viewer).get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${created.body.number}.pdf"`);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const { text } = await pdfText(res.bytes);
    expect(text).toContain(created.body.number);
    expect(text).toContain('Ελένη Παπαδοπούλου');
    expect(text).toContain('361.50');
    const again = await svc.rest(viewer).get(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect((await svc.rest().get(path)).status).toBe(401);
  });
});
