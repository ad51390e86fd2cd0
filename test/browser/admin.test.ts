import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import { packageTarball } from '../../core/plugins/installed-plugins.ts';
import type { Kernel } from '../../core/kernel.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { bootKernel, eventually } from '../helpers/kernel.ts';

const suite = browserAvailable ? describe : describe.skip;

let db: TestDatabase;
let k: Kernel;
let browser: Browser;

suite('the admin area in Chromium', () => {
  beforeAll(async () => {
    db = await freshDatabase();
    k = await bootKernel(db.url);
    await k.identity.users.create({ login: 'ops', email: 'ops@example.com', role: 'administrator', password: 'long enough password' }, CLI);
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await k?.stop();
    await db?.drop();
  });

  it('signs in, shows the shell with both nonces, and activates a plugin from the Plugins screen', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${k.url}/wp-login.php`);
    await page.fill('input[name="log"]', 'ops');
    await page.fill('input[name="pwd"]', 'wrong password');
    await page.click('[type="submit"]');
    expect(page.url()).toContain('/wp-login.php');
    await page.fill('input[name="log"]', 'ops');
    await page.fill('input[name="pwd"]', 'long enough password');
    await page.click('[type="submit"]');
    await page.waitForURL(/\/wp-admin\/$/);
    expect(await page.locator('meta[name="billing-admin-nonce"]').getAttribute('content')).toMatch(/^[0-9a-f]{10}$/);
    expect(await page.locator('meta[name="billing-rest-nonce"]').getAttribute('content')).toMatch(/^[0-9a-f]{10}$/);

    await page.goto(`${k.url}/wp-admin/plugins.php`);
    const activate = page.locator('button[data-plugin="hello"]');
    expect((await activate.textContent())?.trim()).toBe('Activate');
    await activate.click();
    await page.waitForLoadState('load');
    expect(
      await eventually(async () => (await page.locator('button[data-plugin="hello"]').textContent())?.trim() === 'Deactivate', 5000),
    ).toBe(true);
    expect(k.plugins.isLoaded('hello')).toBe(true);
    await page.screenshot({ path: '/tmp/billing-admin-plugins.png', fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
  it('uploads a plugin package, shows what it asks for before activation, and activates it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'upload-')), 'stamp-1.0.0.tgz');
    writeFileSync(file, packageTarball(resolve(import.meta.dirname, '../fixtures/packages/stamp')));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${k.url}/wp-login.php`);
    await page.fill('input[name="log"]', 'ops');
    await page.fill('input[name="pwd"]', 'long enough password');
    await page.click('[type="submit"]');
    await page.waitForURL(/\/wp-admin\/$/);
    await page.goto(`${k.url}/wp-admin/plugin-install.php`);
    await page.getByLabel('Plugin package (.tgz)').setInputFiles(file);
    await page.getByRole('button', { name: 'Install' }).click();
    await page.getByRole('heading', { name: 'Installed stamp 1.0.0' }).waitFor();
    const asks = page.getByRole('region', { name: 'Permissions it asks for' });
    await asks.getByText('billing_rest_invoice', { exact: true }).waitFor();
    await asks.getByText('stamp_visits', { exact: true }).waitFor();

    await page.goto(`${k.url}/wp-admin/plugins.php`);
    const row = page.locator('tr[data-plugin="stamp"]');
    expect(await row.textContent()).toContain('read: invoices');
    expect(await row.textContent()).toContain('installed (sandboxed)');
    await row.getByRole('button', { name: 'Activate' }).click();
    expect(await eventually(async () => (await row.getByRole('button').textContent())?.trim() === 'Deactivate', 5000)).toBe(true);
    expect(k.plugins.isLoaded('stamp')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
