import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { loadConfig } from '../../core/config.ts';
import type { Config } from '../../core/config.ts';
import { Kernel } from '../../core/kernel.ts';
import { basic, bootKernel, freePort, freshDatabase, RestClient, Session, type TestDatabase } from '../../testing/index.ts';

// Each test starts on a database of its own (the first start is what is tested), so no `useService` here.
const dbs: TestDatabase[] = [];
const kernels: Kernel[] = [];

/** A kernel on `databaseUrl`, keeping what its start announced (the one-time admin credentials). */
async function boot(databaseUrl: string, config: Partial<Config> = {}): Promise<{ kernel: Kernel; announced: string[] }> {
  const announced: string[] = [];
  const kernel = await bootKernel(databaseUrl, { config, announce: (t) => announced.push(t) });
  return { kernel, announced };
}

async function fresh(): Promise<TestDatabase> {
  const db = await freshDatabase();
  dbs.push(db);
  return db;
}

afterAll(async () => {
  for (const k of kernels) await k.stop();
  for (const d of dbs) await d.drop();
});

function credentials(announcement: string): { password: string; app: string } {
  return {
    password: /Password: +(\S+)/.exec(announcement)![1]!,
    app: /Application password: +([A-Za-z0-9 ]+)/.exec(announcement)![1]!.trim(),
  };
}

describe('the first start', () => {
  it('creates admin and prints, once, its password and an application password; both work; nothing reaches the log', async () => {
    const db = await fresh();
    const lines: string[] = [];
    const log = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _e, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    const port = await freePort();
    const announced: string[] = [];
    const k = await Kernel.boot(loadConfig({}, { port, baseUrl: `http://127.0.0.1:${port}`, databaseUrl: db.url, pluginDirs: [] }), {
      serve: true,
      log,
      announce: (t) => announced.push(t),
    });
    kernels.push(k);
    expect(announced).toHaveLength(1);
    const { password, app } = credentials(announced[0]!);
    expect(app).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(password.length).toBeGreaterThanOrEqual(16);

    const admin = await k.identity.users.require('admin');
    expect(admin.role).toBe('administrator');
    const res = await new RestClient(k.url, basic('admin', app)).get('/users/me');
    expect(res.status).toBe(200);
    const br = new Session(k.url);
    expect((await br.signIn('admin', password)).status).toBe(302);
    expect((await br.fetch('/wp-admin/plugins.php')).status).toBe(200);

    const logged = lines.join('');
    expect(logged).toContain('created the first administrator');
    expect(logged).not.toContain(password);
    expect(logged).not.toContain(app);
    expect(logged).not.toContain(app.replace(/ /g, ''));

    // the next start, and any other instance, prints nothing and creates nothing
    const again = await boot(db.url);
    kernels.push(again.kernel);
    expect(again.announced).toEqual([]);
    expect(await again.kernel.identity.users.count()).toBe(1);
  });

  it('uses BILLING_ADMIN_PASSWORD instead of printing a password', async () => {
    const db = await fresh();
    const { kernel: k, announced } = await boot(db.url, { adminPassword: 'chosen-by-the-operator' });
    kernels.push(k);
    expect(announced[0]).not.toContain('chosen-by-the-operator');
    expect(announced[0]).toContain('BILLING_ADMIN_PASSWORD');
    expect((await new Session(k.url).signIn('admin', 'chosen-by-the-operator')).status).toBe(302);
  });

  it('happens once when several instances start together', async () => {
    const db = await fresh();
    const started = await Promise.all([boot(db.url), boot(db.url), boot(db.url)]);
    kernels.push(...started.map((s) => s.kernel));
    expect(started.flatMap((s) => s.announced)).toHaveLength(1);
    expect(await started[0]!.kernel.identity.users.count()).toBe(1);
  });

  it("is not the CLI's: commands boot without creating anyone", async () => {
    const db = await fresh();
    const k = await Kernel.boot(loadConfig({}, { databaseUrl: db.url, pluginDirs: [] }), { log: pino({ level: 'silent' }) });
    try {
      expect(await k.identity.users.count()).toBe(0);
    } finally {
      await k.stop();
    }
  });
});

describe('the secret', () => {
  it('is made once and kept in the database when SECRET_KEY is unset, so instances agree', async () => {
    const db = await fresh();
    const a = (await boot(db.url)).kernel;
    const b = (await boot(db.url)).kernel;
    kernels.push(a, b);
    const rows = await a.db.query<{ value: string }>('select value from billing_secrets');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value.length).toBeGreaterThanOrEqual(48);
    const user = { id: 1, login: 'admin', roles: ['administrator'] };
    expect(b.identity.checkNonce(a.identity.createNonce('billing_admin', user), 'billing_admin', user)).toBe(true);
  });

  it('is SECRET_KEY when set, and then nothing is stored', async () => {
    const db = await fresh();
    const a = (await boot(db.url, { secretKey: 'from-the-environment' })).kernel;
    kernels.push(a);
    expect(await a.db.query('select 1 from billing_secrets')).toEqual([]);
    const b = (await boot(db.url)).kernel; // an instance without it: another secret
    kernels.push(b);
    const user = { id: 1, login: 'admin', roles: ['administrator'] };
    expect(b.identity.checkNonce(a.identity.createNonce('billing_admin', user), 'billing_admin', user)).toBe(false);
  });
});
