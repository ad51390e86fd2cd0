import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type AjaxClient, type RestClient, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let admin: TestUser;
/** The administrator's REST client. */
let api: RestClient;
/** Signed-in users' admin-ajax clients (each with the `billing_admin` nonce it was given). */
const as: Record<string, { client: AjaxClient; user: TestUser }> = {};
/** The bodies of the raw requests below; with the clients' `seen`, to prove no access key ever left the server. */
const bodies: string[] = [];

const item = { name: 'Design work', description: 'Logo', quantity: 3, price: 120.5, taxable: true };

interface Answer {
  status: number;
  text: string;
  body: any;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  bodies.push(text);
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* `0` and `-1` stay text */
  }
  return { status: res.status, text, body };
}

/** admin-ajax as `who`, with their nonce unless `fields` brings its own `_wpnonce`. */
function ajax(who: string, fields: Record<string, string>): Promise<Answer> {
  const { client } = as[who]!;
  return client.post({ _wpnonce: client.nonce, ...fields });
}

const save = (who: string, doc: unknown, id?: number) =>
  ajax(who, {
    action: 'billing_save_invoice',
    invoice: typeof doc === 'string' ? doc : JSON.stringify(doc),
    ...(id ? { id: String(id) } : {}),
  });

function rest(method: string, path: string, body?: unknown): Promise<Answer> {
  return api.request(method, path, body);
}

/** How many invoices the REST list counts (X-WP-Total). */
async function invoiceCount(): Promise<number> {
  return Number((await api.get('/invoices?per_page=1')).headers.get('x-wp-total'));
}

async function signIn(login: string, role: string): Promise<void> {
  const user = await svc.makeUser(login, role, `${login}-pass-1`);
  as[login] = { client: await svc.ajax(login, `${login}-pass-1`), user };
}

/** A team-roles style rule for the duration of `fn`: `edit` changes the named user's capabilities. */
async function withCaps<T>(
  userId: number,
  edit: (allcaps: Record<string, boolean>) => Record<string, boolean>,
  fn: () => Promise<T>,
): Promise<T> {
  const off = k.hooks.addFilter(
    'billing_user_has_cap',
    (allcaps, _caps, args) => (args[1] === userId ? edit(allcaps) : allcaps),
    10,
    'test',
  );
  try {
    return await fn();
  } finally {
    off();
  }
}

beforeAll(async () => {
  k = svc.kernel;
  await signIn('boss', 'administrator');
  admin = as.boss!.user;
  api = svc.rest(admin);
  await signIn('peek', 'billing_viewer');
  await signIn('sub', 'subscriber');
  await signIn('clerk', 'editor');
  await signIn('legacy', 'administrator');
  // a document whose key no answer may carry, whichever tests run
  await k.api.invoices.create({ items: [item], customer_name: 'Keyed' }, { actor: CLI, source: 'api' });
  svc.beforeStop(async () => {
    const keys = (await k.db.query<{ access_key: string }>('select access_key from billing_documents')).map((r) => r.access_key);
    expect(keys.length).toBeGreaterThan(0);
    const received = [...bodies, ...api.seen, ...Object.values(as).flatMap((a) => a.client.seen)];
    for (const key of keys) for (const body of received) expect(body).not.toContain(key);
  });
});

