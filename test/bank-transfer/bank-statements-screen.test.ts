// The "Bank statements" screens in Chromium, found by their visible labels: a CAMT.053 file uploaded on
// "Import bank statement" settles the invoice it names and leaves an unknown transfer unmatched; on "Bank
// statements" that entry is assigned to an invoice by hand, which is then paid.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { invoiceRfReference } from '../../plugins/bank-transfer/references.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { bootKernel, eventually } from '../helpers/kernel.ts';
import { axe, menuLinks, open as openScreen, PASSWORD, SHOTS, signedIn as signedInAs, type Harness } from '../admin/admin-browser.ts';
import { camt053 } from './statement-files.ts';

const suite = browserAvailable ? describe : describe.skip;

let db: TestDatabase;
let k: Kernel;
let browser: Browser;
const h: Harness = {
  get k() {
    return k;
  },
  get browser() {
    return browser;
  },
};
const open = (page: Page, slug: string) => openScreen(h, page, slug);

const invoice = (total: string) =>
  k.api.invoices.create(
    {
      customer_name: 'Käufer AG',
      customer_email: 'ap@kaeufer.example',
      currency: 'EUR',
      status: 'available',
      items: [{ name: 'Consulting', quantity: 1, price: total }],
    } as never,
    { actor: CLI, source: 'api' },
  );

suite('the bank statement screens in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    db = await freshDatabase();
    k = await bootKernel(db.url);
    await k.identity.users.create({ login: 'ops', email: 'ops@example.com', role: 'administrator', password: PASSWORD }, CLI);
    await k.plugins.activate('bank-transfer', CLI);
    expect(await eventually(() => k.plugins.isLoaded('bank-transfer'))).toBe(true);
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await k?.stop();
    await db?.drop();
  });

  it('imports a statement, shows each entry’s status, and assigns an unmatched transfer to an invoice', async () => {
    const named = await invoice('120.00');
    const unnamed = await invoice('75.00');
    const file = join(tmpdir(), `statement-${process.pid}.xml`);
    writeFileSync(
      file,
      camt053(
        [
          { amount: '120.00', ref: 'UI-1', debtor: 'Käufer AG', creditorRef: invoiceRfReference(named.number)! },
          { amount: '75.00', ref: 'UI-2', debtor: 'Someone Else', ustrd: ['for the workshop'] },
          { amount: '19.90', credit: false, ref: 'UI-3', debtor: 'Telecom' },
        ],
        8,
        'UI',
      ),
    );
    const { page, problems, close } = await signedInAs(h, 'ops');
    expect(await menuLinks(page)).toEqual(expect.arrayContaining(['Bank statements', 'Import bank statement']));
    await open(page, 'bank-statement-import.php');
    await page.getByLabel('Statement file (CAMT.053 or MT940)').setInputFiles(file);
    await page.getByRole('button', { name: 'Import statement' }).click();
    const imported = page.getByRole('region', { name: 'Imported' });
    await imported.waitFor();
    expect(await imported.textContent()).toMatch(/Matched\s*1/);
    expect(await imported.textContent()).toMatch(/Unmatched\s*1/);
    expect((await k.api.invoices.get(named.id)).status).toBe('paid');

    await open(page, 'bank-statements.php');
    for (const status of ['matched', 'unmatched', 'debit']) await page.getByRole('cell', { name: status, exact: true }).first().waitFor();
    const [statement] = await k.db.query<{ id: string }>('select id from bank_transfer_statements order by id desc limit 1');
    const entry = `Entry ${statement!.id}-2`;
    // only the unmatched entry can be assigned
    expect(await page.getByRole('button', { name: /^Assign Entry/ }).count()).toBe(1);
    await page.getByRole('button', { name: `Assign ${entry}` }).click();
    await page.getByLabel('Invoice id').fill(String(unnamed.id));
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText(`Entry 2 is recorded as a payment of invoice ${unnamed.id}.`).waitFor();
    expect((await k.api.invoices.get(unnamed.id)).status).toBe('paid');
    await page.waitForTimeout(200);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/bank-statements.png`, fullPage: true });
    expect(problems).toEqual([]);
    await close();
  });
});
