// The team-roles addon (docs/team-roles.md) over real HTTP on a real database: the role × route matrix is
// generated from the live REST registry (every route of the core and of the active plugins, for every
// role) with the addon inactive and active, against the capabilities the contract gives each role;
// per-role edits through REST and the CLI hold on a second instance at its next request and are
// audited; with team_sales_scope=own a sales user gets 404 for every other document on every route
// and AJAX action that names one (PDF included), and lists, searches and X-WP-Total leave them out.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { BILL_CAPABILITIES } from '../../core/identity/capabilities.ts';
import type { Kernel } from '../../core/kernel.ts';
import { objectRefs } from '../../core/scope/object-params.ts';
import { billing } from '../helpers/cli.ts';
import { RestClient, bootKernel, useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let k2: Kernel;
const users: Record<string, TestUser> = {};

/** What each role is given (docs/identity.md, docs/team-roles.md), written out here rather than read from the code. */
const VIEW = BILL_CAPABILITIES.filter((c) => c.startsWith('bill_view_'));
const CONTRACT: Record<string, string[]> = {
  administrator: ['*'],
  editor: ['read', 'edit_posts'],
  author: ['read', 'edit_posts'],
  subscriber: ['read'],
  billing_client: ['read'],
  billing_viewer: ['read', ...VIEW],
  billing_manager: ['read', ...BILL_CAPABILITIES.filter((c) => c !== 'bill_manage_settings')],
  billing_accountant: ['read', ...VIEW, 'bill_record_payment', 'bill_refund_payment'],
  billing_sales: [
    'read',
    'bill_view_invoices',
    'bill_create_invoice',
    'bill_edit_invoice',
    'bill_send_invoice',
    'bill_view_quotes',
    'bill_create_quote',
    'bill_edit_quote',
    'bill_send_quote',
    'bill_view_clients',
    'bill_edit_clients',
  ],
};
const TEAM = ['billing_manager', 'billing_accountant', 'billing_sales'];

/** REST as `who`: a path of the registry (`/billing/v1/…`) or one under the namespace. */
async function rest(who: TestUser, method: string, path: string, body?: unknown) {
  const res = await svc.rest(who).request(method, path.startsWith('/billing') ? `/wp-json${path}` : path, body);
  return { status: res.status, body: res.body, total: res.headers.get('x-wp-total') };
}

/** team-roles active and loaded on both instances (a no-op when it is): the state the tests after the matrix start from. */
async function active(): Promise<void> {
  await k.plugins.activate('team-roles', CLI);
  await waitFor(() => k.plugins.isLoaded('team-roles') && k2.plugins.isLoaded('team-roles'), { what: 'both instances to load team-roles' });
}

/** Every REST route with a capability, as the live registry holds it now, with its path made concrete. */
function liveRoutes(id: number, role = 'billing_viewer') {
  return k.rest.routes
    .entriesWithOwner()
    .filter(({ item }) => item.capability !== null)
    .map(({ key, owner, item }) => {
      const [method, pattern] = key.split(' ') as [string, string];
      const path = pattern.replace(/\(\?P<(\w+)>([^)]*)\)/g, (_m, _name, re: string) => (re.includes('\\d') ? String(id) : role));
      return { method, path, owner, route: item };
    });
}

/** A body that passes a route's argument checks, so that what answers is the per-object check. */
function validBody(args: Record<string, any> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(args)) {
    if (!a.required || name === 'id') continue;
    const types = [a.type].flat();
    body[name] = a.enum ? a.enum[0] : types.includes('number') || types.includes('integer') ? 1 : types.includes('array') ? [] : 'x';
  }
  return body;
}

const holds = (role: string, cap: string) => CONTRACT[role]!.includes('*') || CONTRACT[role]!.includes(cap);