describe('admin-ajax.php rules (docs/ajax.md)', () => {
  it('answers 0 with 400 for a missing or unknown action, and to a visitor on a signed-in action', async () => {
    expect(await ajax('boss', { action: 'billing_no_such_action' })).toMatchObject({ status: 400, text: '0' });
    expect(await ajax('boss', {})).toMatchObject({ status: 400, text: '0' });
    const visitor = await answer(
      await fetch(`${svc.url}/wp-admin/admin-ajax.php`, {
        method: 'POST',
        body: new URLSearchParams({ action: 'billing_search_invoices', term: 'x' }),
      }),
    );
    expect(visitor).toMatchObject({ status: 400, text: '0' });
  });

  it('answers -1 with 403 for a bad or missing nonce, and writes nothing', async () => {
    const before = await invoiceCount();
    expect(
      await ajax('boss', { action: 'billing_save_invoice', invoice: JSON.stringify({ items: [item] }), _wpnonce: 'deadbeef00' }),
    ).toMatchObject({ status: 403, text: '-1' });
    const browser = as.boss!.client.session;
    const missing = await answer(
      await browser.fetch('/wp-admin/admin-ajax.php', {
        method: 'POST',
        body: new URLSearchParams({ action: 'billing_save_invoice', invoice: JSON.stringify({ items: [item] }) }),
      }),
    );
    expect(missing).toMatchObject({ status: 403, text: '-1' });
    // another user's nonce is no nonce
    expect(await ajax('boss', { action: 'billing_delete_invoice', id: '1', _wpnonce: as.peek!.client.nonce })).toMatchObject({
      status: 403,
      text: '-1',
    });
    expect(await invoiceCount()).toBe(before);
  });

  it('answers 403 billing_forbidden to a role without the capability', async () => {
    const created = await save('boss', { items: [item] });
    const cases: Array<Record<string, string>> = [
      { action: 'billing_save_invoice', invoice: JSON.stringify({ items: [item] }) },
      { action: 'billing_save_invoice', invoice: JSON.stringify({ items: [item] }), id: String(created.body.data.id) },
      { action: 'billing_delete_invoice', id: String(created.body.data.id) },
      { action: 'billing_restore_invoice', id: String(created.body.data.id) },
      { action: 'billing_duplicate_invoice', id: String(created.body.data.id) },
    ];
    for (const fields of cases) {
      const res = await ajax('peek', fields);
      expect({ fields, status: res.status, body: res.body }).toEqual({
        fields,
        status: 403,
        body: { success: false, data: { code: 'billing_forbidden', message: expect.any(String) } },
      });
    }
    const sub = await ajax('sub', { action: 'billing_search_invoices', term: '' });
    expect([sub.status, sub.body.data.code]).toEqual([403, 'billing_forbidden']);
  });
});

