// The scope matrix (docs/security.md, Scope): one service with every bundled plugin active and
// team_sales_scope=own; two billing_sales users, A and B, each with a client, an invoice, a quote, a
// credit note, a payment, a recurring profile and a library item of their own. Then, generated from the live registries —
// every REST route and every AJAX action of the core and of the plugins, not a list written here — every
// object a route or an action names is asked for by B with A's object in it: each answers as for a
// missing object (404 `billing_rest_not_found`, or the code the declaration gives for a reference in a
// body), or 403 where B lacks the capability. Every collection B may read holds B's and never A's, and
// its X-WP-Total with it. A route that names an object without declaring it cannot register, and the
// live registries hold none.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { errorStatus, type ErrorCode } from '../../core/errors.ts';
import type { ObjectRef } from '../../core/http/auth.ts';
import type { ArgSchema } from '../../core/http/rest/route.ts';
import type { Kernel } from '../../core/kernel.ts';
import { objectRefs, pathParams, undeclaredObjectParams } from '../../core/scope/object-params.ts';
import { SALES as SALES_ROLE, TEAM_ROLES } from '../../plugins/team-roles/roles.ts';
import { camt053 } from '../bank-transfer/statement-files.ts';
import { BUNDLED_PLUGINS, useService, type AjaxClient, type TestUser } from '../../testing/index.ts';
import { pluginFolders } from '../helpers/kernel.ts';

/** What billing_sales holds as the plugin declares it, plus what this test grants it so that cells answer 404, not 403. */
const SALES: readonly string[] = TEAM_ROLES.find((r) => r.name === SALES_ROLE)!.capabilities;
const GRANTED = ['bill_view_payments', 'bill_record_payment', 'bill_refund_payment', 'bill_view_reports', 'bill_delete_invoice'];
const holds = (cap: string) => SALES.includes(cap) || GRANTED.includes(cap);

/** One user's objects, by kind, and what names them otherwise (an invoice's number). */
interface Objects {
  invoice: number;
  number: string;
  quote: number;
  client: number;
  payment: number;
  credit_note: number;
  recurring: number;
  item: number;
  import: number;
  bank_statement: number;
  payment_method: number;
  attachment: number;
}

const svc = useService();
let k: Kernel;
let admin: TestUser;
const who: Record<'a' | 'b', { user: TestUser; ajax: AjaxClient; objects: Objects }> = {} as never;
const ITEM = { name: 'Work', quantity: 1, price: 100 };