/** Calls every live route as every role: forbidden exactly when the contract does not give the capability. */
async function matrix(active: boolean): Promise<number> {
  const routes = liveRoutes(999999);
  let checked = 0;
  for (const role of Object.keys(CONTRACT)) {
    for (const r of routes) {
      const { status, body } = await rest(users[role]!, r.method, r.path, r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
      const expectAllowed = holds(role, r.route.capability!) && (active || !TEAM.includes(role));
      const forbidden = status === 403 && body?.code === 'billing_rest_forbidden';
      if (forbidden === expectAllowed) throw new Error(`${role} ${r.method} ${r.path} (${r.route.capability}): ${status} ${body?.code}`);
      checked++;
    }
  }
  return checked;
}

beforeAll(async () => {
  k = svc.kernel;
  k2 = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => k2.stop());
  const admin = await svc.makeUser('boss', 'administrator');
  users.administrator = admin;
  await active();
  for (const role of Object.keys(CONTRACT)) if (role !== 'administrator') users[role] = await svc.makeUser(role.replace('_', '-'), role);
  users.sales2 = await svc.makeUser('sales-two', 'billing_sales');
  await k.plugins.deactivate('team-roles', CLI);
  await waitFor(() => !k.plugins.isLoaded('team-roles') && !k2.plugins.isLoaded('team-roles'), {
    what: 'both instances to unload team-roles',
  });
}, 60000);

describe('the role × route matrix from the live registry', () => {
  it('inactive: the three roles grant nothing, /roles does not exist, the other roles are as the core has them', async () => {
    expect(liveRoutes(1).some((r) => r.owner === 'team-roles')).toBe(false);
    expect((await rest(users.administrator!, 'GET', '/roles')).body.code).toBe('rest_no_route');
    expect(await matrix(false)).toBeGreaterThan(200);
  }, 120000);

  it('active: every role gets exactly what the contract gives it, on every route of the core and the plugins', async () => {
    await k.plugins.activate('team-roles', CLI);
    await waitFor(() => k.plugins.isLoaded('team-roles'), { what: 'team-roles to load' });
    const owners = new Set(liveRoutes(1).map((r) => r.owner));
    expect(owners.has('team-roles')).toBe(true);
    expect(await matrix(true)).toBeGreaterThan(200);
  }, 120000);
});