describe('billing_save_invoice', () => {
  it('creates through InvoiceService (source ajax) and answers the REST representation', async () => {
    const heard: string[] = [];
    const off = k.hooks.addAction('billing_invoice_created', (_id, _inv, c) => {
      heard.push(c.source);
    });
    const res = await save('boss', { items: [item], customer_name: 'Jane Roe', customer_email: 'jane@roe.test', title: 'Branding' });
    off();
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      number: expect.stringMatching(/^INV-\d{4}$/),
      status: 'draft',
      title: 'Branding',
      customer: { name: 'Jane Roe', email: 'jane@roe.test', country: '', vat: '' },
      totals: { subtotal: 361.5, total: 361.5, due: 361.5 },
    });
    expect(heard).toEqual(['ajax']);
    const got = await rest('GET', `/invoices/${res.body.data.id}`);
    expect(res.body.data).toEqual(got.body);
  });

  it('takes the document as a JSON body too (the action and nonce as fields of it)', async () => {
    const { session: browser, nonce } = as.boss!.client;
    const res = await answer(
      await browser.fetch('/wp-admin/admin-ajax.php', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'billing_save_invoice', _wpnonce: nonce, invoice: { items: [item], title: 'As JSON' } }),
      }),
    );
    expect([res.status, res.body.success, res.body.data.title]).toEqual([200, true, 'As JSON']);
  });

  it('checks the document with the schemas of POST /invoices: the same codes, nothing written', async () => {
    const taken = (await save('boss', { items: [item] })).body.data.number;
    const before = await invoiceCount();
    const cases: Array<[unknown, number, string, unknown?]> = [
      ['', 400, 'rest_missing_callback_param', { params: ['invoice'] }],
      ['{"items": [', 400, 'rest_invalid_json'],
      ['[1, 2]', 400, 'rest_invalid_param', { params: { invoice: expect.any(String) } }],
      [{}, 400, 'rest_missing_callback_param', { params: ['items'] }],
      [{ items: [] }, 400, 'rest_invalid_param', { params: { items: expect.any(String) } }],
      [{ items: [{ ...item, name: '  ' }] }, 400, 'rest_invalid_param'],
      [{ items: [{ ...item, quantity: 0 }] }, 400, 'rest_invalid_param'],
      [{ items: [{ ...item, price: 0.00001 }] }, 400, 'rest_invalid_param'],
      [{ items: [item], status: 'paid' }, 400, 'rest_invalid_param', { params: { status: expect.stringMatching(/payments/) } }],
      [{ items: [item], currency: 'EURO' }, 400, 'rest_invalid_param'],
      [{ items: [item], customer_country: 'Germany' }, 400, 'rest_invalid_param'],
      [{ items: [item], customer_email: 'not-an-address' }, 400, 'rest_invalid_param'],
      [{ items: [item], issue_date: '2026-02-30' }, 400, 'rest_invalid_param'],
      [{ items: [item], issue_date: '2026-03-02', due_date: '2026-03-01' }, 400, 'rest_invalid_param'],
      [{ items: [item], discount: { type: 'fixed', value: 1000 } }, 400, 'rest_invalid_param'],
      [{ items: [item], client_id: 424242 }, 400, 'billing_rest_no_client'],
      [{ items: [item], number: taken }, 400, 'billing_rest_number_taken'],
    ];
    for (const [doc, status, code, data] of cases) {
      const res = await save('boss', doc);
      expect({ doc, status: res.status, success: res.body.success, code: res.body.data.code }).toEqual({
        doc,
        status,
        success: false,
        code,
      });
      expect(res.body.data.message).toEqual(expect.any(String));
      if (data) expect(res.body.data).toMatchObject(data as object);
    }
    // the REST surface gives the same answer for the same body
    const viaRest = await rest('POST', '/invoices', { items: [{ ...item, quantity: 0 }] });
    const viaAjax = await save('boss', { items: [{ ...item, quantity: 0 }] });
    expect(viaAjax.body.data).toEqual({ code: viaRest.body.code, message: viaRest.body.message, ...viaRest.body.data, status: undefined });
    expect(await invoiceCount()).toBe(before);
  });

  it('updates a draft with bill_edit_invoice, keeping its number; saving as available issues it', async () => {
    const draft = (await save('boss', { items: [item], customer_name: 'First Name' })).body.data;
    const changed = await save('boss', { items: [{ ...item, quantity: 1 }], customer_name: 'Second Name', notes: 'n' }, draft.id);
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      id: draft.id,
      number: draft.number,
      status: 'draft',
      customer: { name: 'Second Name' },
      notes: 'n',
      totals: { total: 120.5 },
    });
    expect(changed.body.data).toEqual((await rest('GET', `/invoices/${draft.id}`)).body);
    const issued = await save('boss', { items: [{ ...item, quantity: 1 }], customer_name: 'Second Name', status: 'available' }, draft.id);
    expect(issued.body.data).toMatchObject({ id: draft.id, status: 'available' });
  });

  it('treats an empty id as a new invoice, refuses a malformed one and 404s an unknown or trashed one', async () => {
    const blank = await ajax('boss', { action: 'billing_save_invoice', id: '', invoice: JSON.stringify({ items: [item] }) });
    expect([blank.status, blank.body.success]).toEqual([200, true]);
    const malformed = await ajax('boss', { action: 'billing_save_invoice', id: 'abc', invoice: JSON.stringify({ items: [item] }) });
    expect([malformed.status, malformed.body.data.code, Object.keys(malformed.body.data.params)]).toEqual([
      400,
      'rest_invalid_param',
      ['id'],
    ]);
    const unknown = await save('boss', { items: [item] }, 999999);
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { success: false, data: { code: 'billing_rest_not_found', message: expect.any(String) } },
    ]);
    const trashed = (await save('boss', { items: [item] })).body.data;
    await ajax('boss', { action: 'billing_delete_invoice', id: String(trashed.id) });
    expect((await save('boss', { items: [item] }, trashed.id)).body.data.code).toBe('billing_rest_not_found');
  });

  it('asks bill_create_invoice to create and bill_edit_invoice to change', async () => {
    // an editor (no manage_options) granted one of the two by a team-roles style rule
    const clerk = as.clerk!.user;
    const mine = (await save('boss', { items: [item] })).body.data;
    await withCaps(
      clerk.id,
      (caps) => ({ ...caps, bill_create_invoice: true }),
      async () => {
        const created = await save('clerk', { items: [item] });
        expect([created.status, created.body.success]).toEqual([200, true]);
        const edit = await save('clerk', { items: [item], notes: 'x' }, mine.id);
        expect([edit.status, edit.body.data.code]).toEqual([403, 'billing_forbidden']);
      },
    );
    await withCaps(
      clerk.id,
      (caps) => ({ ...caps, bill_edit_invoice: true }),
      async () => {
        const create = await save('clerk', { items: [item] });
        expect([create.status, create.body.data.code]).toEqual([403, 'billing_forbidden']);
        const edit = await save('clerk', { items: [item], notes: 'by clerk' }, mine.id);
        expect([edit.status, edit.body.data.notes]).toEqual([200, 'by clerk']);
      },
    );
  });

  it('lets an issued invoice change its notes only: anything else is 409 billing_rest_invalid_state', async () => {
    const body = {
      items: [item],
      customer_name: 'Locked Ltd',
      customer_email: 'ap@locked.test',
      status: 'available',
      title: 'Issued',
      terms: 'Net 30',
    };
    const issued = (await save('boss', body)).body.data;
    expect(issued.status).toBe('available');
    const notes = await save('boss', { ...body, notes: 'Paid by wire, ref 42' }, issued.id);
    expect(notes.status).toBe(200);
    expect(notes.body.data).toEqual({ ...issued, notes: 'Paid by wire, ref 42', date_modified: expect.any(String) });
    for (const change of [
      { items: [{ ...item, price: 99 }] },
      { items: [item, { name: 'Extra', quantity: 1, price: 1 }] },
      { customer_name: 'Someone Else' },
      { customer_email: 'other@locked.test' },
      { title: 'Renamed' },
      { terms: 'Net 60' },
      { currency: 'EUR' },
      { issue_date: '2020-01-01' },
      { number: 'INV-9999' },
    ]) {
      const res = await save('boss', { ...body, ...change, notes: 'should not stick' }, issued.id);
      expect({ change, status: res.status, code: res.body.data.code }).toEqual({ change, status: 409, code: 'billing_rest_invalid_state' });
    }
    const stored = (await rest('GET', `/invoices/${issued.id}`)).body;
    expect(stored).toMatchObject({
      notes: 'Paid by wire, ref 42',
      title: 'Issued',
      totals: issued.totals,
      items: issued.items,
      number: issued.number,
    });
  });
});

