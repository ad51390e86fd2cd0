// Settings › Import & export in Chromium: reached from Settings, a FreshBooks-shaped CSV uploaded with
// its preset, one column's mapping changed, imported with a progress bar, and the result read — then
// the same file again, which creates nothing; and an export downloaded from the same screen.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { axe, open, PASSWORD, signedIn, SHOTS } from '../admin/admin-browser.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { bootKernel } from '../helpers/kernel.ts';

const suite = browserAvailable ? describe : describe.skip;
const FIXTURES = join(import.meta.dirname, '../fixtures/csv');

let db: TestDatabase;
let k: Kernel;
let browser: Browser;
const h = {
  get k() {
    return k;
  },
  get browser() {
    return browser;
  },
};

suite('Settings › Import & export', () => {
  beforeAll(async () => {
    db = await freshDatabase();
    k = await bootKernel(db.url);
    await k.identity.users.create({ login: 'owner', email: 'owner@example.com', role: 'administrator', password: PASSWORD }, CLI);
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await k?.stop();
    await db?.drop();
    await closeBoundedWorkers();
  });

  /** Uploads `file` as `resource` exported by `preset`, and waits for the mapping table. */
  async function upload(page: import('playwright-core').Page, file: string, resource: string, preset: string) {
    await page.getByLabel('Import as').selectOption({ label: resource });
    await page.getByLabel('Exported from').selectOption({ label: preset });
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(join(FIXTURES, file));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('region', { name: 'Columns and mapping' }).waitFor();
  }

  /** Imports, and answers the result region once it says it is done. */
  async function importNow(page: import('playwright-core').Page) {
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByRole('region', { name: 'Import result' });
    await result.getByRole('heading', { name: 'Imported' }).waitFor({ timeout: 30_000 });
    return result;
  }

  const fact = async (region: import('playwright-core').Locator, term: string) =>
    (await region.locator(`dt:text-is("${term}") + dd`).textContent())?.trim();

  it('uploads, changes one mapping, imports with a progress bar and shows the result; the same file again creates nothing', async () => {
    const { page, problems, close } = await signedIn(h, 'owner');
    await open(h, page, 'settings.php');
    await page.getByRole('link', { name: 'Import & export' }).click();
    await page.waitForURL(/import-export\.php$/);
    await open(h, page, 'import-export.php');

    await upload(page, 'freshbooks-clients.csv', 'Clients', 'FreshBooks');
    const mapping = page.getByRole('region', { name: 'Columns and mapping' });
    await mapping.getByRole('heading', { name: '2 rows · 11 columns' }).waitFor();
    // the preset's proposal, each select labelled by its column
    expect(await page.getByLabel('Organization', { exact: true }).inputValue()).toBe('name');
    expect(await page.getByLabel('Notes', { exact: true }).inputValue()).toBe('');
    // one change: the phone column is ignored, the street becomes the company (to see the change land)
    await page.getByLabel('Street', { exact: true }).selectOption({ label: 'Company' });
    expect(await axe(page)).toEqual([]);
    const result = await importNow(page);
    expect(await result.getByLabel('Import progress').evaluate((p) => (p as HTMLProgressElement).value)).toBe(1);
    expect(await fact(result, 'Created')).toBe('2');
    expect(await fact(result, 'Not imported')).toBe('0');
    await page.screenshot({ path: join(SHOTS, 'import-export.png'), fullPage: true });
    const clients = await k.api.clients.list({ page: 1, per_page: 10, search: 'maple.example' });
    expect(clients.items).toEqual([
      expect.objectContaining({ name: 'Maple Studio', email: 'iris@maple.example', company: '8 Birch Lane' }),
    ]);

    // the same file again: nothing created, both found
    await open(h, page, 'import-export.php');
    await upload(page, 'freshbooks-clients.csv', 'Clients', 'FreshBooks');
    await page.getByLabel('Street', { exact: true }).selectOption({ label: 'Company' });
    const again = await importNow(page);
    expect(await fact(again, 'Created')).toBe('0');
    expect(await fact(again, 'Already here')).toBe('2');

    // invoices, with a row the import refuses shown in the result's table
    await open(h, page, 'import-export.php');
    await upload(page, 'freshbooks-invoices.csv', 'Invoices', 'FreshBooks');
    const invoices = await importNow(page);
    expect(await fact(invoices, 'Created')).toBe('2');
    expect(problems).toEqual([]);
    await close();
  }, 120_000);

  it('downloads an export of everything, named as the service names it', async () => {
    const { page, problems, close } = await signedIn(h, 'owner');
    await open(h, page, 'import-export.php');
    const panel = page.getByRole('region', { name: 'Export' });
    const [file] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download export' }).click()]);
    expect(file.suggestedFilename()).toMatch(/^billing-export-\d{8}T\d{9}Z\.tar\.gz$/);
    // a gzip stream: what `billing import` reads
    const bytes = await readFile((await file.path())!);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(problems).toEqual([]);
    await close();
  }, 120_000);
});
