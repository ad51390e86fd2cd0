import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { discoverPlugins } from '../../core/plugins/discovery.ts';
import type { PluginDefinition } from '../../core/plugins/define-plugin.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';
import { useService, Session, type TestUser } from '../../testing/index.ts';

/**
 * The auth matrix: every role (and a visitor) against every REST route and AJAX action registered on a
 * running server — the core's and those of the fixture plugins, generated from the live registries so
 * that every route added later joins it — checked against the capability table of docs/identity.md, written
 * out here independently of the code under test.
 */
const BILL_VIEW = [
  'bill_view_invoices',
  'bill_view_quotes',
  'bill_view_clients',
  'bill_view_payments',
  'bill_view_reports',
  'bill_view_audit_log',
];
const CONTRACT_ROLES: Record<string, string[] | 'every capability'> = {
  administrator: 'every capability',
  editor: ['edit_posts', 'read'],
  author: ['edit_posts', 'read'],
  contributor: ['edit_posts', 'read'],
  subscriber: ['read'],
  billing_viewer: ['read', ...BILL_VIEW],
  billing_client: ['read'],
};
const PLUGINS = ['hello', 'hello-addon', 'widgets'];

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS, resolve(import.meta.dirname, 'fixtures/plugins')], plugins: PLUGINS });
let k: Kernel;
let defs: PluginDefinition[];
const users = new Map<string, TestUser>();
const browsers = new Map<string, Session>();

/** What the table says `role` holds, with the active plugins' roles and grants. */
function holds(role: string, capability: string): boolean {
  const core = CONTRACT_ROLES[role];
  if (core === 'every capability') return true;
  const caps = new Set(core ?? []);
  for (const d of defs) {
    for (const r of d.roles ?? []) if (r.name === role) r.capabilities.forEach((c) => caps.add(c));
    for (const c of d.grants?.[role] ?? []) caps.add(c);
  }
  return caps.has(capability);
}

/** A concrete URL path for a WP-style route key: each named group gets a value of its pattern. */
function samplePath(key: string): string {
  const path = key.replace(/\(\?P<(\w+)>([^)]*)\)/g, (_m, _name, pattern: string) => (/\\d|0-9/.test(pattern) ? '999999' : 'sample'));
  const re = new RegExp(`^${key.replace(/\(\?P</g, '(?<')}$`);
  if (!re.test(path)) throw new Error(`the matrix cannot make a sample URL for ${key}; teach samplePath its pattern`);
  return path;
}

beforeAll(async () => {
  k = svc.kernel;
  defs = (await discoverPlugins(k.config.pluginDirs, k.config.packageRoot))
    .map((p) => p.definition)
    .filter((d) => PLUGINS.includes(d.name));
  const roles = [...Object.keys(CONTRACT_ROLES), ...defs.flatMap((d) => (d.roles ?? []).map((r) => r.name))];
  for (const role of roles) {
    const login = `u_${role}`;
    users.set(role, await svc.makeUser(login, role, `${login}-password`));
    const br = new Session(svc.url);
    expect((await br.signIn(login, `${login}-password`)).status).toBe(302);
    browsers.set(role, br);
  }
});

interface Outcome {
  who: string;
  what: string;
  status: number;
  body: string;
}