describe('billing_delete_invoice and billing_restore_invoice', () => {
  it('trashes as REST DELETE does, 410 the second time, and restores the previous status', async () => {
    const doc = (await save('boss', { items: [item], status: 'available' })).body.data;
    const heard: string[] = [];
    const offT = k.hooks.addAction('billing_invoice_trashed', (id) => {
      heard.push(`trashed ${id}`);
    });
    const offR = k.hooks.addAction('billing_invoice_restored', (id) => {
      heard.push(`restored ${id}`);
    });
    try {
      const del = await ajax('boss', { action: 'billing_delete_invoice', id: String(doc.id) });
      expect([del.status, del.body]).toEqual([200, { success: true, data: { trashed: true, previous: doc } }]);
      expect((await rest('GET', `/invoices/${doc.id}`)).status).toBe(404);
      const again = await ajax('boss', { action: 'billing_delete_invoice', id: String(doc.id) });
      expect([again.status, again.body.data.code]).toEqual([410, 'billing_rest_already_trashed']);
      const back = await ajax('boss', { action: 'billing_restore_invoice', id: String(doc.id) });
      expect([back.status, back.body.success]).toEqual([200, true]);
      expect(back.body.data).toEqual({ ...doc, date_modified: expect.any(String) });
      expect((await rest('GET', `/invoices/${doc.id}`)).body).toMatchObject({ id: doc.id, status: 'available' });
      expect(heard).toEqual([`trashed ${doc.id}`, `restored ${doc.id}`]);
    } finally {
      offT();
      offR();
    }
  });

  it('answers 404 for an unknown id and 400 for a missing or malformed one', async () => {
    for (const action of ['billing_delete_invoice', 'billing_restore_invoice']) {
      const unknown = await ajax('boss', { action, id: '999999' });
      expect([action, unknown.status, unknown.body.data.code]).toEqual([action, 404, 'billing_rest_not_found']);
      const missing = await ajax('boss', { action });
      expect([action, missing.status, missing.body.data.code, missing.body.data.params]).toEqual([
        action,
        400,
        'rest_missing_callback_param',
        ['id'],
      ]);
      const malformed = await ajax('boss', { action, id: '-3' });
      expect([action, malformed.status, malformed.body.data.code]).toEqual([action, 400, 'rest_invalid_param']);
    }
  });

  it('never reaches another kind of document', async () => {
    const quote = await k.api.quotes.create({ items: [item] }, { actor: CLI, source: 'api' });
    const res = await ajax('boss', { action: 'billing_delete_invoice', id: String(quote.id) });
    expect([res.status, res.body.data.code]).toEqual([404, 'billing_rest_not_found']);
  });
});

