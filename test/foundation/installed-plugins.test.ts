import { beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { integrityOf } from '../../core/plugins/package-archive.ts';
import { packageTarball } from '../../core/plugins/installed-plugins.ts';
import { bootKernel, useService, waitFor, type TestUser } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';

// Plugins from packages on two instances sharing one database: installed once, unpacked and run in a
// sandbox by both, each refused attempt audited (docs/sandbox.md).
const PACKAGES = resolve(import.meta.dirname, '../fixtures/packages');
const svc = useService();
let a: Kernel;
let b: Kernel;
let admin: TestUser;
let invoiceId: number;
const tarballs = new Map<string, Buffer>();
const tgz = (name: string) => {
  if (!tarballs.has(name)) tarballs.set(name, packageTarball(join(PACKAGES, name)));
  return tarballs.get(name)!;
};
const get = (k: Kernel, path: string) => fetch(`${k.url}/wp-json/billing/v1${path}`, { headers: { authorization: admin.authorization } });
const denials = async (plugin: string) =>
  (
    await a.db.query<{ permission: string }>(
      `select details->>'permission' as permission from billing_audit_log where action = 'plugin.permission_denied' and object_id = $1 order by id`,
      [plugin],
    )
  ).map((r) => r.permission);

beforeAll(async () => {
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => b.stop());
  admin = await svc.makeUser('boss', 'administrator');
  const created = await a.api.invoices.create(
    { items: [{ name: 'Work', quantity: 1, price: 10 }], status: 'available' } as never,
    {
      actor: CLI,
      source: 'cli',
    } as never,
  );
  invoiceId = created.id;
});

describe('installing a plugin package', () => {
  it('from a .tgz on one instance: both unpack it, and once activated both serve it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'stamp-')), 'stamp-1.0.0.tgz');
    writeFileSync(file, tgz('stamp'));
    const pkg = await a.plugins.install(packageTarball(file), { integrity: integrityOf(tgz('stamp')), actor: CLI });
    expect(pkg).toMatchObject({ name: 'stamp', version: '1.0.0', integrity: integrityOf(tgz('stamp')) });
    await waitFor(async () => (await b.plugins.list()).some((p) => p.name === 'stamp'), { timeoutMs: 5000, what: 'b to unpack stamp' });
    const listed = (await b.plugins.list()).find((p) => p.name === 'stamp')!;
    expect(listed).toMatchObject({ source: 'installed', sandboxed: true, active: false, integrity: pkg.integrity });
    expect(listed.permissions).toMatchObject({ hooks: ['billing_rest_invoice'], routes: ['/stamp'], read: ['invoices'] });
    expect(listed.path.startsWith(b.config.dataDir)).toBe(true);
    expect((await get(b, `/stamp?invoice=${invoiceId}`)).status).toBe(404);
    await a.plugins.activate('stamp', CLI);
    await waitFor(async () => (await get(b, `/stamp?invoice=${invoiceId}`)).status === 200, { timeoutMs: 5000, what: 'b to serve /stamp' });
    const res = await (await get(b, `/stamp?invoice=${invoiceId}`)).json();
    expect(res).toEqual({ stamp: `stamped ${(await a.api.invoices.get(invoiceId)).number}`, visits: 2 });
    const inv = await (await get(a, `/invoices/${invoiceId}`)).json();
    expect(inv.stamp).toBe(`stamped ${inv.number}`);
    // the plugin's own error, declared in its definition, answers as itself
    const missing = await get(a, '/stamp?invoice=999999');
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('stamp_no_invoice');
  });

  it('refuses a package whose digest is not the one given, and one made for another version', async () => {
    await expect(a.plugins.install(tgz('stamp'), { integrity: integrityOf(Buffer.from('other')), actor: CLI })).rejects.toMatchObject({
      code: 'billing_plugin_integrity',
    });
    await expect(a.plugins.install(tgz('old-thing'), { actor: CLI })).rejects.toMatchObject({ code: 'billing_plugin_incompatible' });
    const tampered = Buffer.from(tgz('stamp'));
    tampered[tampered.length - 20] ^= 0xff;
    await expect(a.plugins.install(tampered, { integrity: integrityOf(tgz('stamp')), actor: CLI })).rejects.toMatchObject({
      code: 'billing_plugin_integrity',
    });
    expect((await a.plugins.list()).some((p) => p.name === 'old-thing')).toBe(false);
  });

  it('uninstall --purge of an inactive plugin leaves no table, option or copy of it', async () => {
    await a.plugins.install(tgz('stamp'), { actor: CLI });
    await a.plugins.activate('stamp', CLI);
    await a.options.set('stamp_text' as never, 'inked' as never, CLI);
    await expect(a.plugins.uninstall('stamp', { purge: true, actor: CLI })).rejects.toMatchObject({ code: 'billing_plugin_active' });
    await a.plugins.deactivate('stamp', CLI);
    expect(await a.plugins.purgeList('stamp')).toEqual({ tables: ['stamp_visits'], options: ['stamp_text'] });
    expect(await a.plugins.uninstall('stamp', { purge: true, actor: CLI })).toEqual({ tables: ['stamp_visits'], options: ['stamp_text'] });
    const left = await a.db.query(
      `select table_name from information_schema.tables where table_name like 'stamp%' union all select key from billing_options where key like 'stamp%'`,
    );
    expect(left).toEqual([]);
    await waitFor(async () => !(await b.plugins.list()).some((p) => p.name === 'stamp'), { timeoutMs: 5000, what: 'b to forget stamp' });
  });
  it('upgrades an active plugin everywhere: the new version runs, its new migration once', async () => {
    await a.plugins.install(tgz('stamp'), { actor: CLI });
    await a.plugins.activate('stamp', CLI);
    const v2 = mkdtempSync(join(tmpdir(), 'stamp-v2-'));
    cpSync(join(PACKAGES, 'stamp'), v2, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(v2, 'package.json'), 'utf8'));
    manifest.version = '1.1.0';
    manifest.billing.permissions.tables.push('stamp_notes');
    writeFileSync(join(v2, 'package.json'), JSON.stringify(manifest));
    const index = readFileSync(join(v2, 'index.js'), 'utf8')
      .replace("version: '1.0.0'", "version: '1.1.0'")
      .replace('migrations: [', "migrations: [{ name: '0002', up: 'create table stamp_notes (id bigserial primary key)' }, ");
    writeFileSync(join(v2, 'index.js'), index);
    const pkg = await a.plugins.install(packageTarball(v2), { actor: CLI });
    expect(pkg.version).toBe('1.1.0');
    await waitFor(async () => (await b.plugins.list()).find((p) => p.name === 'stamp')?.version === '1.1.0', {
      timeoutMs: 5000,
      what: 'b to load stamp 1.1.0',
    });
    expect((await b.plugins.list()).find((p) => p.name === 'stamp')).toMatchObject({ active: true, integrity: pkg.integrity });
    expect((await a.db.query(`select 1 from information_schema.tables where table_name = 'stamp_notes'`)).length).toBe(1);
    await waitFor(async () => (await get(b, `/stamp?invoice=${invoiceId}`)).status === 200, { timeoutMs: 5000, what: 'b to serve 1.1.0' });
    await a.plugins.deactivate('stamp', CLI);
    expect(await a.plugins.uninstall('stamp', { purge: true, actor: CLI })).toEqual({
      tables: ['stamp_notes', 'stamp_visits'],
      options: [],
    });
  });
});

