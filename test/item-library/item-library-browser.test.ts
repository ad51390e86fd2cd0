// The item library in Debian's Chromium, by visible labels and button names: the Items screen adds,
// changes and deletes an item; in the invoice builder, typing in an item's name offers the library's
// item, and choosing it fills the row (name, description, price, unit, tax), which saves as such.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { useService, waitFor } from '../../testing/index.ts';
import {
  checkScreen,
  menuLinks,
  open as openScreen,
  PASSWORD,
  SHOTS,
  signedIn as signedInAs,
  type Harness,
} from '../admin/admin-browser.ts';

const suite = browserAvailable ? describe : describe.skip;
const svc = useService({ plugins: ['item-library'], options: { currency: 'EUR', tax_rate: 19 } });
let browser: Browser;

const h: Harness = {
  get k() {
    return svc.kernel;
  },
  get browser() {
    return browser;
  },
};
const signedIn = (login: string) => signedInAs(h, login);
const open = (page: Page, slug: string) => openScreen(h, page, slug);

const rows = () => svc.kernel.db.query<Record<string, string>>('select name, price::text, unit, sku from item_library_items order by id');

suite('the item library in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await svc.makeUser('ops', 'administrator', PASSWORD);
    await svc.makeUser('vera', 'billing_viewer', PASSWORD);
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the Items screen adds an item by its labels, changes it and deletes it', async () => {
    const { page, problems, close } = await signedIn('ops');
    expect(await menuLinks(page)).toContain('Items');
    await open(page, 'items.php');
    await page.getByText('No items yet.').waitFor();
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Design hour');
    await page.getByLabel('Description', { exact: true }).fill('Interface design, per hour');
    await page.getByLabel('Price', { exact: true }).fill('95.50');
    await page.getByLabel('Currency', { exact: true }).fill('EUR');
    // a unit outside Recommendation 20 is refused next to its field, and nothing is saved
    await page.getByLabel('Unit', { exact: true }).fill('HOURS');
    await page.getByRole('button', { name: 'Save item' }).click();
    await page.locator('#new-unit-error').waitFor();
    expect(await rows()).toEqual([]);
    // the refusal was the server's, and the only request that failed
    expect(problems.splice(0)).toEqual(['HTTP 400: POST /wp-json/billing/v1/items']);
    await page.getByLabel('Unit', { exact: true }).fill('HUR');
    await page.getByLabel('Tax rate (%)', { exact: true }).fill('7');
    await page.getByLabel('SKU', { exact: true }).fill('DES-H');
    await page.getByRole('button', { name: 'Save item' }).click();
    await page.getByText('Design hour added to the library.').waitFor();
    await page.getByRole('cell', { name: 'DES-H' }).waitFor();
    // stored as the exact decimal; shown as money in its currency
    expect(await rows()).toEqual([{ name: 'Design hour', price: '95.5', unit: 'HUR', sku: 'DES-H' }]);
    await page.getByRole('cell', { name: '95.50' }).waitFor();
    await checkScreen(page, problems, 'items');

    // changed from its row: the form opens with its values
    await page.getByRole('button', { name: 'Edit Design hour' }).click();
    expect(await page.locator('#row-price').inputValue()).toBe('95.50');
    await page.locator('#row-price').fill('99.00');
    await page.getByRole('button', { name: 'Save item' }).click();
    await page.getByText('Design hour saved.').waitFor();
    expect((await rows())[0]!.price).toBe('99');

    // a viewer sees the list and no button that changes it
    const vera = await signedIn('vera');
    await open(vera.page, 'items.php');
    await vera.page.getByRole('cell', { name: 'DES-H' }).waitFor();
    expect(await vera.page.getByRole('button', { name: 'Add item' }).count()).toBe(0);
    expect(await vera.page.getByRole('button', { name: 'Edit Design hour' }).count()).toBe(0);
    expect(vera.problems).toEqual([]);
    await vera.close();

    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Delete Design hour' }).click();
    await page.getByText('Design hour is deleted.').waitFor();
    expect(await rows()).toEqual([]);
    await close();
  });

  it('in the invoice builder, typing an item name offers the library item, and choosing it fills the row', async () => {
    const made = await svc.rest(await svc.makeUser('api', 'administrator')).post('/items', {
      name: 'Workshop day',
      description: 'On-site workshop, up to 8 people',
      price: '1200.00',
      currency: 'EUR',
      unit: 'DAY',
      tax_rate: '7',
      sku: 'WS-D',
    });
    expect(made.status).toBe(201);
    await svc.rest(await svc.makeUser('api2', 'administrator')).post('/items', { name: 'Dollar thing', price: '5', currency: 'USD' });

    const { page, problems, close } = await signedIn('ops');
    await open(page, 'invoice.php');
    await page.getByLabel('Customer name').fill('Käufer AG');
    await page.getByLabel('Customer e-mail').fill('ap@kaeufer.example');
    await page.getByLabel('Item 1 name').fill('works');
    const use = page.getByRole('button', { name: /^Use Workshop day/ });
    await use.waitFor();
    // only items in the document's currency (or in none) are offered
    await page.getByLabel('Item 1 name').fill('thing');
    await page.waitForTimeout(600);
    expect(await page.getByRole('button', { name: /^Use Dollar thing/ }).count()).toBe(0);
    await page.getByLabel('Item 1 name').fill('Worksh');
    await use.waitFor();
    await page.screenshot({ path: `${SHOTS}/builder-item-suggestions.png`, fullPage: true });
    await use.click();
    expect(await page.getByLabel('Item 1 name').inputValue()).toBe('Workshop day');
    expect(await page.getByLabel('Item 1 description').inputValue()).toBe('On-site workshop, up to 8 people');
    expect(await page.getByLabel('Item 1 price').inputValue()).toBe('1200.00');
    expect(await page.getByLabel('Item 1 unit').inputValue()).toBe('DAY');
    expect(await page.getByLabel('Item 1 tax rate (%)').inputValue()).toBe('7');
    expect(await page.getByLabel('Item 1 quantity').inputValue()).toBe('1');
    expect(await use.count()).toBe(0); // the list closes once chosen
    await page.getByLabel('Item 1 quantity').fill('2');
    // the live totals are the server's: 2 × 1200 at the item's 7 %
    await page.getByText('€2,568.00').first().waitFor();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Invoice saved.').waitFor();
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const invoice = await svc.kernel.api.invoices.get(id);
    expect(invoice.items).toEqual([
      {
        name: 'Workshop day',
        description: 'On-site workshop, up to 8 people',
        quantity: '2',
        price: '1200',
        amount: '2400.00',
        unit: 'DAY',
        taxable: true,
        tax_rate: '7',
      },
    ]);
    await checkScreen(page, problems, 'builder-item-library');

    // the quote builder is the same builder: the same suggestions
    await open(page, 'quote.php');
    await page.getByLabel('Item 1 name').fill('Worksh');
    await page.getByRole('button', { name: /^Use Workshop day/ }).click();
    expect(await page.getByLabel('Item 1 unit').inputValue()).toBe('DAY');
    expect(problems).toEqual([]);
    await close();
  });

  it('without the plugin the builder offers nothing and works as before', async () => {
    await svc.kernel.plugins.deactivate('item-library', CLI);
    await waitFor(() => !svc.kernel.plugins.isLoaded('item-library'), { what: 'item-library to unload' });
    const { page, problems, close } = await signedIn('ops');
    expect(await menuLinks(page)).not.toContain('Items');
    await open(page, 'invoice.php');
    await page.getByLabel('Item 1 name').fill('Worksh');
    await page.waitForTimeout(600);
    expect(await page.getByRole('button', { name: /^Use / }).count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });
});
