// The screens the addons declare as data (Team, Recurring, Webhooks, the e-invoice reader and downloads),
// the Payments screen's Record payment form, and the quote and invoice actions the first suite leaves out,
// driven in Debian's Chromium by visible labels and button names.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
import { formatMoney } from '../../core/display/format.ts';
import type { Kernel } from '../../core/kernel.ts';
import { readEinvoice } from '../../plugins/e-invoicing/reader.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { MailCatcher, freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { SELLER_OPTIONS } from '../helpers/einvoice-documents.ts';
import { EN16931_DIR } from '../helpers/en16931.ts';
import { bootKernel, eventually } from '../helpers/kernel.ts';
import {
  checkScreen,
  menuLinks,
  open as openScreen,
  PASSWORD,
  restGet,
  SHOTS,
  signedIn as signedInAs,
  type Harness,
} from './admin-browser.ts';

const suite = browserAvailable ? describe : describe.skip;

let db: TestDatabase;
let k: Kernel;
let smtp: MailCatcher;
let browser: Browser;
let receiver: Server;
let receiverUrl: string;
const received: string[] = [];

const h: Harness = {
  get k() {
    return k;
  },
  get browser() {
    return browser;
  },
};
const signedIn = (login: string) => signedInAs(h, login);
const open = (page: Page, slug: string) => openScreen(h, page, slug);

const invoice = (title: string, extra: Record<string, unknown> = {}) =>
  k.api.invoices.create(
    {
      customer_name: 'Käufer AG',
      customer_email: 'ap@kaeufer.example',
      customer_country: 'DE',
      title,
      items: [
        { name: 'Consulting', quantity: 2, price: 120 },
        { name: 'Travel', quantity: 1, price: 45.5 },
      ],
      ...extra,
    },
    { actor: CLI, source: 'api' },
  );