describe('editing a role', () => {
  beforeAll(active);

  it('GET /roles lists every role; PUT changes one, on every instance at the next request, audited', async () => {
    const admin = users.administrator!;
    const list = (await rest(admin, 'GET', '/roles')).body as Array<{ role: string; name: string; capabilities: string[] }>;
    expect(list.map((r) => r.role)).toEqual(expect.arrayContaining(Object.keys(CONTRACT)));
    expect(list.find((r) => r.role === 'billing_sales')!.capabilities.sort()).toEqual([...CONTRACT.billing_sales!].sort());

    const viewer = users.billing_viewer!;
    expect((await rest(viewer, 'GET', '/invoices')).status).toBe(200);
    const put = await rest(admin, 'PUT', '/roles/billing_viewer', { capabilities: ['bill_view_quotes', 'bill_create_quote'] });
    expect(put.status).toBe(200);
    expect(put.body.capabilities).toEqual(['bill_create_quote', 'bill_view_quotes', 'read']);
    // the second instance answers by the edit at once
    const onK2 = await new RestClient(k2.url, viewer.authorization).get('/invoices');
    expect(onK2.status).toBe(403);
    expect((await rest(viewer, 'POST', '/quotes', {})).status).not.toBe(403);

    const log = await k.db.query<{ action: string; details: any; actor: string }>(
      `select action, details, actor from billing_audit_log where object_type = 'role' and object_id = 'billing_viewer' order by id`,
    );
    expect(log.map((l) => `${l.action} ${l.details.capability}`).sort()).toEqual(
      [...VIEW.filter((c) => c !== 'bill_view_quotes').map((c) => `role.revoke ${c}`), 'role.grant bill_create_quote'].sort(),
    );
    expect(log.every((l) => l.actor === 'boss')).toBe(true);

    // back to what the core declares: nothing is stored
    expect((await rest(admin, 'PUT', '/roles/billing_viewer', { capabilities: VIEW })).status).toBe(200);
    expect(Number((await k.db.query<{ n: number }>(`select count(*)::int as n from team_roles_caps`))[0]!.n)).toBe(0);
  });

  it('refuses unknown capabilities and roles, and the administrator never loses a capability', async () => {
    const admin = users.administrator!;
    expect((await rest(admin, 'PUT', '/roles/billing_sales', { capabilities: ['bill_fly'] })).body.code).toBe('rest_invalid_param');
    expect((await rest(admin, 'PUT', '/roles/nobody', { capabilities: [] })).status).toBe(404);
    const r = await rest(admin, 'PUT', '/roles/administrator', { capabilities: ['bill_view_invoices'] });
    expect(r.status).toBe(400);
    expect((await rest(admin, 'GET', '/roles/administrator')).body.capabilities).toEqual(
      expect.arrayContaining([...BILL_CAPABILITIES, 'bill_manage_team']),
    );
    // a manager holds no bill_manage_team: the roles are not theirs to edit
    expect((await rest(users.billing_manager!, 'GET', '/roles')).status).toBe(403);
  });

  it("the Team screen's routes: GET /team lists the users with their role; PUT /team/{login} gives another, audited, never the administrator's", async () => {
    const admin = users.administrator!;
    const team = (await rest(admin, 'GET', '/team?per_page=100')).body as Array<{ login: string; role: string; role_name: string }>;
    expect(team.find((u) => u.login === 'billing-viewer')).toMatchObject({ role: 'billing_viewer', role_name: 'Billing viewer' });
    // the customers' accounts are not the team
    expect(team.some((u) => u.role === 'billing_client')).toBe(false);

    const put = await rest(admin, 'PUT', '/team/author', { role: 'billing_accountant' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ login: 'author', role: 'billing_accountant', role_name: 'Billing accountant' });
    expect((await k.identity.users.byLogin('author'))!.role).toBe('billing_accountant');
    const [entry] = await k.db.query<{ details: any; actor: string }>(
      `select details, actor from billing_audit_log where action = 'user.set_role' order by id desc limit 1`,
    );
    expect(entry).toMatchObject({ actor: 'boss', details: { login: 'author', old: 'author', new: 'billing_accountant' } });

    // refused, and nothing changes: the administrator's role, an administrator, an unknown role or user
    expect((await rest(admin, 'PUT', '/team/author', { role: 'administrator' })).body.code).toBe('rest_invalid_param');
    expect((await rest(admin, 'PUT', '/team/boss', { role: 'billing_sales' })).body.code).toBe('billing_invalid_argument');
    expect((await rest(admin, 'PUT', '/team/author', { role: 'pilot' })).body.code).toBe('rest_invalid_param');
    expect((await rest(admin, 'PUT', '/team/nobody-here', { role: 'billing_sales' })).status).toBe(404);
    expect((await k.identity.users.byLogin('author'))!.role).toBe('billing_accountant');
    expect((await k.identity.users.byLogin('boss'))!.role).toBe('administrator');
    // a manager holds no bill_manage_team
    expect((await rest(users.billing_manager!, 'PUT', '/team/author', { role: 'billing_manager' })).status).toBe(403);
    expect((await rest(admin, 'PUT', '/team/author', { role: 'author' })).status).toBe(200);
  });

  it('billing role list|grant|revoke (the real CLI), and the edit survives deactivation and comes back with the plugin', async () => {
    const grant = await billing(svc.databaseUrl, ['role', 'grant', 'billing_sales', 'bill_view_reports', '--format', 'json']);
    expect(grant.code).toBe(0);
    expect(JSON.parse(grant.stdout).capabilities).toContain('bill_view_reports');
    const listed = JSON.parse((await billing(svc.databaseUrl, ['role', 'list', '--format', 'json'])).stdout) as Array<{
      role: string;
      capabilities: string[];
    }>;
    expect(listed.find((r) => r.role === 'billing_sales')!.capabilities).toContain('bill_view_reports');
    expect((await billing(svc.databaseUrl, ['role', 'revoke', 'administrator', 'bill_view_reports'])).code).not.toBe(0);
    expect((await billing(svc.databaseUrl, ['role', 'revoke', 'billing_sales', 'bill_send_quote'])).code).toBe(0);
    const sales = users.billing_sales!;
    const salesUser = { id: sales.id, login: sales.login, roles: ['billing_sales'] };
    expect(await k2.identity.userCan(salesUser, 'bill_view_reports')).toBe(true);
    expect(await k2.identity.userCan(salesUser, 'bill_send_quote')).toBe(false);
    const audited = await k.db.query<{ action: string; actor: string }>(
      `select action, actor from billing_audit_log where object_type = 'role' and object_id = 'billing_sales' order by id`,
    );
    expect(audited.map((a) => `${a.actor} ${a.action}`)).toEqual(['cli role.grant', 'cli role.revoke']);

    await k.plugins.deactivate('team-roles', CLI);
    await waitFor(() => !k.plugins.isLoaded('team-roles'), { what: 'team-roles to unload' });
    expect((await rest(sales, 'GET', '/invoices')).status).toBe(403);
    await k.plugins.activate('team-roles', CLI);
    await waitFor(() => k.plugins.isLoaded('team-roles'), { what: 'team-roles to load again' });
    const back = (await rest(users.administrator!, 'GET', '/roles/billing_sales')).body.capabilities as string[];
    expect(back).toContain('bill_view_reports');
    expect(back).not.toContain('bill_send_quote');
    await billing(svc.databaseUrl, ['role', 'revoke', 'billing_sales', 'bill_view_reports']);
    await billing(svc.databaseUrl, ['role', 'grant', 'billing_sales', 'bill_send_quote']);
  });
});

