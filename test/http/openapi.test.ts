import { beforeAll, describe, expect, it } from '@jest/globals';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { billing } from '../helpers/cli.ts';
import { checkResponse } from '../helpers/response-check.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS] });
let k: Kernel;
let admin: TestUser;
let client: TestUser;

type Json = Record<string, any>;

/** A path under /wp-json (the index itself is `/`). */
function get(path: string, user: TestUser | null = admin) {
  return svc.rest(user).get(`/wp-json${path}`);
}

async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await svc.rest(admin).request(method, path, body, headers);
  expect(res.status).toBeLessThan(300);
  return res.body;
}

const openapi = async (): Promise<Json> => (await get('/billing/v1/openapi.json')).body;

/** `/billing/v1/invoices/(?P<id>[\d]+)` as the document names it. */
const templated = (key: string) => key.replace(/\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)/g, '{$1}');

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  client = await svc.makeUser('acme', 'billing_client');
});

describe('GET /wp-json/billing/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document that a well-kept validator accepts', async () => {
    const doc = await openapi();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `${k.url}/wp-json` }]);
    // the validator dereferences in place: give it a copy
    await expect(validateOpenApi(structuredClone(doc) as never)).resolves.toMatchObject({ valid: true });
  });

  it('needs a signed-in user, as the namespace index does; any signed-in user may read it', async () => {
    const anonymous = await get('/billing/v1/openapi.json', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('billing_rest_unauthenticated');
    expect((await get('/billing/v1/openapi.json', client)).status).toBe(200);
  });

  it('lists every route of GET /wp-json/ and nothing else, with the same methods', async () => {
    const index = (await get('/', null)).body;
    const doc = await openapi();
    const fromIndex = Object.keys(index.routes).map(templated).sort();
    expect(Object.keys(doc.paths).sort()).toEqual(fromIndex);
    for (const [key, route] of Object.entries<Json>(index.routes)) {
      const item = doc.paths[templated(key)];
      expect(item['x-wp-route']).toBe(key);
      const methods = Object.keys(item)
        .filter((m) => !m.startsWith('x-'))
        .map((m) => m.toUpperCase())
        .sort();
      expect(methods).toEqual([...route.methods].sort());
    }
  });

  it("declares each route's args, capability, success representation, errors and pagination", async () => {
    const doc = await openapi();
    const list = doc.paths['/billing/v1/invoices'].get;
    expect(list['x-billing-capability']).toBe('bill_view_invoices');
    const perPage = list.parameters.find((p: Json) => p.name === 'per_page');
    expect(perPage).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } });
    expect(list.parameters.find((p: Json) => p.name === 'status')).toMatchObject({ style: 'form', explode: false });
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/invoice' },
    });
    expect(Object.keys(list.responses['200'].headers)).toEqual(['X-WP-Total', 'X-WP-TotalPages', 'Link']);
    expect(list.responses['400'].content['application/json'].schema.properties.code.enum).toContain('billing_rest_invalid_page_number');
    expect(list.responses['401'].content['application/json'].schema.properties.code.enum).toEqual(['billing_rest_unauthenticated']);

    const create = doc.paths['/billing/v1/invoices'].post;
    expect(create['x-billing-capability']).toBe('bill_create_invoice');
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['items']);
    expect(body.properties.items.items.required).toEqual(expect.arrayContaining(['name', 'quantity', 'price']));
    expect(create.responses['201'].headers.Location).toBeDefined();
    expect(create.responses['400'].content['application/json'].schema.properties.code.enum).toEqual(
      expect.arrayContaining(['rest_invalid_param', 'rest_missing_callback_param', 'billing_rest_no_client', 'billing_rest_number_taken']),
    );

    const one = doc.paths['/billing/v1/invoices/{id}'];
    expect(one.get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true, schema: { type: 'integer' } });
    expect(one.get.responses['404'].content['application/json'].schema.properties.code.enum).toEqual(['billing_rest_not_found']);
    expect(one.delete.responses['200'].content['application/json'].schema.properties.previous).toEqual({
      $ref: '#/components/schemas/invoice',
    });
    expect(one.delete.responses['410']).toBeDefined();
    expect(Object.keys(doc.paths['/billing/v1/invoices/{id}/pdf'].get.responses['200'].content)).toEqual(['application/pdf']);

    const refund = doc.paths['/billing/v1/payments/{id}/refund'].post;
    expect(refund.parameters.map((p: Json) => `${p.in}:${p.name}`)).toContain('header:Idempotency-Key');

    for (const name of ['invoice', 'quote', 'client', 'payment', 'credit-note']) expect(doc.components.schemas[name]).toBeDefined();
    expect(doc.components.schemas.error.required).toEqual(['code', 'message', 'data']);
    expect(doc.components.securitySchemes.applicationPassword).toEqual(expect.objectContaining({ type: 'http', scheme: 'basic' }));
    expect(doc.components.securitySchemes.restNonce).toEqual(expect.objectContaining({ in: 'header', name: 'X-WP-Nonce' }));
    expect(doc.security).toEqual([{ applicationPassword: [] }, { sessionCookie: [], restNonce: [] }]);
  });

  it("adds a plugin's paths while it is active and drops them once it is deactivated", async () => {
    const before = await openapi();
    expect(before.paths['/billing/v1/hello']).toBeUndefined();
    await k.plugins.activate('hello', CLI);
    try {
      const during = await openapi();
      expect(during.paths['/billing/v1/hello'].get).toMatchObject({
        'x-billing-owner': 'hello',
        'x-billing-capability': 'read',
        parameters: [{ name: 'name', in: 'query', schema: { type: 'string' } }],
      });
      await expect(validateOpenApi(structuredClone(during) as never)).resolves.toMatchObject({ valid: true });
      // answered as the (fresh) document says
      expect((await get('/billing/v1/hello?name=you')).body).toEqual({ greeting: 'Hello, you' });
    } finally {
      await k.plugins.deactivate('hello', CLI);
    }
    const after = await openapi();
    expect(after.paths['/billing/v1/hello']).toBeUndefined();
    expect(Object.keys(after.paths).sort()).toEqual(Object.keys(before.paths).sort());
  });

  it('is what `billing openapi` prints', async () => {
    const out = await billing(svc.databaseUrl, ['openapi', '--format', 'json'], { BASE_URL: k.url });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(await openapi());
  });
});