/** The body as JSON, or null (a PDF or an XML file, `0` or `-1`): whatever its content type says. */
function json(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function rest(u: TestUser, method: string, path: string, body?: unknown) {
  const res = await svc.rest(u).request(method, `/wp-json${path}`, body);
  return { status: res.status, body: json(res.text), total: res.headers.get('x-wp-total') };
}

async function ajax(as: 'a' | 'b', fields: Record<string, string>) {
  const { ajax } = who[as];
  const res = await ajax.post({ _wpnonce: ajax.nonce, ...fields });
  return { status: res.status, body: json(res.text), text: res.text };
}

/** A value that passes `schema`, so that what answers a call is the object check and not argument validation. */
function plausible(schema: ArgSchema): unknown {
  if (schema.enum) return (schema.enum as unknown[])[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  const type = [schema.type].flat()[0];
  if (schema.oneOf) return plausible((schema.oneOf as ArgSchema[])[0]!);
  if (type === 'integer' || type === 'number') return Math.max(1, Number(schema.minimum ?? 1));
  if (type === 'boolean') return true;
  if (type === 'array') return schema.minItems ? [plausible(schema.items as ArgSchema)] : [];
  if (type === 'object') {
    const props = (schema.properties ?? {}) as Record<string, ArgSchema>;
    const required = (schema.required ?? []) as string[];
    return Object.fromEntries(required.map((p) => [p, props[p]?.const ?? plausible(props[p] ?? {})]));
  }
  if (schema.format === 'date-ymd') return '2031-01-15';
  if (schema.format === 'email') return 'someone@example.com';
  return 'sample';
}

/** A document body as POST /invoices takes it: what a reference to a client inside a body is put in. */
const documentBody = (extra: Record<string, unknown> = {}) => ({ items: [ITEM], ...extra });

/** The value of `ref` in a call naming `owner`'s object of its kind. */
function valueOf(ref: ObjectRef, owner: Objects): number | string {
  if (ref.by === 'number' && ref.kind === 'invoice') return owner.number;
  if (ref.by !== undefined) throw new Error(`the matrix has no ${ref.kind} by ${ref.by}: teach it`);
  const id = (owner as unknown as Record<string, number>)[ref.kind];
  if (id === undefined) throw new Error(`the matrix has no object of kind ${ref.kind}: give A and B one each`);
  return id;
}

/**
 * The parameters of a call in which `ref` names `target`'s object and every other object the route or
 * action names is B's own (so that only the reference under test can be refused); a parameter `a.b` is
 * field `b` of a document body in `a`.
 */
function callParams(refs: readonly ObjectRef[], ref: ObjectRef, target: Objects, asJsonText: boolean): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const r of refs) {
    const value = valueOf(r, r === ref ? target : who.b.objects);
    const [top, field] = r.param.split('.') as [string, string | undefined];
    if (field === undefined) params[top] = value;
    else params[top] = { ...documentBody(), ...((params[top] as object) ?? {}), [field]: value };
  }
  if (asJsonText) for (const [k2, v] of Object.entries(params)) if (v && typeof v === 'object') params[k2] = JSON.stringify(v);
  return params;
}

beforeAll(async () => {
  k = svc.kernel;
  for (const p of pluginFolders(BUNDLED_PLUGINS)) await k.plugins.activate(p, CLI);
  admin = await svc.makeUser('boss', 'administrator');
  // the sales role as the team-roles docs grant it payments and reports (and deleting, for the trash routes)
  const caps = (await rest(admin, 'GET', '/billing/v1/roles/billing_sales')).body.capabilities as string[];
  expect(
    (
      await rest(admin, 'PUT', '/billing/v1/roles/billing_sales', {
        capabilities: [...caps.filter((c) => c.startsWith('bill_')), ...GRANTED],
      })
    ).status,
  ).toBe(200);
  await k.options.set('team_sales_scope', 'own', CLI);
  await k.options.set('company_name', 'Seller Ltd', CLI);
  for (const as of ['a', 'b'] as const) {
    const user = await svc.makeUser(`sales-${as}`, 'billing_sales', `sales-${as}-password`);
    who[as] = { user, ajax: await svc.ajax(user.login, `sales-${as}-password`), objects: {} as Objects };
    const client = await ajax(as, { action: 'billing_save_client', name: `Client of ${as}`, email: `client-${as}@example.com` });
    expect(client.body.success).toBe(true);
    const invoice = await rest(user, 'POST', '/billing/v1/invoices', documentBody({ client_id: client.body.data.id, status: 'available' }));
    const quote = await rest(user, 'POST', '/billing/v1/quotes', documentBody({ client_id: client.body.data.id }));
    expect([invoice.status, quote.status]).toEqual([201, 201]);
    const id = invoice.body.id;
    const payment = await rest(user, 'POST', `/billing/v1/invoices/${id}/payments`, { amount: 10, method: 'cash', status: 'pending' });
    const note = await rest(user, 'POST', `/billing/v1/invoices/${id}/credit-notes`, { amount: 5, reason: 'discount' });
    const profile = await rest(user, 'POST', '/billing/v1/recurring', {
      template: documentBody({ client_id: client.body.data.id }),
      frequency: 'monthly',
      start_date: '2031-01-01',
    });
    const item = await rest(user, 'POST', '/billing/v1/items', { name: `Service of ${as}`, price: '10', unit: 'HUR' });
    // an upload of their own (a sales user cannot make one: the routes answer 403 before any lookup)
    const upload = await k.services.imports.preview(Buffer.from('name,email\n'), 'clients', null, { id: user.id, name: user.login });
    // a bank statement of one unmatched transfer, imported by the user (its entry is theirs alone)
    const statement = await svc.rest(user).post('/wp-json/billing/v1/bank-statements', {
      raw: camt053([{ amount: '1.00', ref: `MATRIX-${as}`, ustrd: ['nothing to match'] }], 8, `MATRIX-${as}`),
      type: 'application/xml',
    });
    const attached = await svc.rest(user).post(`/wp-json/billing/v1/invoices/${id}/attachments`, {
      raw: `Notes of ${as}\n`,
      type: 'text/plain',
    });
    expect([payment.status, note.status, profile.status, item.status, statement.status, attached.status]).toEqual([
      201, 201, 201, 201, 201, 201,
    ]);
    // a saved card comes only from a gateway's verified success: the matrix seeds one of its own
    const [saved] = await k.db.query<{ id: string }>(
      `insert into billing_payment_methods (client_id, method, token, label) values ($1, 'gateway_a', $2, 'Visa •••• 4242') returning id`,
      [client.body.data.id, `pm_matrix_${as}`],
    );
    who[as].objects = {
      invoice: id,
      number: invoice.body.number,
      quote: quote.body.id,
      client: client.body.data.id,
      payment: payment.body.id,
      credit_note: note.body.id,
      recurring: profile.body.id,
      item: item.body.id,
      import: upload.id,
      bank_statement: statement.body.id,
      payment_method: Number(saved!.id),
      attachment: attached.body.id,
    };
  }
}, 120000);