suite('the addon screens in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    db = await freshDatabase();
    smtp = await new MailCatcher().start();
    k = await bootKernel(db.url, { config: { smtpUrl: smtp.url } });
    for (const [key, value] of Object.entries(SELLER_OPTIONS)) await k.options.set(key as never, value as never, CLI);
    await k.identity.users.create({ login: 'ops', email: 'ops@example.com', role: 'administrator', password: PASSWORD }, CLI);
    await k.identity.users.create({ login: 'anna', email: 'anna@example.com', role: 'billing_viewer', password: PASSWORD }, CLI);
    await k.identity.users.create({ login: 'vera', email: 'vera@example.com', role: 'billing_viewer', password: PASSWORD }, CLI);
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/billing-hook`;
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await k?.stop();
    await smtp?.close();
    await new Promise((r) => receiver?.close(r));
    await db?.drop();
  });

  it("Team: a manager gives a colleague another role from the list, and it holds at the colleague's next request", async () => {
    await k.plugins.activate('team-roles', CLI);
    expect(await eventually(() => k.plugins.isLoaded('team-roles'))).toBe(true);
    const { page, problems, close } = await signedIn('ops');
    expect(await menuLinks(page)).toContain('Team');
    await open(page, 'team.php');
    await page.getByRole('cell', { name: 'anna@example.com' }).waitFor();
    // the administrator's role is not changed here (that stays with the CLI)
    expect(await page.getByRole('button', { name: 'Change role ops' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Change role anna' }).click();
    await page.getByLabel('Role', { exact: true }).selectOption('billing_sales');
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByText('anna is now Billing sales.').waitFor();
    expect((await k.identity.users.byLogin('anna'))!.role).toBe('billing_sales');
    await page.getByRole('cell', { name: 'Billing sales' }).waitFor();
    await checkScreen(page, problems, 'team');
    await close();

    // anna, now in sales, may create invoices: her builder shows Save
    const anna = await signedIn('anna');
    await open(anna.page, 'invoice.php');
    await anna.page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    expect(await menuLinks(anna.page)).not.toContain('Team');
    expect((await anna.page.goto(`${k.url}/wp-admin/team.php`))!.status()).toBe(403);
    await anna.close();

    await k.plugins.deactivate('team-roles', CLI);
    const again = await signedIn('ops');
    expect(await menuLinks(again.page)).not.toContain('Team');
    expect((await again.page.goto(`${k.url}/wp-admin/team.php`))!.status()).toBe(404);
    await again.close();
  });

  it('Recurring: repeats an invoice from the screen, lists its next run, pauses and resumes it', async () => {
    await k.plugins.activate('recurring', CLI);
    expect(await eventually(() => k.plugins.isLoaded('recurring'))).toBe(true);
    const source = await invoice('Monthly retainer');
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'recurring.php');
    await page.getByText('No recurring invoices yet.').waitFor();
    await page.getByRole('button', { name: 'Repeat an invoice' }).click();
    // sent empty: what is missing is said in words under its field
    await page.getByRole('button', { name: 'Create recurring profile' }).click();
    await page.locator('#new-frequency-error').waitFor();
    expect(await page.locator('#new-frequency-error').textContent()).toBe('This field is required.');
    await page.getByText('Some required fields are empty; they are marked below.').waitFor();
    await page.screenshot({ path: `${SHOTS}/recurring-new.png`, fullPage: true });
    // the invoice as a person knows it: by its number, suggested as they type a word of it (its title here)
    await page.getByLabel('Invoice number').fill('Monthly');
    const suggestion = page.locator(`#new-invoice_number-suggestions option[value="${source.number}"]`);
    await suggestion.waitFor({ state: 'attached' });
    expect(await suggestion.getAttribute('label')).toBe(`${source.number} · Käufer AG`);
    await page.getByLabel('Invoice number').fill(source.number);
    await page.getByLabel('Frequency').selectOption('monthly');
    // no first date: it continues from the invoice's own date, a month after it (the hint says so)
    await page.getByText("Empty: one period after the invoice's date").waitFor();
    await page.getByRole('button', { name: 'Create recurring profile' }).click();
    await page.getByText(/^Profile \d+ created; first invoice on \d{4}-\d\d-\d\d\.$/).waitFor();
    const [first] = (await restGet(page, '/recurring')) as Array<{ id: number; start_date: string; next_date: string }>;
    const [y, m, d] = source.issueDate.split('-').map(Number) as [number, number, number];
    const monthLater = new Date(Date.UTC(y, m, Math.min(d, new Date(Date.UTC(y, m + 1, 0)).getUTCDate()))).toISOString().slice(0, 10);
    expect({ start: first!.start_date, next: first!.next_date }).toEqual({ start: source.issueDate, next: monthLater });
    expect(await restGet(page, `/recurring/${first!.id}`, 'DELETE')).toMatchObject({ deleted: true });

    // and a date given: the profile starts there
    await page.getByRole('button', { name: 'Repeat an invoice' }).click();
    await page.getByLabel('Invoice number').fill(source.number);
    await page.getByLabel('Frequency').selectOption('monthly');
    const start = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);
    await page.getByLabel('First invoice on').fill(start);
    await page.getByRole('button', { name: 'Create recurring profile' }).click();
    await page.getByText(/^Profile \d+ created; first invoice on \d{4}-\d\d-\d\d\.$/).waitFor();
    const [profile] = (await restGet(page, '/recurring')) as Array<{ id: number; next_date: string; template: { title: string } }>;
    expect(profile!.template.title).toBe('Monthly retainer');
    expect(profile!.next_date).toBe(start);
    const row = page.getByRole('row', { name: new RegExp(`Monthly retainer`) });
    await row.getByRole('cell', { name: start }).waitFor();

    await page.getByRole('button', { name: `Pause profile ${profile!.id}` }).click();
    await page.getByText(`Profile ${profile!.id} is paused.`).waitFor();
    expect((await restGet(page, `/recurring/${profile!.id}`)).status).toBe('paused');
    await page.getByRole('button', { name: `Resume profile ${profile!.id}` }).click();
    await page.getByText(new RegExp(`^Profile ${profile!.id} is active again`)).waitFor();
    expect((await restGet(page, `/recurring/${profile!.id}`)).status).toBe('active');
    // the one refused request is the form sent empty
    expect(problems.splice(0)).toEqual(['HTTP 400: POST /wp-json/billing/v1/recurring/from-invoice']);
    await checkScreen(page, problems, 'recurring');
    await close();

    // a viewer sees the profiles, and no button that changes one (the page leaves out what they may not press)
    const viewer = await signedIn('vera');
    await open(viewer.page, 'recurring.php');
    await viewer.page.getByRole('cell', { name: 'Monthly retainer' }).waitFor();
    for (const name of ['Repeat an invoice', `Pause profile ${profile!.id}`, `Delete profile ${profile!.id}`]) {
      expect(await viewer.page.getByRole('button', { name }).count()).toBe(0);
    }
    expect(viewer.problems).toEqual([]);
    await viewer.close();
  });

  it('Webhooks: adds a subscription (its secret shown once), sends a test and shows the delivery with its result', async () => {
    await k.plugins.activate('webhooks', CLI);
    expect(await eventually(() => k.plugins.isLoaded('webhooks'))).toBe(true);
    // the receiver is on this machine: only tests and development may allow that
    await k.options.set('webhooks_allow_private_hosts' as never, true as never, CLI);
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'webhooks.php');
    await page.getByRole('button', { name: 'Add subscription' }).click();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel('invoice.created').check();
    await page.getByLabel('invoice.paid').check();
    await page.getByRole('button', { name: 'Save subscription' }).click();
    await page.getByText(`Subscription to ${receiverUrl} added.`).waitFor();
    const secret = (await page.locator('.billing-reveal code').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('row', { name: new RegExp(receiverUrl.replace(/[.]/g, '\\.')) });
    await row.getByRole('cell', { name: 'invoice.created, invoice.paid' }).waitFor();
    const [sub] = (await restGet(page, '/webhooks')) as Array<{ id: number; events: string[]; active: boolean }>;
    expect(sub!.events).toEqual(['invoice.created', 'invoice.paid']);
    // the secret is in the creation answer only
    expect(JSON.stringify(await restGet(page, `/webhooks/${sub!.id}`))).not.toContain(secret);

    await page.getByRole('button', { name: `Send test ${receiverUrl}` }).click();
    await page.getByText('Test event sent: delivered (HTTP 204).').waitFor();
    expect(received.some((b) => b.includes('"webhook.test"'))).toBe(true);
    await page.getByRole('button', { name: `Deliveries of ${receiverUrl}` }).click();
    const deliveries = page.getByRole('region', { name: `Deliveries of ${receiverUrl}` });
    await deliveries.getByRole('cell', { name: 'webhook.test' }).waitFor();
    await deliveries.getByText('delivered').waitFor();
    await checkScreen(page, problems, 'webhooks');

    await page.getByRole('button', { name: `Pause ${receiverUrl}` }).click();
    await page.getByText(`${receiverUrl} is paused.`).waitFor();
    expect((await restGet(page, `/webhooks/${sub!.id}`)).active).toBe(false);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: `Remove ${receiverUrl}` }).click();
    await page.getByText(`The subscription of ${receiverUrl} is removed.`).waitFor();
    await page.getByText('No subscriptions yet.').waitFor();
    expect(problems).toEqual([]);
    await close();
    await k.plugins.deactivate('webhooks', CLI);
  });

  it("Payments: records a payment for an invoice found by its number; errors next to their fields; the invoice's balance follows", async () => {
    const inv = await invoice('Workshop', { status: 'available' });
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'payments.php');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByLabel('Invoice', { exact: true }).fill(inv.number);
    await page.locator(`#rp-choice option[value="${inv.id}"]`).waitFor({ state: 'attached' });
    await page.getByLabel('Invoice paid').selectOption(String(inv.id));
    expect(await page.getByLabel(/^Amount/).inputValue()).toBe(String(Number(inv.totals.due)));
    await page.getByLabel(/^Amount/).fill('forty');
    await page.getByRole('button', { name: 'Save payment' }).click();
    await page.locator('#rp-amount-error').waitFor();
    // in words under the field, not the parameter's name
    expect(await page.locator('#rp-amount-error').textContent()).toBe('This value must be a number.');
    expect(((await restGet(page, `/invoices/${inv.id}`)) as { totals: { paid: number } }).totals.paid).toBe(0);

    await page.getByLabel(/^Amount/).fill('40');
    await page.getByLabel('Method').selectOption('cheque');
    await page.getByLabel('Bank reference').fill('CHQ-000731');
    await page.getByRole('button', { name: 'Save payment' }).click();
    await page.getByText(new RegExp(`^Payment .+ of \\$40\\.00 recorded on ${inv.number}\\.$`)).waitFor();
    const after = await restGet(page, `/invoices/${inv.id}`);
    expect(after.totals.paid).toBe(40);
    expect(after.totals.due).toBe(Math.round((Number(inv.totals.total) - 40) * 100) / 100);
    expect(after.status).toBe('partial');
    await page.getByRole('cell', { name: 'cheque' }).waitFor();
    const [payment] = await restGet(page, `/invoices/${inv.id}/payments`);
    expect(payment.transaction_id).toBe('CHQ-000731');
    expect(problems.splice(0)).toEqual(['HTTP 400: POST /wp-admin/admin-ajax.php']);
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByLabel('Invoice', { exact: true }).fill(inv.number);
    await checkScreen(page, problems, 'payments-record');
    await close();
  });

  it('E-invoices: the reader screen reads an official example, and says in words what it cannot read', async () => {
    await k.plugins.activate('e-invoicing', CLI);
    expect(await eventually(() => k.plugins.isLoaded('e-invoicing'))).toBe(true);
    const { page, problems, close } = await signedIn('ops');
    expect(await menuLinks(page)).toContain('Read an e-invoice');
    await open(page, 'einvoice-reader.php');
    const example = join(EN16931_DIR, 'ubl/examples/ubl-tc434-example1.xml');
    const expected = await readEinvoice(readFileSync(example));
    await page.getByLabel('E-invoice file (XML or Factur-X PDF)').setInputFiles(example);
    await page.getByRole('button', { name: 'Read file' }).click();
    await page.getByRole('heading', { name: `E-invoice ${expected.number}` }).waitFor();
    const seller = page.getByRole('region', { name: 'Seller' });
    await seller.getByText(expected.seller.name, { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Buyer' }).getByText(expected.buyer.name, { exact: true }).waitFor();
    const lines = page.getByRole('region', { name: 'Lines' });
    expect(await lines.locator('tbody tr').count()).toBe(expected.lines.length);
    const totals = page.getByRole('region', { name: 'Totals' });
    await totals
      .getByText(formatMoney(String(expected.totals.payable), expected.currency), { exact: true })
      .first()
      .waitFor();
    await checkScreen(page, problems, 'einvoice-reader');

    const bogus = join(tmpdir(), `not-an-einvoice-${process.pid}.xml`);
    writeFileSync(bogus, '<?xml version="1.0"?><note>Hello</note>');
    await page.getByLabel('E-invoice file (XML or Factur-X PDF)').setInputFiles(bogus);
    await page.getByRole('button', { name: 'Read file' }).click();
    await page.locator('#upload-file-error').waitFor();
    expect(await page.locator('#upload-file-error').textContent()).toMatch(/e-invoice|UBL|CII/i);
    expect(problems).toEqual(['HTTP 400: POST /wp-json/billing/v1/einvoices/read']);
    await close();
  });

  it("E-invoices: an issued invoice's screen links the plugin's formats; the UBL downloaded carries the REST total", async () => {
    // a German buyer with its VAT number and address: what a domestic German Peppol invoice needs
    const kaeufer = await k.identity.users.create(
      {
        login: 'kaeufer',
        email: 'ap@kaeufer.example',
        role: 'billing_client',
        display_name: 'Käufer AG',
        country: 'DE',
        vat: 'DE987654321',
        address: 'Marktplatz 2\n80331 München',
      },
      CLI,
    );
    const inv = await invoice('Two rates', {
      client_id: kaeufer.id,
      status: 'available',
      items: [
        { name: 'Consulting', quantity: 2, price: 120, tax_rate: 19 },
        { name: 'Books', quantity: 3, price: 12.4, tax_rate: 7 },
        { name: 'Disbursement', quantity: 1, price: 30, taxable: false },
      ],
    });
    const draft = await invoice('Not issued');
    const { page, problems, close } = await signedIn('ops');
    await open(page, `invoice.php?id=${draft.id}`);
    expect(await page.getByRole('group', { name: 'Downloads' }).count()).toBe(0);
    await open(page, `invoice.php?id=${inv.id}`);
    const downloads = page.getByRole('group', { name: 'Downloads' });
    expect((await downloads.getByRole('link').allTextContents()).map((t) => t.trim())).toEqual([
      'Factur-X (PDF)',
      'Peppol UBL (XML)',
      'XRechnung (XML)',
      'CII (XML)',
    ]);
    const rest = await restGet(page, `/invoices/${inv.id}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      downloads.getByRole('link', { name: 'Peppol UBL (XML)' }).click(),
    ]);
    const ubl = readFileSync((await download.path())!, 'utf8');
    expect(ubl).toContain('<Invoice');
    const amount = (tag: string, xml: string) => Number(new RegExp(`<cbc:${tag} currencyID="USD">([^<]+)<`).exec(xml)![1]);
    expect(amount('TaxInclusiveAmount', ubl)).toBe(rest.totals.total);
    expect(amount('PayableAmount', ubl)).toBe(rest.totals.due);
    const [cii] = await Promise.all([page.waitForEvent('download'), downloads.getByRole('link', { name: 'CII (XML)' }).click()]);
    const ciiXml = readFileSync((await cii.path())!, 'utf8');
    expect(Number(/<ram:GrandTotalAmount>([^<]+)</.exec(ciiXml)![1])).toBe(rest.totals.total);
    await downloads.scrollIntoViewIfNeeded();
    await checkScreen(page, problems, 'invoice-einvoice-links');

    // data an e-invoice needs is missing: said in words on the screen, with what is missing, no file saved
    await k.options.set('company_street', '', CLI);
    let saved = false;
    page.once('download', () => (saved = true));
    await downloads.getByRole('link', { name: 'XRechnung (XML)' }).click();
    await downloads.getByRole('alert').filter({ hasText: 'cannot be a valid e-invoice' }).waitFor();
    expect(await downloads.getByRole('alert').textContent()).toContain('company_street');
    expect(saved).toBe(false);
    expect(problems).toEqual([`HTTP 409: GET /wp-json/billing/v1/invoices/${inv.id}/xrechnung`]);
    await k.options.set('company_street', 'Hauptstraße 1', CLI);
    await close();

    // deactivated: the links are gone
    await k.plugins.deactivate('e-invoicing', CLI);
    const again = await signedIn('ops');
    await open(again.page, `invoice.php?id=${inv.id}`);
    await again.page.getByRole('button', { name: 'Duplicate' }).waitFor();
    expect(await again.page.getByRole('group', { name: 'Downloads' }).count()).toBe(0);
    await again.close();
  });

  it('Quotes: sends one from its builder, bulk-sends two from the list; Cancel and Duplicate on an invoice', async () => {
    const quote = (customer: string, email: string) =>
      k.api.quotes.create(
        { customer_name: customer, customer_email: email, title: 'Support', items: [{ name: 'Hours', quantity: 4, price: 90 }] },
        { actor: CLI, source: 'api' },
      );
    const single = await quote('Single Ltd', 'single@quotes.example');
    const a = await quote('Bulk A', 'a@quotes.example');
    const b = await quote('Bulk B', 'b@quotes.example');
    const { page, problems, close } = await signedIn('ops');
    await open(page, `quote.php?id=${single.id}`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(`Quote ${single.number} sent to single@quotes.example.`).waitFor();
    expect(await eventually(() => smtp.received.some((m) => m.envelope.to.includes('single@quotes.example')), 10000)).toBe(true);

    await open(page, 'quotes.php');
    await page.getByLabel(`Select ${a.number}`).check();
    await page.getByLabel(`Select ${b.number}`).check();
    await page.getByRole('button', { name: 'Send selected' }).click();
    await page.getByText('All 2 sent.').waitFor();
    expect(
      await eventually(
        () => ['a@quotes.example', 'b@quotes.example'].every((to) => smtp.received.some((m) => m.envelope.to.includes(to))),
        10000,
      ),
    ).toBe(true);
    for (const q of [a, b]) expect((await restGet(page, `/quotes/${q.id}`)).status).toBe('available');
    await page.screenshot({ path: `${SHOTS}/quotes-bulk-send.png` });

    const inv = await invoice('To cancel', { status: 'available' });
    await open(page, `invoice.php?id=${inv.id}`);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Cancel invoice' }).click();
    await page.getByText(`${inv.number} is cancelled.`).waitFor();
    expect((await restGet(page, `/invoices/${inv.id}`)).status).toBe('cancelled');
    await page.getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL((u) => /invoice\.php\?id=\d+/.test(u.href) && u.searchParams.get('id') !== String(inv.id));
    const copyId = Number(new URL(page.url()).searchParams.get('id'));
    const copy = await restGet(page, `/invoices/${copyId}`);
    expect(copy.status).toBe('draft');
    expect(copy.title).toBe('To cancel');
    expect(copy.totals.total).toBe(Number(inv.totals.total));
    expect(problems).toEqual([]);
    await close();
  });
});
