import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { BUNDLED_PLUGINS, useService, waitFor } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { FIXTURE_PLUGINS, pluginFolders } from '../helpers/kernel.ts';

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS] });
let server: Kernel;
const cli = (...args: string[]) => billing(svc.databaseUrl, args);
const jsonOf = async (...args: string[]) => {
  const r = await cli(...args, '--format', 'json');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout);
};

beforeAll(() => {
  server = svc.kernel;
});

/** hello active on the running server (a no-op when an earlier test activated it through the CLI). */
const helloActive = () => server.plugins.activate('hello', CLI);

describe('the billing CLI', () => {
  it('migrates (nothing left to do after boot)', async () => {
    expect(await jsonOf('migrate')).toEqual({ applied: [] });
  });

  it('lists plugins', async () => {
    const listed: { name: string; version: string; title: string; active: boolean; source: string }[] = await jsonOf('plugin', 'list');
    // every bundled plugin and every fixture, by name, all inactive on a fresh install
    const names = [...pluginFolders(BUNDLED_PLUGINS), ...pluginFolders(FIXTURE_PLUGINS)].sort();
    expect(listed.map((p) => p.name)).toEqual(names);
    expect(listed.every((p) => p.active === false)).toBe(true);
    expect(listed.filter((p) => ['hello', 'hello-addon', 'example-gateway'].includes(p.name))).toEqual([
      { name: 'example-gateway', version: '1.0.0', title: 'Example Pay', active: false, source: 'folder', integrity: null },
      { name: 'hello', version: '1.0.0', title: 'Hello fixture', active: false, source: 'folder', integrity: null },
      { name: 'hello-addon', version: '0.1.0', title: 'hello-addon', active: false, source: 'folder', integrity: null },
    ]);
    expect(listed.find((p) => p.name === 'webhooks')!.source).toBe('bundled');
    const text = await cli('plugin', 'list');
    expect(text.stdout.split('\n')[0]).toMatch(/^name\s+version\s+source\s+active\s+title\s+integrity$/);
  });

  it('activates a plugin that the running server then serves', async () => {
    const r = await cli('plugin', 'activate', 'hello');
    expect(r).toEqual({ code: 0, stdout: 'Plugin hello activated.\n', stderr: '' });
    await waitFor(
      async () => (await fetch(`${server.url}/wp-admin/admin-ajax.php?action=hello_webhook`, { method: 'POST', body: 'x' })).status === 200,
      { what: 'the server to serve hello_webhook' },
    );
  });

  it('sets, gets and deletes options, typed by their schema', async () => {
    expect(await jsonOf('option', 'set', 'hello_loud', 'true')).toEqual({ key: 'hello_loud', value: true });
    expect(await jsonOf('option', 'get', 'hello_loud')).toEqual({ key: 'hello_loud', value: true });
    expect(await server.options.get('hello_loud')).toBe(true);
    expect(await jsonOf('option', 'set', 'payment_terms_days', '14')).toEqual({ key: 'payment_terms_days', value: 14 });
    expect(await jsonOf('option', 'delete', 'hello_loud')).toEqual({ key: 'hello_loud', value: false });
    expect((await cli('option', 'get', 'payment_terms_days')).stdout).toBe('14\n');
    const list = await jsonOf('option', 'list');
    expect(list).toContainEqual({ key: 'payment_terms_days', value: 14, owner: 'core', default: false });
  });

  it('fails with one line on stderr and a non-zero exit', async () => {
    for (const args of [
      ['option', 'set', 'tax_rate', 'abc'],
      ['option', 'set', 'nope', '1'],
      ['option', 'set', 'hello_loud', 'yes'],
      ['plugin', 'activate', 'missing'],
      ['plugin', 'deactivate', 'missing'],
      ['cron', 'run', 'missing'],
    ]) {
      const r = await cli(...args, '--format', 'json');
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^Error: [^\n]+\n$/);
    }
    expect((await cli('option', 'get', 'tax_rate')).stdout).toBe('0\n');
  });

  it('answers usage for an unknown command', async () => {
    const r = await cli('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('billing plugin activate <name>');
  });

  it('lists and runs cron jobs', async () => {
    await helloActive();
    // hello ticks every second: its last run is listed once there has been one
    await waitFor(async () => (await server.db.query(`select 1 from billing_job_runs where hook = 'hello_tick'`)).length > 0, {
      what: 'a first hello_tick',
    });
    const jobs = await jsonOf('cron', 'list');
    expect(jobs).toEqual([
      // a backup's schedule is a setting, empty at first
      { hook: 'billing_backup', schedule: 'off', next_run: null, last_run: null, last_result: null },
      { hook: 'billing_expired_cleanup', schedule: '41 * * * *', next_run: expect.any(String), last_run: null, last_result: null },
      { hook: 'billing_gateway_cleanup', schedule: '23 * * * *', next_run: expect.any(String), last_run: null, last_result: null },
      { hook: 'billing_outbox_cleanup', schedule: '17 3 * * *', next_run: expect.any(String), last_run: null, last_result: null },
      {
        hook: 'hello_tick',
        schedule: '* * * * * *',
        next_run: expect.any(String),
        last_run: expect.anything(),
        last_result: expect.anything(),
      },
    ]);
    const run = await jsonOf('cron', 'run', 'hello_tick');
    expect(run).toEqual({ hook: 'hello_tick', ran: true, status: 'succeeded', result: { due: expect.any(String) } });
  });

  it('deactivates a plugin, which disappears from the running server', async () => {
    await helloActive();
    expect((await cli('plugin', 'deactivate', 'hello')).code).toBe(0);
    await waitFor(() => !server.plugins.isLoaded('hello'), { what: 'the server to unload hello' });
  });
});
