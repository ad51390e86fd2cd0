import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { bootKernel, eventually } from '../helpers/kernel.ts';

const suite = browserAvailable ? it : it.skip;

let db: TestDatabase;
let k: Kernel;
let browser: Browser | undefined;

beforeAll(async () => {
  db = await freshDatabase();
  k = await bootKernel(db.url);
  await k.plugins.activate('quote-signatures', CLI);
  expect(await eventually(() => k.plugins.isLoaded('quote-signatures'))).toBe(true);
  if (browserAvailable) browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await k?.stop();
  await db?.drop();
});

/** A page that records script errors and policy violations (Chromium reports those on the console). */
async function open(url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser!.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    // the refused accept (400) and the browser's /favicon.ico (404) are logged as failed loads: not problems
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() === 404 && !r.url().endsWith('/favicon.ico')) problems.push(`404 ${r.url()}`);
  });
  await page.goto(url);
  return { page, problems };
}

suite(
  'a customer signs a quote with the mouse in Chromium, within the page’s policy',
  async () => {
    const quote = await k.api.quotes.create(
      {
        status: 'available',
        customer_name: 'Ana Łukasiewicz',
        expiry_date: '2099-01-01',
        items: [{ name: 'Cabinets', quantity: 4, price: 310 }],
      },
      { actor: CLI, source: 'api' },
    );
    const key = await k.api.quotes.accessKey(quote.id);
    const { page, problems } = await open(`${k.url}/billing/quote/${quote.id}?key=${key}`);

    // a name but no drawing: the server's refusal is shown, nothing changes
    await page.fill('#signer-name', 'Ana Łukasiewicz');
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.waitForSelector('#quote-answer:not([hidden])');
    expect(await page.locator('#quote-answer').textContent()).toBe('Please sign in the box to accept this quote.');
    expect((await k.api.quotes.get(quote.id)).status).toBe('available');

    // draw a stroke on the pad, then accept
    const box = (await page.locator('#signature-pad').boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) await page.mouse.move(box.x + 20 + i * 12, box.y + box.height / 2 + (i % 2 ? -15 : 15));
    await page.mouse.up();
    expect(await page.inputValue('#signature-data')).toMatch(/^data:image\/png;base64,/);
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.waitForFunction(() => document.querySelector('#quote-answer')?.textContent === 'Thank you: the quote is accepted.');

    const accepted = await k.api.quotes.get(quote.id);
    expect(accepted.status).toBe('accepted');
    expect((accepted.accepted as { signature?: { signer_name: string } }).signature?.signer_name).toBe('Ana Łukasiewicz');

    await page.reload();
    expect(await page.locator('.signed-by p').textContent()).toMatch(/^Signed by Ana Łukasiewicz on \d{4}-\d{2}-\d{2} /);
    const shown = await page.locator('.signed-by img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth);
    expect(shown).toBe(600);
    await page.screenshot({ path: '/tmp/billing-quote-signed.png', fullPage: true });
    expect(problems).toEqual([]);
  },
  60_000,
);
