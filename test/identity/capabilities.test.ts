import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { AuthUser } from '../../core/http/auth.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, useService, waitFor } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

/** The fixture plugins, and the HTTP tests' `widgets` (a plugin declaring a role and a capability). */
const pluginDirs = [FIXTURE_PLUGINS, resolve(import.meta.dirname, '../http/fixtures/plugins')];
const svc = useService({ pluginDirs });
let k: Kernel;
let other: Kernel;

const as = (id: number, login: string, role: string): AuthUser => ({ id, login, roles: [role] });

beforeAll(async () => {
  k = svc.kernel;
  other = await bootKernel(svc.databaseUrl, { pluginDirs });
  svc.beforeStop(() => other.stop());
});

describe('userCan', () => {
  it('follows the roles of docs/identity.md', async () => {
    const can = (role: string, cap: string) => k.identity.userCan(as(9, 'x', role), cap);
    expect(await can('administrator', 'bill_manage_settings')).toBe(true);
    expect(await can('administrator', 'some_capability_nobody_declared')).toBe(true);
    expect(await can('editor', 'edit_posts')).toBe(true);
    expect(await can('editor', 'manage_options')).toBe(false);
    expect(await can('editor', 'bill_view_invoices')).toBe(false);
    expect(await can('billing_viewer', 'bill_view_invoices')).toBe(true);
    expect(await can('billing_viewer', 'bill_create_invoice')).toBe(false);
    expect(await can('billing_client', 'read')).toBe(true);
    expect(await can('billing_client', 'bill_view_invoices')).toBe(false);
    expect(await can('unknown_role', 'read')).toBe(false);
  });

  it("passes through billing_user_has_cap with WordPress's arguments, so a plugin can grant or revoke", async () => {
    const seen: unknown[][] = [];
    const off = k.hooks.addFilter(
      'billing_user_has_cap',
      (allcaps, caps, args, user) => {
        seen.push([caps, args, user.id]);
        // a team-roles style rule: subscribers may view invoice 42 only; nobody may bill_manage_settings
        if (args[0] === 'bill_view_invoices' && args[2] === 42) return { ...allcaps, bill_view_invoices: true };
        return { ...allcaps, bill_manage_settings: false };
      },
      10,
      'test',
    );
    try {
      const sub = as(5, 'sub', 'subscriber');
      expect(await k.identity.userCan(sub, 'bill_view_invoices', 42)).toBe(true);
      expect(await k.identity.userCan(sub, 'bill_view_invoices', 43)).toBe(false);
      expect(await k.identity.userCan(sub, 'bill_view_invoices')).toBe(false);
      expect(await k.identity.userCan(as(1, 'admin', 'administrator'), 'bill_manage_settings')).toBe(false);
      expect(seen[0]).toEqual([['bill_view_invoices'], ['bill_view_invoices', 5, 42], 5]);
    } finally {
      off();
    }
    expect(await k.identity.userCan(as(1, 'admin', 'administrator'), 'bill_manage_settings')).toBe(true);
  });

  it('is what REST and AJAX ask: the filter changes both alike', async () => {
    await k.plugins.activate('widgets', CLI);
    const ed = await svc.makeUser('ed', 'editor', 'ed-pass-1');
    const br = await svc.ajax('ed', 'ed-pass-1');
    const post = () => svc.rest(ed).post('/widgets', { name: 'x' });
    expect((await post()).status).toBe(201);
    expect((await br.call('widgets_touch')).body).toEqual({ success: true, data: { touched: true } });
    const off = k.hooks.addFilter(
      'billing_user_has_cap',
      (allcaps, _caps, args) => (args[1] === ed.id ? { ...allcaps, widgets_manage: false } : allcaps),
      10,
      'test',
    );
    try {
      const res = await post();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('billing_rest_forbidden');
      const a = await br.call('widgets_touch');
      expect(a.status).toBe(403);
      expect(a.body.data.code).toBe('billing_forbidden');
    } finally {
      off();
    }
  });
});

describe('roles and capabilities declared by plugins', () => {
  beforeAll(() => k.plugins.activate('widgets', CLI)); // already active when the REST and AJAX test ran

  it('exist while the plugin is active, on every instance, and the administrator holds the new capabilities', async () => {
    // widgets is active: its capability, role and grant
    await waitFor(() => other.plugins.isLoaded('widgets'), { what: 'the other instance to load widgets' });
    for (const inst of [k, other]) {
      expect(inst.identity.roles.has('widget_keeper')).toBe(true);
      expect(await inst.identity.userCan(as(1, 'admin', 'administrator'), 'widgets_manage')).toBe(true);
      expect(await inst.identity.userCan(as(2, 'ed', 'editor'), 'widgets_manage')).toBe(true);
      expect(await inst.identity.userCan(as(3, 'kim', 'widget_keeper'), 'widgets_manage')).toBe(true);
      expect(await inst.identity.userCan(as(4, 'sub', 'subscriber'), 'widgets_manage')).toBe(false);
    }
  });

  it('are gone when it is deactivated; users keep the role, which then grants nothing', async () => {
    await k.identity.users.create({ login: 'kim', email: 'kim@example.com', role: 'widget_keeper' }, CLI);
    await k.identity.users.create({ login: 'ed-2', email: 'ed-2@example.com', role: 'editor' }, CLI);
    await k.plugins.deactivate('widgets', CLI);
    await waitFor(() => !other.plugins.isLoaded('widgets'), { what: 'the other instance to unload widgets' });
    for (const inst of [k, other]) {
      expect(inst.identity.roles.has('widget_keeper')).toBe(false);
      expect(inst.identity.roles.allCapabilities()).not.toContain('widgets_manage');
      expect(await inst.identity.userCan(as(2, 'ed', 'editor'), 'widgets_manage')).toBe(false);
      expect(await inst.identity.userCan(as(3, 'kim', 'widget_keeper'), 'read')).toBe(false);
    }
    expect((await k.identity.users.require('kim')).role).toBe('widget_keeper');
    await expect(k.identity.users.setRole('ed-2', 'widget_keeper', CLI)).rejects.toMatchObject({ code: 'billing_invalid_argument' });
  });
});

