import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { bootKernel } from '../helpers/kernel.ts';

const suite = browserAvailable ? describe : describe.skip;

let db: TestDatabase;
let k: Kernel;
let browser: Browser;

suite('public pages in Chromium', () => {
  beforeAll(async () => {
    db = await freshDatabase();
    k = await bootKernel(db.url);
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await k?.stop();
    await db?.drop();
  });

  it('lets a customer accept a quote with one click, then shows the new invoice as available', async () => {
    const quote = await k.api.quotes.create(
      {
        status: 'available',
        customer_name: 'Ana Łukasiewicz',
        title: 'Kitchen renovation',
        items: [
          { name: 'Cabinets', quantity: 4, price: 310 },
          { name: 'Fitting', description: 'Two days', quantity: 16, price: 45.5 },
        ],
      },
      { actor: CLI, source: 'api' },
    );
    const key = await k.api.quotes.accessKey(quote.id);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${k.url}/billing/quote/${quote.id}?key=${key}`);
    expect(await page.locator('h1').textContent()).toBe(`Quote ${quote.number}`);
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.waitForSelector('#quote-answer:not([hidden])');
    expect(await page.locator('#quote-answer').textContent()).toBe('Thank you: the quote is accepted.');
    expect(await page.locator('.actions').count()).toBe(0);
    expect(await page.locator('.status').textContent()).toBe('accepted');
    expect(await page.locator('tbody tr').first().textContent()).toContain('$310.00');
    await page.screenshot({ path: '/tmp/billing-quote-accepted.png', fullPage: true });
    expect(errors).toEqual([]);

    const accepted = await k.api.quotes.get(quote.id);
    expect(accepted.status).toBe('accepted');
    const invoice = await k.api.invoices.get(accepted.invoiceId!);
    const invoiceKey = await k.api.invoices.accessKey(invoice.id);
    await page.goto(`${k.url}/billing/invoice/${invoice.id}?key=${invoiceKey}`);
    expect(await page.locator('.status').textContent()).toBe('available');
    expect(await page.locator('.totals tr.grand').last().textContent()).toContain('1,968.00');
    await page.screenshot({ path: '/tmp/billing-invoice.png', fullPage: true });
    await page.close();
  });
});