describe('the billing command', () => {
  it('installs a folder with its digest, lists it as installed, and uninstalls it', async () => {
    const cli = (...args: string[]) => billing(svc.databaseUrl, args, { DATA_DIR: mkdtempSync(join(tmpdir(), 'billing-cli-')) });
    const refused = await cli('plugin', 'install', join(PACKAGES, 'stamp'), '--integrity', integrityOf(Buffer.from('other')));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('digest');
    const installed = await cli('plugin', 'install', join(PACKAGES, 'stamp'), '--integrity', integrityOf(tgz('stamp')));
    expect([installed.code, installed.stderr]).toEqual([0, '']);
    expect(installed.stdout).toContain('Plugin stamp 1.0.0 installed');
    expect(installed.stdout).toContain('read: invoices');
    const listed = JSON.parse((await cli('plugin', 'list', '--format', 'json')).stdout);
    expect(listed.find((p: { name: string }) => p.name === 'stamp')).toMatchObject({
      source: 'installed',
      active: false,
      integrity: integrityOf(tgz('stamp')),
    });
    const removed = await cli('plugin', 'uninstall', 'stamp', '--purge');
    expect([removed.code, removed.stderr]).toEqual([0, '']);
    expect(removed.stdout).toContain('Plugin stamp uninstalled.');
    await waitFor(async () => !(await a.plugins.list()).some((p) => p.name === 'stamp'), { what: 'a to forget stamp' });
  });
});

