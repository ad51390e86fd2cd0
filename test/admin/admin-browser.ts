// What the admin screens' browser tests share: a signed-in page that records what went wrong, opening a
// screen and waiting for it to draw, axe-core, and the service's own REST/AJAX answers read in the page.
import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Kernel } from '../../core/kernel.ts';

// written on every run; docs/screenshots/ keeps the committed copies (refresh them by copying these)
export const SHOTS = resolve(import.meta.dirname, '../../test-output/screenshots');
export const PASSWORD = 'long enough password';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The kernel and browser of a suite, read when used (both are made in its beforeAll). */
export interface Harness {
  readonly k: Kernel;
  readonly browser: Browser;
}

/** A signed-in page that records console errors, uncaught errors and every request to another host. */
export async function signedIn(h: Harness, login: string, width = 1280, height = 800) {
  const context = await h.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const problems: string[] = [];
  const host = new URL(h.k.url).host;
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // a refused request is reported by its response below (with its URL), not by the console's echo of it
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  page.on('request', (r) => {
    const u = new URL(r.url());
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.host !== host) problems.push(`foreign request: ${r.url()}`);
  });
  await page.goto(`${h.k.url}/wp-login.php`);
  await page.getByLabel('Username or Email Address').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/wp-admin\/$/);
  return { page, problems, close: () => context.close() };
}

/** Opens a screen and waits until the app has drawn it (no loading line left). */
export async function open(h: Harness, page: Page, slug: string) {
  await page.goto(`${h.k.url}/wp-admin/${slug}`);
  await page.waitForFunction(
    () => !document.querySelector('.billing-loading') && !document.querySelector('#billing-app .billing-busy'),
    null,
    {
      timeout: 10000,
    },
  );
}

/** The serious and critical axe-core violations of the page as it is now. */
export async function axe(page: Page): Promise<string[]> {
  // evaluated through the debugging protocol: the page's CSP (no inline script) stays as it is
  await page.evaluate(AXE);
  const result = (await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }))) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** No console error, no foreign request, no serious accessibility violation, and a picture to look at. */
export async function checkScreen(page: Page, problems: string[], name: string): Promise<void> {
  await page.waitForTimeout(200);
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  expect(problems).toEqual([]);
}

export async function menuLinks(page: Page): Promise<string[]> {
  return (await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link').allTextContents()).map((t) => t.trim());
}

/** A REST answer as the signed-in page gets it (its session and nonce). */
export async function restGet(page: Page, path: string, method: 'GET' | 'DELETE' = 'GET'): Promise<any> {
  return page.evaluate(
    async ({ path, method }) => {
      const nonce = document.querySelector<HTMLMetaElement>('meta[name="billing-rest-nonce"]')!.content;
      const res = await fetch(`/wp-json/billing/v1${path}`, { method, headers: { 'X-WP-Nonce': nonce } });
      return res.json();
    },
    { path, method },
  );
}

export async function ajaxGet(page: Page, action: string, fields: Record<string, string>): Promise<any> {
  return page.evaluate(
    async ({ action, fields }) => {
      const nonce = document.querySelector<HTMLMetaElement>('meta[name="billing-admin-nonce"]')!.content;
      const body = new URLSearchParams({ action, _wpnonce: nonce, ...fields });
      const res = await fetch('/wp-admin/admin-ajax.php', { method: 'POST', body });
      return (await res.json()).data;
    },
    { action, fields },
  );
}
