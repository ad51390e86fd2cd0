import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { BUNDLED_PLUGINS, bootKernel, useService, waitFor } from '../../testing/index.ts';
import { FIXTURE_PLUGINS, pluginFolders } from '../helpers/kernel.ts';

// A plugin's life on two instances. Each test first brings hello (and hello-addon) to the state it starts
// from — activation and deactivation are no-ops when already done — so that it also runs alone.
const svc = useService({ pluginDirs: [FIXTURE_PLUGINS] });
let a: Kernel;
let b: Kernel;

const events = async (k: Kernel) => (await k.db.query<{ kind: string }>('select kind from hello_events order by id')).map((r) => r.kind);
const webhook = (k: Kernel, body = 'ping') =>
  fetch(`${k.url}/wp-admin/admin-ajax.php?action=hello_webhook`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
const helloRoute = (k: Kernel) => fetch(`${k.url}/wp-json/billing/v1/hello`);

beforeAll(async () => {
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl, { pluginDirs: [FIXTURE_PLUGINS] });
  svc.beforeStop(() => b.stop());
});

describe('plugins', () => {
  it('are all inactive on a fresh install', async () => {
    const list = await a.plugins.list();
    // the bundled plugins (plugins/) beside the fixtures
    const names = [...pluginFolders(BUNDLED_PLUGINS), ...pluginFolders(FIXTURE_PLUGINS)].sort();
    expect(list.map((p) => [p.name, p.active])).toEqual(names.map((n) => [n, false]));
    expect(names).toEqual(expect.arrayContaining(['e-invoicing', 'hello', 'hello-addon']));
    expect((await webhook(a)).status).toBe(400);
    expect(await (await webhook(a)).text()).toBe('0');
    expect((await helloRoute(a)).status).toBe(404);
  });

  it('refuse activation before what they require', async () => {
    await expect(a.plugins.activate('hello-addon', CLI)).rejects.toMatchObject({ code: 'billing_plugin_dependency' });
    await expect(a.plugins.activate('nope', CLI)).rejects.toMatchObject({ code: 'billing_unknown_plugin' });
  });

  it('activate: migrations, then activate(), then everything declared is served', async () => {
    await a.plugins.activate('hello', CLI);
    expect(await events(a)).toEqual(['activated']);
    const res = await webhook(a, 'twelve bytes');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, data: { bytes: 12, greeting: 'Hello' } });
    // the REST route exists now: a caller who is not signed in is told so, not "no route"
    const rest = await helloRoute(a);
    expect(rest.status).toBe(401);
    expect((await rest.json()).code).toBe('billing_rest_unauthenticated');
    const index = await (await fetch(`${a.url}/wp-json/`)).json();
    expect(Object.keys(index.routes)).toContain('/billing/v1/hello');
    expect(a.jobs.jobs.get('hello_tick')).toBeDefined();
    const audit = await a.db.query('select actor, action, object_id from billing_audit_log where object_type = $1', ['plugin']);
    expect(audit).toEqual([{ actor: 'cli', action: 'plugin.activate', object_id: 'hello' }]);
  });

  it('appear on another instance sharing the database without a restart', async () => {
    await a.plugins.activate('hello', CLI);
    await waitFor(async () => (await webhook(b)).status === 200, { timeoutMs: 5000, what: 'the other instance to serve the webhook' });
  });

  it('raise their own hooks for plugins that require them', async () => {
    await a.plugins.activate('hello', CLI);
    await a.plugins.activate('hello-addon', CLI);
    await waitFor(() => b.plugins.isLoaded('hello-addon'), { what: 'the other instance to load hello-addon' });
    const res = await fetch(`${b.url}/wp-admin/admin-ajax.php`, { method: 'POST', body: new URLSearchParams({ action: 'hello_public' }) });
    expect(await res.json()).toEqual({ success: true, data: { greeting: 'Hello' } });
    expect(await events(a)).toContain('addon-heard:ajax:Hello');
  });

  it('refuse deactivation while another active plugin requires them', async () => {
    await a.plugins.activate('hello', CLI);
    await a.plugins.activate('hello-addon', CLI);
    await expect(a.plugins.deactivate('hello', CLI)).rejects.toMatchObject({ code: 'billing_plugin_dependency' });
  });

  it('deactivated through one instance disappear from the other within 5 s, keeping their data', async () => {
    await a.plugins.activate('hello', CLI);
    await a.plugins.activate('hello-addon', CLI);
    await waitFor(async () => (await webhook(b)).status === 200, { timeoutMs: 5000, what: 'the other instance to serve the webhook' });
    await a.plugins.deactivate('hello-addon', CLI);
    await a.plugins.deactivate('hello', CLI);
    expect((await helloRoute(a)).status).toBe(404);
    const started = Date.now();
    await waitFor(async () => (await webhook(b)).status === 400, { timeoutMs: 5000, what: 'the other instance to drop the webhook' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await helloRoute(b)).status).toBe(404);
    expect(b.jobs.jobs.get('hello_tick')).toBeUndefined();
    expect(b.hooks.isDeclared('hello_greeted')).toBe(false);
    expect(await events(b)).toEqual(expect.arrayContaining(['activated', 'webhook', 'deactivated']));
  });

  it('can be activated again without running their migrations twice', async () => {
    await a.plugins.activate('hello', CLI); // active once, then not
    await a.plugins.deactivate('hello-addon', CLI);
    await a.plugins.deactivate('hello', CLI);
    await b.plugins.activate('hello', CLI);
    const applied = await a.db.query('select name from billing_migrations where owner = $1', ['plugin:hello']);
    expect(applied).toEqual([{ name: '0001_events' }]);
    await waitFor(async () => (await webhook(a)).status === 200, { what: 'the first instance to serve the webhook again' });
  });

  it('keep settings that can be set while the plugin is inactive, checked by its schema', async () => {
    await a.plugins.deactivate('hello-addon', CLI);
    await a.plugins.deactivate('hello', CLI);
    await a.options.set('hello_greeting', 'Bonjour', CLI);
    await expect(a.options.set('hello_greeting', '', CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    await a.plugins.activate('hello', CLI);
    const res = await webhook(a);
    expect((await res.json()).data.greeting).toBe('Bonjour');
  });
});