describe('billing_duplicate_invoice', () => {
  it('makes a new numbered draft with the same customer and items (source ajax)', async () => {
    const src = (
      await save('boss', {
        items: [item, { name: 'Hosting', quantity: 12, price: 9.99, taxable: false }],
        customer_name: 'Copy Co',
        customer_email: 'c@copy.test',
        status: 'available',
        title: 'Yearly',
        notes: 'keep',
        terms: 'Net 15',
        discount: { type: 'percent', value: 10 },
      })
    ).body.data;
    const heard: string[] = [];
    const off = k.hooks.addAction('billing_invoice_created', (_id, _inv, c) => {
      heard.push(c.source);
    });
    const res = await ajax('boss', { action: 'billing_duplicate_invoice', id: String(src.id) });
    off();
    expect(res.status).toBe(200);
    const copy = res.body.data;
    expect(copy.id).not.toBe(src.id);
    expect(copy.number).not.toBe(src.number);
    expect(copy).toMatchObject({
      status: 'draft',
      customer: src.customer,
      items: src.items,
      totals: src.totals,
      title: 'Yearly',
      terms: 'Net 15',
      discount: src.discount,
    });
    expect(copy).toEqual((await rest('GET', `/invoices/${copy.id}`)).body);
    expect(heard).toEqual(['ajax']);
  });

  it('answers 404 for an unknown or trashed invoice', async () => {
    expect((await ajax('boss', { action: 'billing_duplicate_invoice', id: '999999' })).body.data.code).toBe('billing_rest_not_found');
    const gone = (await save('boss', { items: [item] })).body.data;
    await ajax('boss', { action: 'billing_delete_invoice', id: String(gone.id) });
    const res = await ajax('boss', { action: 'billing_duplicate_invoice', id: String(gone.id) });
    expect([res.status, res.body.data.code]).toEqual([404, 'billing_rest_not_found']);
  });
});

describe('billing_search_invoices', () => {
  it('answers at most 20 short entries matching number, title or customer, to a viewer too', async () => {
    for (let i = 0; i < 23; i++) {
      await k.api.invoices.create(
        { items: [{ name: 'Thing', quantity: 1, price: `${i}.05` }], customer_name: `Zyxel Sàrl ${i}`, currency: i === 0 ? 'KWD' : 'USD' },
        { actor: CLI, source: 'api' },
      );
    }
    const res = await ajax('peek', { action: 'billing_search_invoices', term: 'ZYXEL' });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    for (const hit of res.body.data) {
      expect(Object.keys(hit).sort()).toEqual(['currency', 'customer', 'due', 'id', 'number', 'status', 'total']);
      expect(hit.customer).toMatch(/^Zyxel Sàrl \d+$/);
    }
    const one = res.body.data.find((h: { customer: string }) => h.customer === 'Zyxel Sàrl 7');
    expect(one).toEqual({
      id: expect.any(Number),
      number: expect.stringMatching(/^INV-/),
      customer: 'Zyxel Sàrl 7',
      total: 7.05,
      due: 7.05,
      currency: 'USD',
      status: 'draft',
    });
    const byNumber = await ajax('boss', { action: 'billing_search_invoices', term: one.number.toLowerCase() });
    expect(byNumber.body.data.map((h: { id: number }) => h.id)).toContain(one.id);
    expect((await ajax('boss', { action: 'billing_search_invoices', term: 'no such thing at all' })).body).toEqual({
      success: true,
      data: [],
    });
    // a LIKE wildcard in the term is a plain character
    expect((await ajax('boss', { action: 'billing_search_invoices', term: '%' })).body.data).toEqual([]);
    expect((await ajax('boss', { action: 'billing_search_invoices' })).body.data).toHaveLength(20);
  });
});

