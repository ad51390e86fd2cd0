import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
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
});