describe('the audit log', () => {
  it('has a row, with actor and details, for every change to users, roles and passwords', async () => {
    const actor = { id: 1, name: 'admin', ip: '203.0.113.9' };
    await k.identity.users.create({ login: 'zed', email: 'zed@example.com', role: 'subscriber', password: 'zed-pass-1' }, actor);
    await k.identity.users.setRole('zed', 'billing_client', actor);
    await k.identity.users.updateProfile('zed', { company: 'Zed Ltd', country: 'FR' }, actor);
    await k.identity.users.setPassword('zed', 'zed-pass-2', actor);
    const zed = await k.identity.users.require('zed');
    const app = await k.identity.appPasswords.create(zed, 'api', actor);
    await k.identity.appPasswords.revoke(zed, app.uuid, actor);
    await k.identity.users.delete('zed', actor);
    const rows = await k.db.query<{
      actor_id: string;
      actor: string;
      action: string;
      object_id: string;
      details: Record<string, unknown>;
      ip: string;
    }>(
      `select actor_id, actor, action, object_id, details, ip from billing_audit_log where object_type = 'user' and object_id = $1 order by id`,
      [String(zed.id)],
    );
    expect(rows.map((r) => r.action)).toEqual([
      'user.create',
      'user.set_role',
      'user.update',
      'user.set_password',
      'app_password.create',
      'app_password.revoke',
      'user.delete',
    ]);
    for (const r of rows) expect(r).toMatchObject({ actor_id: '1', actor: 'admin', ip: '203.0.113.9' });
    expect(rows[1]!.details).toMatchObject({ old: 'subscriber', new: 'billing_client' });
    expect(rows[2]!.details).toMatchObject({ old: { company: '', country: '' }, new: { company: 'Zed Ltd', country: 'FR' } });
    expect(JSON.stringify(rows)).not.toMatch(/zed-pass|scrypt/);
  });
});

describe('billing_user_has_cap fails closed, and decides per object on every surface', () => {
  it('denies when a listener throws (it may have been removing the capability)', async () => {
    const off = k.hooks.addFilter(
      'billing_user_has_cap',
      () => {
        throw new Error('broken rule');
      },
      10,
      'test',
    );
    try {
      expect(await k.identity.userCan(as(1, 'admin', 'administrator'), 'bill_view_invoices')).toBe(false);
      expect(await k.identity.userCan(as(3, 'v', 'billing_viewer'), 'bill_view_invoices', 7)).toBe(false);
    } finally {
      off();
    }
    expect(await k.identity.userCan(as(1, 'admin', 'administrator'), 'bill_view_invoices')).toBe(true);
  });

  it('gives the answer of a missing document to a user denied that one document, on REST and admin-ajax alike', async () => {
    const owner = await svc.makeUser('objowner', 'administrator', 'objowner-pass');
    const create = (title: string) =>
      k.api.invoices.create(
        { items: [{ name: 'Work', quantity: 1, price: 100 }], title, status: 'available', customer_name: 'C' },
        { actor: CLI, source: 'api' },
      );
    const hidden = await create('hidden');
    const shown = await create('shown');
    const payment = (await k.api.payments.record(hidden.id, { amount: '10.00', method: 'cash', status: 'completed' }, CLI)).payment;
    // a per-object rule, as team roles' own scope is: this user may not touch the hidden invoice
    const off = k.hooks.addFilter(
      'billing_user_has_cap',
      (allcaps, caps, args, user) => (user.id === owner.id && args[2] === hidden.id ? { ...allcaps, [caps[0]!]: false } : allcaps),
      10,
      'test',
    );
    try {
      const rest = (method: string, path: string) =>
        svc.rest(owner).request(method, path, method === 'POST' ? { amount: 1, reason: 'test' } : undefined, {
          'content-type': 'application/json',
        });
      for (const [method, path] of [
        ['GET', `/invoices/${hidden.id}`],
        ['GET', `/invoices/${hidden.id}/pdf`],
        ['DELETE', `/invoices/${hidden.id}`],
        ['GET', `/invoices/${hidden.id}/payments`],
        ['GET', `/payments/${payment.id}`],
        ['POST', `/payments/${payment.id}/refund`],
      ] as const) {
        const res = await rest(method, path);
        expect([path, res.status, res.body.code]).toEqual([path, 404, 'billing_rest_not_found']);
      }
      expect((await rest('GET', `/invoices/${shown.id}`)).status).toBe(200);
      expect((await rest('GET', `/payments/${payment.id + 1000}`)).status).toBe(404);

      const browser = await svc.ajax('objowner', 'objowner-pass');
      const denied = await browser.call('billing_duplicate_invoice', { id: String(hidden.id) });
      expect([denied.status, denied.body.data.code]).toEqual([404, 'billing_rest_not_found']);
      const allowed = await browser.call('billing_duplicate_invoice', { id: String(shown.id) });
      expect(allowed.status).toBe(200);
      expect((await k.api.invoices.get(hidden.id)).trashed).toBe(false);
    } finally {
      off();
    }
  });
});