describe('the auth matrix', () => {
  it('covers every role, including those plugins declare', () => {
    expect([...users.keys()].sort()).toEqual([...Object.keys(CONTRACT_ROLES), 'widget_keeper'].sort());
  });

  it("REST: visitors 401, signed-in users 403 exactly when the table denies the route's capability (Basic and cookie + nonce)", async () => {
    const routes = k.rest.routes.entriesWithOwner();
    // the fixture plugins' routes and the core's are all there
    expect(routes.map((r) => r.key)).toEqual(
      expect.arrayContaining(['GET /billing/v1/hello', 'GET /billing/v1/widgets', 'POST /billing/v1/widgets', 'GET /billing/v1/users/me']),
    );
    const wrong: Outcome[] = [];
    const nonces = new Map<string, string>();
    for (const [role, br] of browsers) nonces.set(role, await (await br.fetch('/wp-admin/admin-ajax.php?action=rest-nonce')).text());
    let checked = 0;
    for (const { key, item: route } of routes) {
      const [method, routeKey] = key.split(' ') as [string, string];
      const url = `/wp-json${samplePath(routeKey)}`;
      const init = (headers: Record<string, string>): RequestInit => ({
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        ...(method === 'GET' ? {} : { body: '{}' }),
      });
      const visitor = await fetch(`${svc.url}${url}`, init({}));
      const vbody = await visitor.text();
      if (
        visitor.status !== 401 ||
        JSON.parse(vbody).code !== 'billing_rest_unauthenticated' ||
        visitor.headers.get('www-authenticate') !== 'Basic realm="billing"'
      ) {
        wrong.push({ who: 'visitor', what: key, status: visitor.status, body: vbody });
      }
      for (const role of users.keys()) {
        const allowed = route.capability === null || holds(role, route.capability);
        const answers = [
          await fetch(`${svc.url}${url}`, init({ authorization: users.get(role)!.authorization })),
          await browsers.get(role)!.fetch(url, init({ 'X-WP-Nonce': nonces.get(role)! })),
        ];
        for (const res of answers) {
          const body = await res.text();
          const code = (() => {
            try {
              return JSON.parse(body).code;
            } catch {
              return undefined;
            }
          })();
          const ok = allowed ? res.status !== 401 && res.status !== 403 : res.status === 403 && code === 'billing_rest_forbidden';
          if (!ok)
            wrong.push({
              who: role,
              what: `${key} (needs ${route.capability}, table says ${allowed ? 'yes' : 'no'})`,
              status: res.status,
              body,
            });
          checked++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(routes.length * users.size * 2);
  });

  it('REST: the namespace index is for signed-in users only', async () => {
    expect((await fetch(`${svc.url}/wp-json/billing/v1`)).status).toBe(401);
    for (const u of users.values())
      expect((await fetch(`${svc.url}/wp-json/billing/v1`, { headers: { authorization: u.authorization } })).status).toBe(200);
  });

  it('AJAX: visitors 0, bad nonces -1, billing_forbidden exactly when the table denies; public actions and webhooks open to all', async () => {
    const entries = k.ajax.actions.entriesWithOwner();
    expect(entries.map((e) => e.key)).toEqual(
      expect.arrayContaining(['hello_public', 'hello_webhook', 'widgets_touch', 'billing_activate_plugin', 'rest-nonce']),
    );
    const wrong: Outcome[] = [];
    const adminNonces = new Map<string, string>();
    for (const [role, br] of browsers) adminNonces.set(role, (await br.nonces()).admin);
    for (const { key: action, item: entry } of entries) {
      const post = (br: Session | null, fields: Record<string, string>) => {
        const init = { method: 'POST', body: new URLSearchParams({ action, ...fields }) };
        return br
          ? br.fetch(`/wp-admin/admin-ajax.php?action=${encodeURIComponent(action)}`, init)
          : fetch(`${svc.url}/wp-admin/admin-ajax.php?action=${encodeURIComponent(action)}`, init);
      };
      const visitor = await post(null, {});
      const vbody = await visitor.text();
      if (entry.kind === 'webhook') {
        // no login involved: a visitor and a signed-in administrator get the same answer from the webhook itself
        const signed = await post(browsers.get('administrator')!, { _wpnonce: adminNonces.get('administrator')! });
        if (['0', '-1'].includes(vbody) || signed.status !== visitor.status)
          wrong.push({ who: 'visitor/administrator', what: `webhook ${action}`, status: visitor.status, body: vbody });
        continue;
      }
      const def = entry.def;
      if (def.nopriv ? ['0', '-1'].includes(vbody) : visitor.status !== 400 || vbody !== '0')
        wrong.push({ who: 'visitor', what: action, status: visitor.status, body: vbody });
      for (const [role, br] of browsers) {
        const fields = { _wpnonce: adminNonces.get(role)! };
        // the probe sends no id: an action that creates or edits asks for its create capability
        const cap = def.capability && typeof def.capability === 'object' ? def.capability.create : def.capability;
        // docs/ajax.md: the legacy table's capability passes under a legacy name (an alias, or an own name kept from then)
        const legacyName = entry.legacy || !def.aliases?.length;
        const allowed =
          def.nopriv ||
          cap === null ||
          holds(role, cap) ||
          (legacyName && def.legacyCapability !== undefined && holds(role, def.legacyCapability));
        if (!def.nopriv && def.nonce !== false) {
          const bad = await post(br, { _wpnonce: '0000000000' });
          const badBody = await bad.text();
          if (bad.status !== 403 || badBody !== '-1')
            wrong.push({ who: role, what: `${action} with a bad nonce`, status: bad.status, body: badBody });
        }
        const res = await post(br, fields);
        const body = await res.text();
        const forbidden = res.status === 403 && body.includes('"billing_forbidden"');
        const ok = allowed ? !forbidden && !['0', '-1'].includes(body) : forbidden;
        if (!ok)
          wrong.push({
            who: role,
            what: `${action} (needs ${String(cap)}, table says ${allowed ? 'yes' : 'no'})`,
            status: res.status,
            body,
          });
      }
    }
    expect(wrong).toEqual([]);
  });
});