describe('every route and action that names an object is declared', () => {
  it('the live registries hold none that names an object without declaring it', () => {
    const undeclared = [
      ...k.rest.routes.entriesWithOwner().map(({ key, item }) => ({
        key,
        params: undeclaredObjectParams({
          named: pathParams(item.path),
          other: Object.keys(item.args ?? {}),
          object: item.object,
          unscoped: item.unscoped,
        }),
      })),
      ...k.ajax.actions.entriesWithOwner().flatMap(({ key, item }) =>
        item.kind === 'ajax'
          ? [
              {
                key,
                params: undeclaredObjectParams({
                  named: [],
                  other: Object.keys(item.def.fields ?? {}),
                  object: item.def.object,
                  unscoped: item.def.unscoped,
                }),
              },
            ]
          : [],
      ),
    ].filter((u) => u.params.length);
    expect(undeclared).toEqual([]);
  });

  it('a route or an action that names an object without declaring it is refused when registered, naming its owner', () => {
    const route = { path: '/things/(?P<id>[\\d]+)', methods: 'GET' as const, capability: 'read', handler: async () => null };
    expect(() => k.rest.add('careless', route)).toThrow(/careless: REST route GET \/billing\/v1\/things\/.*"id"/);
    expect(() => k.rest.add('careless', { ...route, path: '/things', args: { client_id: { type: 'integer' } } })).toThrow(/"client_id"/);
    const action = { action: 'careless_touch', capability: 'read', fields: { invoice_id: 'the invoice' }, handler: async () => null };
    expect(() => k.ajax.add('careless', action)).toThrow(/careless: AJAX action careless_touch .*"invoice_id"/);
    // a kind nobody declares is refused too
    expect(() => k.rest.add('careless', { ...route, object: { param: 'id', kind: 'thing' } })).toThrow(/kind thing/);
    expect(k.rest.routes.entriesWithOwner().some((r) => r.owner === 'careless')).toBe(false);
    expect(k.ajax.actions.get('careless_touch')).toBeUndefined();
  });

  it('what is declared unscoped is few, each with its reason', () => {
    const unscoped = [
      ...k.rest.routes
        .entriesWithOwner()
        .flatMap(({ key, item }) => Object.entries(item.unscoped ?? {}).map(([p, why]) => ({ at: `${key} ${p}`, why }))),
      ...k.ajax.actions
        .entriesWithOwner()
        .flatMap(({ key, item }) =>
          item.kind === 'ajax' ? Object.entries(item.def.unscoped ?? {}).map(([p, why]) => ({ at: `${key} ${p}`, why })) : [],
        ),
    ];
    for (const u of unscoped) expect(u.why.length).toBeGreaterThan(20);
    // a new exception is a decision to review here, not a default: the list is the whole of them
    expect(unscoped.map((u) => u.at).sort()).toEqual(
      [
        'GET /billing/v1/audit-log object_id',
        'GET /billing/v1/invoices client_id',
        'GET /billing/v1/invoices recurring_id',
        'GET /billing/v1/quotes client_id',
        'GET /billing/v1/quotes recurring_id',
        'GET /billing/v1/payments invoice_id',
        'POST /billing/v1/invoices/(?P<id>[\\d]+)/payments transaction_id',
        'POST /billing/v1/payments/(?P<id>[\\d]+)/complete transaction_id',
        'PUT /billing/v1/team/(?P<login>[^/]+) login',
        'GET /billing/v1/roles/(?P<role>[a-z0-9_]+) role',
        'PUT /billing/v1/roles/(?P<role>[a-z0-9_]+) role',
        ...['GET', 'PUT'].map((m) => `${m} /billing/v1/translations/(?P<locale>[^/]+) locale`),
        ...['GET', 'PUT', 'DELETE'].map((m) => `${m} /billing/v1/webhooks/(?P<id>[\\d]+) id`),
        'GET /billing/v1/webhooks/(?P<id>[\\d]+)/deliveries id',
        'POST /billing/v1/webhooks/(?P<id>[\\d]+)/test id',
        ...['billing_accept_quote', 'billing_quote_accept', 'billing_decline_quote', 'billing_quote_decline'].map((a) => `${a} quote_id`),
        'POST /billing/v1/bank-statements/(?P<id>[\\d]+)/entries/(?P<n>[\\d]+)/assign n',
        'billing_record_payment transaction_id',
        'billing_complete_payment transaction_id',
      ].sort(),
    );
  });
});