describe('team_sales_scope=own: a sales user sees and changes only their own documents', () => {
  const ids: Record<string, { invoice: number; quote: number }> = {};
  const item = { name: 'Work', quantity: 1, price: 100 };
  /** The client the sales user created (the AJAX client search finds it too). */
  let mine: { id: number };

  beforeAll(async () => {
    await active();
    for (const who of ['billing_sales', 'sales2', 'administrator']) {
      const u = users[who]!;
      const client = { customer: { name: `Customer of ${u.login}`, email: `c-${u.login}@example.com` } };
      const invoice = await rest(u, 'POST', '/invoices', { ...client, title: `Findme ${u.login}`, items: [item] });
      const quote = await rest(u, 'POST', '/quotes', { ...client, title: `Findme ${u.login}`, items: [item] });
      expect([invoice.status, quote.status]).toEqual([201, 201]);
      ids[who] = { invoice: invoice.body.id, quote: quote.body.id };
    }
    mine = await k.identity.users.create(
      { login: 'client-mine', email: 'mine@example.com', role: 'billing_client', display_name: 'Findme Mine' },
      { id: users.billing_sales!.id, name: users.billing_sales!.login },
    );
    await k.identity.users.create(
      { login: 'client-other', email: 'other@example.com', role: 'billing_client', display_name: 'Findme Other' },
      CLI,
    );
    await k.options.set('team_sales_scope', 'own', CLI);
  });

  it('lists, searches and X-WP-Total hold only their own; the scope is off with `all`', async () => {
    const sales = users.billing_sales!;
    for (const kind of ['invoices', 'quotes'] as const) {
      const mine = ids.billing_sales![kind === 'invoices' ? 'invoice' : 'quote'];
      const all = await rest(sales, 'GET', `/${kind}`);
      expect(all.body.map((d: any) => d.id)).toEqual([mine]);
      expect(all.total).toBe('1');
      const found = await rest(sales, 'GET', `/${kind}?search=findme`);
      expect(found.body.map((d: any) => d.id)).toEqual([mine]);
      expect(found.total).toBe('1');
      expect((await rest(users.administrator!, 'GET', `/${kind}?search=findme`)).total).toBe('3');
    }
    await k.options.set('team_sales_scope', 'all', CLI);
    expect((await rest(sales, 'GET', '/invoices')).total).toBe('3');
    await k.options.set('team_sales_scope', 'own', CLI);
  });

  it('clients: the list, its count and the autocomplete hold only the clients they created', async () => {
    const sales = users.billing_sales!;
    const list = await rest(sales, 'GET', '/clients?search=findme');
    expect(list.body.map((c: any) => c.id)).toEqual([mine.id]);
    expect(list.total).toBe('1');
    expect((await rest(users.administrator!, 'GET', '/clients?search=findme')).total).toBe('2');
  });

  it('every REST route that names a document answers 404 for another user’s, PDF included', async () => {
    const sales = users.billing_sales!;
    const theirs = ids.sales2!;
    const routes = k.rest.routes.entriesWithOwner().filter(({ item }) => item.object && item.capability);
    expect(routes.length).toBeGreaterThan(5);
    let checked = 0;
    for (const { key, item } of routes) {
      const object = objectRefs(item.object)[0]!; // the path's (a route may also name a client in its body)
      if (!holds('billing_sales', object.capability ?? item.capability!)) continue;
      // documents here; every kind, with every plugin active: test/security/scope-matrix.test.ts
      if (object.kind !== 'invoice' && object.kind !== 'quote') continue;
      const [method, pattern] = key.split(' ') as [string, string];
      const id = object.kind === 'quote' ? theirs.quote : theirs.invoice;
      const path = pattern.replace(/\(\?P<(\w+)>([^)]*)\)/g, String(id)).replace(/^\/billing\/v1/, '');
      const r = await rest(sales, method, path, method === 'GET' || method === 'DELETE' ? undefined : validBody(item.args));
      expect([key, r.status, r.body?.code]).toEqual([key, 404, 'billing_rest_not_found']);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    // their own are theirs: the single routes and the PDF answer
    const own = ids.billing_sales!;
    expect((await rest(sales, 'GET', `/invoices/${own.invoice}`)).status).toBe(200);
    expect((await rest(sales, 'GET', `/invoices/${own.invoice}/pdf`)).status).toBe(200);
    expect((await rest(sales, 'GET', `/quotes/${own.quote}`)).status).toBe(200);
    // another sales user with scope `own` sees theirs and not ours
    expect((await rest(users.sales2!, 'GET', `/invoices/${own.invoice}`)).status).toBe(404);
    // the manager is not held to a scope
    expect((await rest(users.billing_manager!, 'GET', `/invoices/${theirs.invoice}`)).status).toBe(200);
  });

  it('every AJAX action that names a document answers not-found too, and the AJAX search leaves others out', async () => {
    const sales = users.billing_sales!;
    await k.identity.users.setPassword(sales.login, 'sales-pass-1', CLI);
    const ajax = await svc.ajax(sales.login, 'sales-pass-1');
    const post = (fields: Record<string, string>) => ajax.post({ _wpnonce: ajax.nonce, ...fields });
    let checked = 0;
    for (const { key, item } of k.ajax.actions.entriesWithOwner()) {
      if (item.kind !== 'ajax') continue;
      const object = objectRefs(item.def.object)[0];
      if (!object || (object.kind !== 'invoice' && object.kind !== 'quote')) continue;
      const cap = typeof item.def.capability === 'string' ? item.def.capability : item.def.capability?.edit;
      if (!cap || !holds('billing_sales', object.capability ?? cap)) continue;
      const id = object.kind === 'quote' ? ids.sales2!.quote : ids.sales2!.invoice;
      const r = await post({ action: key, [object.param]: String(id), invoice: '{}', quote: '{}', amount: '1', reason: 'x' });
      expect([key, r.status, r.body?.data?.code]).toEqual([key, 404, 'billing_rest_not_found']);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
    const search = await post({ action: 'billing_search_invoices', term: 'findme' });
    expect(search.body.data.map((d: any) => d.id)).toEqual([ids.billing_sales!.invoice]);
    const clients = await post({ action: 'billing_search_clients', term: 'findme' });
    expect(clients.body.data.map((c: any) => c.name)).toEqual(['Findme Mine']);
  });
});