describe('a plugin from a package is stopped, the service unharmed, the attempt audited, when it', () => {
  const installAndActivate = async (name: string) => {
    await a.plugins.install(tgz(name), { actor: CLI });
    return a.plugins.activate(name, CLI);
  };

  it('reads the secret key (process.env, its table)', async () => {
    await installAndActivate('evil-env');
    const res = await get(a, '/evil-env');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain(String(a.config.secretKey ?? 'no-secret-configured'));
    expect(await denials('evil-env')).toEqual(['global: process']);
    // the key kept in the database is no closer: the table is not its own
    const [{ value }] = await a.db.query<{ value: string }>(`select value from billing_secrets where name = 'secret_key'`);
    const secret = await get(a, '/evil-secret');
    expect(secret.status).toBe(403);
    expect(await secret.text()).not.toContain(value);
    expect(await denials('evil-env')).toEqual(['global: process', 'tables: billing_secrets']);
  });

  it.each([
    ['evil-fs', 'module: node:fs'],
    ['evil-child', 'module: child_process'],
    ['evil-socket', 'module: node:net'],
  ])('imports Node modules (%s): it never loads', async (name, permission) => {
    await a.plugins.install(tgz(name), { actor: CLI });
    expect((await a.plugins.list()).some((p) => p.name === name)).toBe(false);
    expect(await denials(name)).toContain(permission);
  });

  it('reads the request a filter is given: it gets no headers, body or capabilities', async () => {
    await installAndActivate('peek');
    const inv = await (await get(a, `/invoices/${invoiceId}`)).json();
    expect(inv.seen).toEqual(['method', 'params', 'path', 'user']);
    await a.plugins.deactivate('peek', CLI);
  });

  it('calls a host it did not declare', async () => {
    await installAndActivate('evil-host');
    const res = await get(a, '/evil-host');
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('billing_plugin_permission_denied');
    expect(await denials('evil-host')).toEqual(['hosts: 127.0.0.1']);
  });

  it('reads invoices without read: invoices', async () => {
    await installAndActivate('evil-read');
    const res = await get(a, '/evil-read');
    expect(res.status).toBe(403);
    expect((await res.json()).message).toContain('read: invoices');
    expect(await denials('evil-read')).toEqual(['read: invoices']);
  });

  it.each([
    ['evil-hook', 'hooks: billing_invoice_created'],
    ['evil-admin', 'capabilities: manage_options'],
  ])('declares more than its permissions (%s): activation is refused', async (name, permission) => {
    await expect(installAndActivate(name)).rejects.toMatchObject({ code: 'billing_plugin_permission_denied' });
    expect((await a.plugins.list()).find((p) => p.name === name)!.active).toBe(false);
    expect(await denials(name)).toContain(permission);
    expect(a.identity.roles.capabilitiesOf('subscriber').manage_options).toBeUndefined();
  });

  it('loops forever in a filter: the request answers, the call fails closed within the bound', async () => {
    await installAndActivate('evil-loop');
    const started = performance.now();
    const res = await get(a, `/invoices/${invoiceId}`);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(500);
    expect((await res.json()).code).toBe('billing_hook_failed');
    await a.plugins.deactivate('evil-loop', CLI);
    expect((await get(a, `/invoices/${invoiceId}`)).status).toBe(200);
  });

  it('allocates without end: the call fails at the memory bound, the service goes on', async () => {
    // a smaller bound than the default keeps the test short; the bound is read when the sandbox is made
    await a.options.set('plugin_memory_mb', 16, CLI);
    await installAndActivate('evil-alloc');
    const res = await get(a, '/evil-alloc');
    expect(res.status).toBe(500);
    expect((await get(a, `/invoices/${invoiceId}`)).status).toBe(200);
    await a.plugins.deactivate('evil-alloc', CLI);
  });

  it('throws on every call: deactivated on both instances after plugin_fault_limit faults, audited', async () => {
    await a.options.set('plugin_fault_limit', 3, CLI);
    await installAndActivate('evil-throw');
    await waitFor(async () => (await get(b, `/invoices/${invoiceId}`)).status === 500, { timeoutMs: 5000, what: 'b to load evil-throw' });
    for (let i = 0; i < 3; i++) expect((await get(b, `/invoices/${invoiceId}`)).status).toBe(500);
    await waitFor(async () => (await get(a, `/invoices/${invoiceId}`)).status === 200, { timeoutMs: 5000, what: 'a to unload evil-throw' });
    await waitFor(async () => (await get(b, `/invoices/${invoiceId}`)).status === 200, { timeoutMs: 5000, what: 'b to unload evil-throw' });
    const audit = await a.db.query<{ action: string; actor: string }>(
      `select action, actor from billing_audit_log where object_id = 'evil-throw' and action in ('plugin.fault_limit', 'plugin.deactivate') order by id`,
    );
    expect(audit).toEqual([
      { action: 'plugin.fault_limit', actor: 'system' },
      { action: 'plugin.deactivate', actor: 'system' },
    ]);
  });
});

describe('the Plugins screen and REST', () => {
  it('install a .tgz uploaded by an administrator only, and show its permissions before activation', async () => {
    const viewer = await svc.makeUser('peek', 'billing_viewer');
    const post = (user: TestUser) =>
      fetch(`${a.url}/wp-json/billing/v1/plugins`, {
        method: 'POST',
        headers: { authorization: user.authorization, 'content-type': 'application/gzip' },
        body: new Uint8Array(tgz('stamp')),
      });
    expect((await post(viewer)).status).toBe(403);
    const res = await post(admin);
    const body = await res.json();
    expect([res.status, body.code]).toEqual([201, undefined]);
    expect(body.asks).toMatchObject({ hooks: 'billing_rest_invoice', read: 'invoices', hosts: 'none' });
    const listed = (await (await get(a, '/plugins')).json()).find((p: { name: string }) => p.name === 'stamp');
    expect(listed).toMatchObject({ source: 'installed', active: false, permissions: { tables: ['stamp_visits'] } });
    await svc.makeUser('keeper', 'administrator', 'keeper-password-1');
    const signedIn = await svc.ajax('keeper', 'keeper-password-1');
    const page = await (await signedIn.session.fetch('/wp-admin/plugins.php')).text();
    expect(page).toContain('read: invoices');
    expect(page).toContain('installed (sandboxed)');
  });
});