interface Cell {
  what: string;
  status: number;
  code: unknown;
  expected: string;
}

describe('B against A’s objects, on every route and action of the live registries', () => {
  it('REST: 404 (or the declared code for a reference in a body), 403 where the capability is missing', async () => {
    const wrong: Cell[] = [];
    let checked = 0;
    for (const { key, item: route } of k.rest.routes.entriesWithOwner()) {
      const refs = objectRefs(route.object);
      if (!refs.length || route.capability === null) continue;
      const [method, pattern] = key.split(' ') as [string, string];
      for (const ref of refs) {
        const params = callParams(refs, ref, who.a.objects, false);
        const inPath = pathParams(pattern);
        // the path's parameters in it, the rest as the body (or the query of a GET), with the required args
        const args = Object.fromEntries(
          Object.entries(route.args ?? {})
            .filter(([name, a]) => a.required && !inPath.includes(name))
            .map(([name, a]) => [name, plausible(a)]),
        );
        const rest2 = Object.fromEntries(Object.entries(params).filter(([p]) => !inPath.includes(p)));
        const path = pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, (_m, name: string) =>
          String(params[name] ?? valueOf({ param: name, kind: 'invoice' }, who.b.objects)),
        );
        const body = { ...args, ...rest2 };
        const query =
          method === 'GET' || method === 'DELETE' ? `?${new URLSearchParams(Object.entries(body).map(([q, v]) => [q, String(v)]))}` : '';
        const r = await rest(who.b.user, method, `${path}${query}`, query ? undefined : body);
        const code: ErrorCode = ref.missing ?? 'billing_rest_not_found';
        const allowed = holds(route.capability);
        const ok = allowed
          ? r.status === errorStatus(code) && r.body?.code === code
          : r.status === 403 && r.body?.code === 'billing_rest_forbidden';
        if (!ok)
          wrong.push({
            what: `${key} ${ref.param}=${ref.kind}`,
            status: r.status,
            code: r.body?.code ?? r.body,
            expected: allowed ? code : '403',
          });
        checked++;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  }, 120000);

  it('AJAX: not-found (or the declared code), billing_forbidden where the capability is missing', async () => {
    const wrong: Cell[] = [];
    let checked = 0;
    for (const { key, item: entry } of k.ajax.actions.entriesWithOwner()) {
      if (entry.kind !== 'ajax' || entry.legacy || entry.def.nopriv) continue;
      const def = entry.def;
      const refs = objectRefs(def.object);
      for (const ref of refs) {
        const fields = callParams(refs, ref, who.a.objects, true) as Record<string, string>;
        for (const [f, v] of Object.entries(fields)) fields[f] = String(v);
        const r = await ajax('b', { action: key, amount: '1', reason: 'x', ...fields });
        const cap = typeof def.capability === 'string' ? def.capability : fields.id ? def.capability!.edit : def.capability!.create;
        const code: ErrorCode = ref.missing ?? 'billing_rest_not_found';
        const allowed = holds(cap);
        const got = r.body?.data?.code;
        const ok = allowed ? r.status === errorStatus(code) && got === code : r.status === 403 && got === 'billing_forbidden';
        if (!ok)
          wrong.push({ what: `${key} ${ref.param}=${ref.kind}`, status: r.status, code: got ?? r.text, expected: allowed ? code : '403' });
        checked++;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(15);
  }, 120000);

  it("A's own calls are not refused: the matrix's answers are the scope's, not the routes'", async () => {
    const a = who.a.objects;
    for (const path of [
      `/invoices/${a.invoice}`,
      `/quotes/${a.quote}`,
      `/payments/${a.payment}`,
      `/credit-notes/${a.credit_note}`,
      `/recurring/${a.recurring}`,
      `/items/${a.item}`,
      `/bank-statements/${a.bank_statement}/entries`,
      `/invoices/${a.invoice}/ubl`,
      `/credit-notes/${a.credit_note}/ubl`,
    ]) {
      const r = await rest(who.a.user, 'GET', `/billing/v1${path}`);
      expect([path, r.status === 404]).toEqual([path, false]);
    }
  });
});

describe('lists: B’s hold B’s objects and never A’s, and X-WP-Total counts them so', () => {
  it('every collection route B may read', async () => {
    let checked = 0;
    for (const { key, item: route } of k.rest.routes.entriesWithOwner()) {
      const [method, pattern] = key.split(' ') as [string, string];
      if (method !== 'GET' || !route.args?.per_page || pathParams(pattern).length || !route.capability || !holds(route.capability))
        continue;
      const list = async (u: TestUser) => {
        const r = await rest(u, 'GET', `${pattern}?per_page=100`);
        expect([key, r.status]).toEqual([key, 200]);
        return { ids: (r.body as Array<{ id: number }>).map((x) => x.id), total: Number(r.total) };
      };
      const [a, b, all] = [await list(who.a.user), await list(who.b.user), await list(admin)];
      expect([key, a.ids.filter((id) => b.ids.includes(id))]).toEqual([key, []]);
      expect([key, b.total, a.total + b.total]).toEqual([key, b.ids.length, all.total]);
      expect([key, b.total > 0]).toEqual([key, true]);
      checked++;
    }
    // invoices, quotes, clients, payments, recurring profiles, library items
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});

describe('the item library’s search is narrowed as its list is', () => {
  it('billing_search_items offers B its own items and never A’s', async () => {
    const found = await ajax('b', { action: 'billing_search_items', term: 'service of' });
    expect(found.body.data.map((i: { id: number }) => i.id)).toEqual([who.b.objects.item]);
  });
});

describe("the second attack's scope defects, each as it was found", () => {
  it('(1) e-invoices: another user’s issued invoice and credit note are 404 in every format, never a 409 naming its number', async () => {
    const a = who.a.objects;
    for (const path of [
      `/invoices/${a.invoice}/ubl`,
      `/invoices/${a.invoice}/xrechnung`,
      `/invoices/${a.invoice}/cii`,
      `/invoices/${a.invoice}/facturx`,
      `/credit-notes/${a.credit_note}/ubl`,
    ]) {
      const r = await rest(who.b.user, 'GET', `/billing/v1${path}`);
      expect([path, r.status, r.body?.code, JSON.stringify(r.body).includes(a.number)]).toEqual([
        path,
        404,
        'billing_rest_not_found',
        false,
      ]);
    }
  });

  it('(2) recurring: B can neither read nor change A’s profile (rewrite, pause, resume, delete), and the list and X-WP-Total leave it out', async () => {
    const a = who.a.objects;
    const before = (await rest(who.a.user, 'GET', `/billing/v1/recurring/${a.recurring}`)).body;
    const rewrite = { template: documentBody({ customer_email: 'thief@example.com' }), auto_send: true };
    expect((await rest(who.b.user, 'PUT', `/billing/v1/recurring/${a.recurring}`, rewrite)).status).toBe(404);
    for (const step of ['pause', 'resume'])
      expect((await rest(who.b.user, 'POST', `/billing/v1/recurring/${a.recurring}/${step}`, {})).status).toBe(404);
    expect((await rest(who.b.user, 'DELETE', `/billing/v1/recurring/${a.recurring}`)).status).toBe(404);
    expect((await rest(who.a.user, 'GET', `/billing/v1/recurring/${a.recurring}`)).body).toEqual(before);
    const list = await rest(who.b.user, 'GET', '/billing/v1/recurring');
    expect([list.body.map((p: { id: number }) => p.id), list.total]).toEqual([[who.b.objects.recurring], '1']);
    expect((await rest(admin, 'GET', '/billing/v1/recurring')).total).toBe('2');
  });

  it('(8) billing_save_client: another’s client is 404 and stays as it was; a save changes only the fields it sends', async () => {
    const a = who.a.objects;
    await ajax('a', { action: 'billing_save_client', id: String(a.client), address: '1 Main St', vat: 'GB123', company: 'A Corp' });
    const stolen = await ajax('b', { action: 'billing_save_client', id: String(a.client), email: 'thief@example.com' });
    expect([stolen.status, stolen.body.data.code]).toEqual([404, 'billing_rest_not_found']);
    const client = await k.identity.users.byId(a.client);
    expect(client).toMatchObject({ email: 'client-a@example.com', address: '1 Main St', vat: 'GB123', company: 'A Corp' });
    // A renames the client: the address, VAT number and company it did not send are kept
    expect((await ajax('a', { action: 'billing_save_client', id: String(a.client), name: 'Client A renamed' })).body.success).toBe(true);
    expect(await k.identity.users.byId(a.client)).toMatchObject({
      display_name: 'Client A renamed',
      email: 'client-a@example.com',
      address: '1 Main St',
      vat: 'GB123',
      company: 'A Corp',
    });
    // a field sent empty that a client must have is still refused
    expect((await ajax('a', { action: 'billing_save_client', id: String(a.client), email: '' })).body.data.code).toBe(
      'rest_missing_callback_param',
    );
  });

  it('(9) clients: another’s client_id is an unknown client, the autocomplete lists only one’s own, and figures count only what one may see', async () => {
    const a = who.a.objects;
    const create = await rest(who.b.user, 'POST', '/billing/v1/invoices', documentBody({ client_id: a.client }));
    expect([create.status, create.body.code]).toEqual([400, 'billing_rest_no_client']);
    // the same answer as for a client that does not exist
    const unknown = await rest(who.b.user, 'POST', '/billing/v1/invoices', documentBody({ client_id: 999999 }));
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([400, 'billing_rest_no_client', create.body.message]);
    const search = await ajax('b', { action: 'billing_search_clients', term: 'client' });
    expect(search.body.data.map((c: { id: number }) => c.id)).toEqual([who.b.objects.client]);
    // the administrator bills B's client: B's figures for it do not tell of that invoice
    const theirs = await rest(
      admin,
      'POST',
      '/billing/v1/invoices',
      documentBody({ client_id: who.b.objects.client, status: 'available', items: [{ ...ITEM, price: 7000 }] }),
    );
    expect(theirs.status).toBe(201);
    const seen = async (u: TestUser) =>
      ((await rest(u, 'GET', '/billing/v1/clients')).body as any[]).find((c) => c.id === who.b.objects.client);
    const byB = await seen(who.b.user);
    const byAdmin = await seen(admin);
    expect([byB.counts.invoices, byAdmin.counts.invoices]).toEqual([1, 2]);
    expect(byAdmin.totals.invoiced - byB.totals.invoiced).toBe(7000);
  });

  it('(10) payments and reports count only what lies on one’s own invoices', async () => {
    const paid = await rest(who.a.user, 'POST', `/billing/v1/invoices/${who.a.objects.invoice}/payments`, {
      amount: 40,
      method: 'cash',
      status: 'completed',
    });
    expect(paid.status).toBe(201);
    const b = await rest(who.b.user, 'GET', '/billing/v1/payments');
    expect([b.body.map((p: { id: number }) => p.id), b.total]).toEqual([[who.b.objects.payment], '1']);
    const report = async (as: 'a' | 'b') =>
      (await ajax(as, { action: 'billing_get_report_data', start: '2000-01-01', group: 'month' })).body.data.totals;
    const [ra, rb] = [await report('a'), await report('b')];
    expect(rb).toEqual({ invoiced: 100, paid: 0, outstanding: 95 });
    expect(ra).toEqual({ invoiced: 100, paid: 40, outstanding: 55 });
    // the administrator's is the site's: it counts too an invoice neither of them made (one of its own,
    // so that this holds when the test runs alone, without the invoices the tests before it made)
    await k.api.invoices.create(documentBody({ status: 'available' }) as never, { actor: CLI, source: 'api' });
    const all = await k.api.reports.data({ start: '2000-01-01', group: 'month' });
    expect(all.totals.paid).toBe(40);
    expect(all.totals.invoiced).toBeGreaterThan(ra.invoiced + rb.invoiced);
  });

  it('(16) invoices made by a recurring profile or an accepted quote are their creator’s', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const profile = await rest(who.a.user, 'POST', '/billing/v1/recurring', {
      template: documentBody(),
      frequency: 'monthly',
      start_date: today,
    });
    expect(profile.status).toBe(201);
    await k.jobs.runNow('billing_generate_recurring_invoices');
    const made = await rest(who.a.user, 'GET', `/billing/v1/invoices?recurring_id=${profile.body.id}`);
    expect([made.status, made.total]).toEqual([200, '1']);
    expect((await rest(who.b.user, 'GET', `/billing/v1/invoices/${made.body[0].id}`)).status).toBe(404);

    await k.options.set('quote_signature_required', false, CLI);
    const quote = await rest(
      who.a.user,
      'POST',
      '/billing/v1/quotes',
      documentBody({ status: 'available', customer_name: 'Q', customer_email: 'q@example.com', expiry_date: '2099-01-01' }),
    );
    const key = await k.api.quotes.accessKey(quote.body.id);
    const page = await (await fetch(`${k.url}/billing/quote/${quote.body.id}?key=${encodeURIComponent(key)}`)).text();
    const token = /name="token"\s+value="([^"]+)"/.exec(page)![1]!;
    const accepted = await fetch(`${k.url}/wp-admin/admin-ajax.php`, {
      method: 'POST',
      body: new URLSearchParams({ action: 'billing_accept_quote', quote_id: String(quote.body.id), token }),
    });
    const invoiceId = (await accepted.json()).data.invoice_id as number;
    expect(invoiceId).toBeGreaterThan(0);
    expect((await rest(who.a.user, 'GET', `/billing/v1/invoices/${invoiceId}`)).status).toBe(200);
    expect((await rest(who.b.user, 'GET', `/billing/v1/invoices/${invoiceId}`)).status).toBe(404);
  });
});