describe('legacy names (docs/ajax.md)', () => {
  it("declares the legacy table's manage_options on the four invoice actions that kept their names", () => {
    for (const name of ['billing_save_invoice', 'billing_delete_invoice', 'billing_duplicate_invoice', 'billing_search_invoices']) {
      const entry = k.ajax.actions.get(name);
      expect([name, entry?.kind === 'ajax' && entry.def.legacyCapability]).toEqual([name, 'manage_options']);
    }
    const restore = k.ajax.actions.get('billing_restore_invoice');
    expect(restore?.kind === 'ajax' && restore.def.legacyCapability).toBeUndefined();
  });

  // Needs the dispatcher to honour `legacyCapability` under an action's own name when that name is also
  // its legacy one (the change described in docs/ajax.md, "Legacy names"); flip to `it` once it is in.
  it('lets manage_options through where the legacy table lists it, and nowhere else', async () => {
    const legacy = as.legacy!.user;
    const target = (await save('boss', { items: [item] })).body.data;
    const noBill = (caps: Record<string, boolean>) =>
      Object.fromEntries(Object.entries(caps).map(([c, v]) => [c, c.startsWith('bill_') ? false : v]));
    await withCaps(legacy.id, noBill, async () => {
      const created = await save('legacy', { items: [item] });
      expect([created.status, created.body.success]).toEqual([200, true]);
      const edited = await save('legacy', { items: [item], notes: 'legacy' }, created.body.data.id);
      expect([edited.status, edited.body.data.notes]).toEqual([200, 'legacy']);
      expect((await ajax('legacy', { action: 'billing_duplicate_invoice', id: String(target.id) })).body.success).toBe(true);
      expect((await ajax('legacy', { action: 'billing_search_invoices', term: '' })).body.success).toBe(true);
      expect((await ajax('legacy', { action: 'billing_delete_invoice', id: String(target.id) })).body.success).toBe(true);
      // not in the legacy table: the current capability only
      const restore = await ajax('legacy', { action: 'billing_restore_invoice', id: String(target.id) });
      expect([restore.status, restore.body.data.code]).toEqual([403, 'billing_forbidden']);
    });
  });
});

describe('billing_save_quote', () => {
  const saveQuote = (who: string, doc: unknown, id?: number) =>
    ajax(who, { action: 'billing_save_quote', quote: JSON.stringify(doc), ...(id ? { id: String(id) } : {}) });

  it('creates and updates a quote through QuoteService, answering the REST representation', async () => {
    const created = await saveQuote('boss', { items: [item], customer_name: 'Quote Customer', expiry_date: '2099-01-31' });
    expect(created.body).toMatchObject({
      success: true,
      data: { number: expect.stringMatching(/^QUO-\d{4}$/), status: 'draft', expiry_date: '2099-01-31' },
    });
    const id = created.body.data.id;
    const updated = await saveQuote(
      'boss',
      { items: [{ ...item, quantity: 1 }], customer_name: 'Quote Customer', status: 'available' },
      id,
    );
    expect(updated.body.data).toMatchObject({ id, status: 'available', totals: { total: 120.5 } });
    expect((await rest('GET', `/quotes/${id}`)).body).toEqual(updated.body.data);
  });

  it('checks the body with the schemas of POST /quotes and the capability of the role', async () => {
    expect((await saveQuote('boss', { items: [] })).body.data.code).toBe('rest_invalid_param');
    expect((await saveQuote('boss', { items: [item], expiry_date: 'soon' })).body.data.code).toBe('rest_invalid_param');
    const denied = await saveQuote('peek', { items: [item] });
    expect([denied.status, denied.body.data.code]).toEqual([403, 'billing_forbidden']);
  });

  it('refuses changes to an accepted quote with 409', async () => {
    const created = await saveQuote('boss', { items: [item], status: 'available' });
    const id = created.body.data.id;
    const token = await k.api.quotes.mintToken(id);
    await k.api.quotes.accept(id, { token });
    const res = await saveQuote('boss', { items: [item] }, id);
    expect([res.status, res.body.data.code]).toEqual([409, 'billing_rest_invalid_state']);
  });
});