describe('the namespace index in GET /wp-json/', () => {
  it("has WordPress's shape: GET, with its namespace and context args", async () => {
    const index = (await get('/', null)).body;
    expect(index.routes['/billing/v1']).toEqual({
      namespace: 'billing/v1',
      methods: ['GET'],
      endpoints: [
        {
          methods: ['GET'],
          args: { namespace: { default: 'billing/v1', required: false }, context: { default: 'view', required: false } },
        },
      ],
      _links: { self: [{ href: `${k.url}/wp-json/billing/v1` }] },
    });
  });
});

describe('representation schemas', () => {
  /**
   * The REST suites check every answer against the document leniently (test/helpers/response-check.ts):
   * a filter may add fields. Here, with no filter, each representation must have exactly the documented
   * fields: a field the service adds without documenting it fails.
   */
  const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule.default;
  const strict = new Ajv2020({ allErrors: true, strict: false });
  addFormats(strict);

  const closed = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(closed);
    if (!s || typeof s !== 'object') return s;
    const out: Json = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, closed(v)]));
    if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };

  const check = (doc: Json, name: string, value: unknown) => {
    const validate = strict.compile({ $ref: `#/components/schemas/${name}`, components: closed(doc.components) as Json });
    if (!validate(value)) throw new Error(`${name}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value)}`);
  };

  it('describe exactly what invoices, quotes, clients, payments and credit notes look like', async () => {
    const invoice = await send('POST', '/invoices', {
      client_id: client.id,
      status: 'available',
      items: [{ name: 'Work', quantity: 2, price: 50, taxable: true }],
      discount: { type: 'percent', value: 10 },
      notes: 'Thanks',
    });
    const payment = await send('POST', `/invoices/${invoice.id}/payments`, { amount: 10, method: 'cash', status: 'completed' });
    const note = await send('POST', `/invoices/${invoice.id}/credit-notes`, { amount: 5, reason: 'Goodwill' });
    const quote = await send('POST', '/quotes', { customer_name: 'Q Ltd', items: [{ name: 'Plan', quantity: 1, price: 10 }] });
    const doc = await openapi();

    check(doc, 'invoice', (await get(`/billing/v1/invoices/${invoice.id}`)).body);
    check(doc, 'quote', quote);
    check(doc, 'payment', payment);
    check(doc, 'credit-note', note);
    const clients = (await get('/billing/v1/clients')).body;
    expect(clients.length).toBeGreaterThan(0);
    for (const c of clients) check(doc, 'client', c);
    check(doc, 'user', (await get('/billing/v1/users/me')).body);
    for (const entry of (await get('/billing/v1/audit-log')).body) check(doc, 'audit-entry', entry);

    // and a field the schema does not know is caught
    expect(() => check(doc, 'payment', { ...payment, surprise: 1 })).toThrow(/additional/);
  });
});

describe('the check every REST test runs (test/helpers/response-check.ts)', () => {
  const answer = (body: unknown, status = 200, type = 'application/json; charset=UTF-8') =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
  const request = (method: string, path: string) => ({
    url: new URL(`${k.url}/wp-json/billing/v1${path}`),
    method,
    headers: new Headers({ authorization: admin.authorization }),
  });

  it('is installed on the global fetch of every test file', () => {
    expect((globalThis.fetch as { checked?: boolean }).checked).toBe(true);
  });

  it('refuses a body, a status or a content type the document does not describe', async () => {
    const invoice = await send('POST', '/invoices', { status: 'available', items: [{ name: 'Work', quantity: 1, price: 50 }] });
    await send('POST', `/invoices/${invoice.id}/payments`, { amount: 10, method: 'cash', status: 'completed' });
    const payment = (await get('/billing/v1/payments')).body[0] as Json;
    expect(payment).toBeDefined();
    await expect(checkResponse(request('GET', `/payments/${payment.id}`), answer(payment))).resolves.toBeUndefined();
    await expect(checkResponse(request('GET', `/payments/${payment.id}`), answer({ ...payment, amount: '10.00' }))).rejects.toThrow(
      /amount must be number/,
    );
    const { review: _review, ...partial } = payment;
    await expect(checkResponse(request('GET', `/payments/${payment.id}`), answer(partial))).rejects.toThrow(/review/);
    await expect(checkResponse(request('GET', `/payments/${payment.id}`), answer(payment, 202))).rejects.toThrow(/answered 202/);
    await expect(checkResponse(request('GET', `/invoices/1/pdf`), answer({}))).rejects.toThrow(/application\/json/);
    await expect(checkResponse(request('GET', '/nowhere'), answer({}))).rejects.toThrow(/no such operation/);
  });
});
