import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CLI } from '../../core/audit/audit.ts';
import { formatMoney } from '../../core/display/format.ts';
import type { Kernel } from '../../core/kernel.ts';
import { browserAvailable, launch } from '../helpers/browser.ts';
import { useService, waitFor, type TestService } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';
import {
  ajaxGet,
  axe,
  menuLinks,
  open as openScreen,
  PASSWORD,
  restGet,
  SHOTS,
  signedIn as signedInAs,
  type Harness,
} from './admin-browser.ts';

const suite = browserAvailable ? describe : describe.skip;

let svc: TestService;
let k: Kernel;
let browser: Browser;
let clientId: number;

const h: Harness = {
  get k() {
    return k;
  },
  get browser() {
    return browser;
  },
};
const signedIn = (login: string, width?: number, height?: number) => signedInAs(h, login, width, height);
const open = (page: Page, slug: string) => openScreen(h, page, slug);

suite('the admin app in Chromium', () => {
  svc = useService({
    pluginDirs: [FIXTURE_PLUGINS],
    mail: true,
    options: { company_name: 'Northwind Studio', company_email: 'billing@northwind.example' },
  });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    k = svc.kernel;
    await k.identity.users.create({ login: 'ops', email: 'ops@example.com', role: 'administrator', password: PASSWORD }, CLI);
    await k.identity.users.create({ login: 'auditor', email: 'auditor@example.com', role: 'billing_viewer', password: PASSWORD }, CLI);
    await k.identity.users.create({ login: 'reader', email: 'reader@example.com', role: 'subscriber', password: PASSWORD }, CLI);
    const client = await k.identity.users.create(
      {
        login: 'acme',
        email: 'accounts@acme.example',
        role: 'billing_client',
        display_name: 'Acme Ltd',
        company: 'Acme Ltd',
        country: 'US',
      },
      CLI,
    );
    clientId = client.id;
    browser = await launch();
    svc.beforeStop(() => browser.close());
  });

  it('builds an invoice with live totals equal to the saved ones, sends it, records a partial payment and a credit note', async () => {
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'invoice.php');
    await page.getByLabel('Find a client').fill('acme');
    await page.getByRole('button', { name: /Choose Acme Ltd/ }).click();
    expect(await page.getByLabel('Customer e-mail').inputValue()).toBe('accounts@acme.example');
    await page.getByLabel('Title').fill('Website redesign');
    await page.getByLabel('Item 1 name').fill('Design');
    await page.getByLabel('Item 1 quantity').fill('3');
    await page.getByLabel('Item 1 price').fill('333.335');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByLabel('Item 2 name').fill('Hosting');
    await page.getByLabel('Item 2 quantity').fill('1.5');
    await page.getByLabel('Item 2 price').fill('19.99');
    await page.getByLabel('Discount type').selectOption('percent');
    await page.getByLabel('Discount', { exact: true }).fill('5');
    // reorder: the hosting line first
    await page.getByRole('button', { name: 'Move item 2 up' }).click();
    expect(await page.getByLabel('Item 1 name').inputValue()).toBe('Hosting');
    const total = page.locator('[data-total="total"]');
    await page.waitForFunction(() => document.querySelector('[data-total="total"]')?.textContent?.startsWith('$'));
    await page.screenshot({ path: `${SHOTS}/invoice-builder.png` });
    const liveTotal = (await total.textContent())!.trim();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/invoice\.php\?id=\d+/);
    await expect(page.getByRole('status').filter({ hasText: 'Invoice saved.' }).first().textContent()).resolves.toContain('saved');
    const id = Number(new URL(page.url()).searchParams.get('id'));
    // the saved invoice over REST (an application password is not needed: the test reads the service's own representation)
    const saved = await restGet(page, `/invoices/${id}`);
    expect(liveTotal).toBe(formatMoney(String(saved.totals.total), 'USD'));
    expect(saved.items.map((i: { name: string }) => i.name)).toEqual(['Hosting', 'Design']);
    expect(saved.client_id).toBe(clientId);

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(`Invoice ${saved.number} sent to accounts@acme.example.`).waitFor();
    await svc.mail.waitFor((m) => m.envelope.to.includes('accounts@acme.example'));
    expect((await restGet(page, `/invoices/${id}`)).status).toBe('available');

    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByLabel('Amount (USD)').fill('100');
    await page.getByRole('button', { name: 'Save payment' }).click();
    await page.getByText('Payment of $100.00 recorded.').waitFor();
    const paid = await restGet(page, `/invoices/${id}`);
    expect(paid.status).toBe('partial');
    expect(paid.totals.paid).toBe(100);
    expect((await page.locator('[data-total="paid"]').textContent())!.trim()).toBe('$100.00');

    await page.getByRole('button', { name: 'Credit note' }).click();
    await page.getByLabel('Credit amount (USD)').fill('50');
    await page.getByLabel('Reason').fill('Hosting discount agreed by phone');
    await page.getByRole('button', { name: 'Issue credit note' }).click();
    await page.getByText(/Credit note CN-\d+ issued\./).waitFor();
    expect((await restGet(page, `/invoices/${id}`)).totals.credited).toBe(50);
    await page.screenshot({ path: `${SHOTS}/invoice-issued.png` });

    // the Payments list names the invoice by its number, linked to the invoice
    await open(page, 'payments.php');
    const invoiceLink = page.getByRole('row', { name: /\$100\.00/ }).getByRole('link', { name: saved.number, exact: true });
    await invoiceLink.waitFor();
    expect(await invoiceLink.getAttribute('href')).toBe(`/wp-admin/invoice.php?id=${id}`);
    await page.screenshot({ path: `${SHOTS}/payments-with-numbers.png` });

    // a server validation error is shown next to its field; unsaved work is guarded against leaving
    await open(page, 'invoice.php');
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    await page.getByLabel('Customer name').fill('Nobody');
    await page.getByLabel('Customer e-mail').fill('not an address');
    await page.getByLabel('Item 1 name').fill('Thing');
    await page.getByLabel('Item 1 price').fill('10');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('#b-customer_email-error').waitFor();
    expect(await page.locator('#b-customer_email-error').textContent()).toBe('This value must be an e-mail address.');
    const asked = new Promise<string>((res) => page.once('dialog', (d) => (res(d.type()), void d.accept())));
    const closed = new Promise((res) => page.once('close', res));
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    await closed;
    // the one refused request is the invalid save
    expect(problems).toEqual(['HTTP 400: POST /wp-admin/admin-ajax.php']);
    await close();
  });

  it('takes an invoice’s service period in the builder: a reversed one is shown at its field, the fixed one saved and shown again', async () => {
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'invoice.php');
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    await page.getByLabel('Customer name').fill('Period Customer');
    await page.getByLabel('Item 1 name').fill('Hosting');
    await page.getByLabel('Item 1 price').fill('25');
    await page.getByLabel('Service period from').fill('2026-02-01');
    await page.getByLabel('Service period to').fill('2026-01-31');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('#b-period_end-error').waitFor();
    expect(await page.locator('#b-period_end-error').textContent()).toContain('must not be before period_start');
    await page.getByLabel('Service period to').fill('2026-02-28');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/invoice\.php\?id=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    expect(await restGet(page, `/invoices/${id}`)).toMatchObject({ period_start: '2026-02-01', period_end: '2026-02-28' });
    await open(page, `invoice.php?id=${id}`);
    expect(await page.getByLabel('Service period from').inputValue()).toBe('2026-02-01');
    expect(await page.getByLabel('Service period to').inputValue()).toBe('2026-02-28');
    expect(problems).toEqual(['HTTP 400: POST /wp-admin/admin-ajax.php']);
    await close();
  });

  it('edits an invoice’s payment schedule in the builder: one that does not sum is shown at the schedule, the fixed one saved and shown again', async () => {
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'invoice.php');
    await page.getByRole('heading', { name: 'New invoice' }).waitFor();
    await page.getByLabel('Customer name').fill('Schedule Customer');
    await page.getByLabel('Item 1 name').fill('Kitchen');
    await page.getByLabel('Item 1 price').fill('1000');
    await page.getByLabel('Issue date').fill('2026-03-01');
    await page.getByRole('button', { name: 'Add instalment' }).click();
    await page.getByRole('button', { name: 'Add instalment' }).click();
    await page.getByLabel('Instalment 1 due').fill('2026-03-01');
    await page.getByLabel('Instalment 1 amount or percent').fill('30%');
    await page.getByLabel('Instalment 2 due').fill('2026-04-01');
    await page.getByLabel('Instalment 2 amount or percent').fill('600');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('#b-schedule-error').waitFor();
    expect(await page.locator('#b-schedule-error').textContent()).toContain('must sum exactly to the invoice total');
    await page.getByLabel('Instalment 2 amount or percent').fill('70%');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/invoice\.php\?id=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    expect(((await restGet(page, `/invoices/${id}`)) as any).schedule.map((s: any) => [s.due_date, s.amount])).toEqual([
      ['2026-03-01', 300],
      ['2026-04-01', 700],
    ]);
    await open(page, `invoice.php?id=${id}`);
    expect(await page.getByLabel('Instalment 2 amount or percent').inputValue()).toBe('700');
    expect(problems).toEqual(['HTTP 400: POST /wp-admin/admin-ajax.php']);
    await close();
  });

  it('filters, searches and bulk-sends the invoice list: one failure shown beside the two sent', async () => {
    const make = (name: string, email: string | undefined, title: string) =>
      k.api.invoices.create(
        {
          customer_name: name,
          ...(email ? { customer_email: email } : {}),
          title,
          items: [{ name: 'Consulting', quantity: 2, price: 120 }],
        },
        { actor: CLI, source: 'api' },
      );
    const a = await make('Bulk One', 'one@bulk.example', 'Bulk batch');
    const b = await make('Bulk Two', 'two@bulk.example', 'Bulk batch');
    const c = await make('Bulk Three', undefined, 'Bulk batch');
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'invoices.php');
    await page.getByLabel('Search invoices').fill('Bulk batch');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // the list before the search already shows these rows: wait for the answer to replace it
    const rowsBecome = async (n: number) => {
      await page.waitForFunction((n) => document.querySelectorAll('tbody tr').length === n, n, { timeout: 10_000 }).catch(() => {});
      expect(await page.locator('tbody tr').count()).toBe(n);
    };
    await page.getByRole('link', { name: a.number }).waitFor();
    await rowsBecome(3);
    await page.getByLabel('Status').selectOption('draft');
    await page.getByRole('link', { name: c.number }).waitFor();
    await rowsBecome(3);
    await page.getByLabel('Status').selectOption('paid');
    await page.getByText('No invoices match these filters.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('link', { name: a.number }).waitFor();
    for (const d of [a, b, c]) await page.getByLabel(`Select ${d.number}`).check();
    const sentBefore = svc.mail.received.length;
    await page.getByRole('button', { name: 'Send selected' }).click();
    await page.getByText('1 of 3 could not be sent: see each row.').waitFor({ timeout: 20000 });
    const results = page.getByRole('status', { name: 'Results' });
    expect(await results.getByText(`${a.number}: Sent`).count()).toBe(1);
    expect(await results.getByText(`${b.number}: Sent`).count()).toBe(1);
    expect(await results.getByText(new RegExp(`${c.number}: .*e-mail`, 'i')).count()).toBe(1);
    await waitFor(() => svc.mail.received.length >= sentBefore + 2, { timeoutMs: 10000, what: 'two more mails' });
    // the list shows the sent invoices issued now
    await page.getByRole('row', { name: new RegExp(`${a.number}.*available`) }).waitFor();
    await page.screenshot({ path: `${SHOTS}/invoices-bulk-send.png` });
    // the one refused request is the send without an address
    expect(problems).toEqual(['HTTP 409: POST /wp-admin/admin-ajax.php']);
    await close();
  });

  it('changes a setting, and a plugin with settings gets its own section with write-only secrets', async () => {
    await k.plugins.activate('example-gateway', CLI);
    await k.options.set('example_gateway_secret' as never, 'sk_live_do_not_echo' as never, CLI);
    const { page, problems, close } = await signedIn('ops');
    const answers: string[] = [];
    page.on('response', async (r) => {
      if (r.url().includes('admin-ajax.php')) answers.push(await r.text().catch(() => ''));
    });
    await open(page, 'settings.php');
    await page.getByLabel('Company name').fill('Northwind Studio GmbH');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect(await k.options.get('company_name')).toBe('Northwind Studio GmbH');

    // the plugin's declared options, drawn from its schemas: the secret shown as set, never its value
    const section = page.getByRole('group', { name: 'Example Pay' });
    await section.waitFor();
    const secret = section.getByLabel('Example gateway secret');
    expect(await secret.inputValue()).toBe('');
    expect(await secret.getAttribute('type')).toBe('password');
    await section.getByText(/^Set\. Write-only/).waitFor();
    expect(await page.content()).not.toContain('sk_live_do_not_echo');
    await secret.fill('sk_live_rotated');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await waitFor(async () => (await k.options.get('example_gateway_secret' as never)) === 'sk_live_rotated', {
      what: 'the rotated secret',
    });
    await page.getByText('Settings saved.').waitFor();
    expect(answers.join('\n')).not.toMatch(/sk_live_/);
    // the picture is of the plugin's section, not of wherever the save button left the page
    // (at the end of the page, where the sticky save bar sits below the last section, not over it)
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await section.screenshot({ path: `${SHOTS}/settings-plugin-section.png` });

    // a bad value is refused next to its field, and nothing is saved
    await page.getByLabel('Company name').fill('Changed again');
    await page.getByLabel('Payment terms (days)').fill('-4');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('.billing-field-error').first().waitFor();
    // in words, under the field: neither the parameter's name nor ajv's ">="
    expect(await page.locator('.billing-field-error').first().textContent()).toBe('This value must be at least 0');
    expect(await k.options.get('payment_terms_days')).toBe(30);
    expect(await k.options.get('company_name')).toBe('Northwind Studio GmbH');
    expect(problems).toEqual(['HTTP 400: POST /wp-admin/admin-ajax.php']);
    await close();

    // a deactivated plugin's section is gone
    await k.plugins.deactivate('example-gateway', CLI);
    const again = await signedIn('ops');
    await open(again.page, 'settings.php');
    await again.page.getByRole('group', { name: 'Company' }).waitFor();
    expect(await again.page.getByRole('group', { name: 'Example Pay' }).count()).toBe(0);
    await again.close();
  });

  it('edits the wording of a language beside its shipped text; the next PDF reads it; a dropped placeholder is refused', async () => {
    const client = await k.identity.users.create(
      { login: 'kunde', email: 'kunde@example.de', role: 'billing_client', display_name: 'Kunde GmbH', locale: 'de' },
      CLI,
    );
    const invoice = await k.api.invoices.create(
      { client_id: client.id, status: 'available', items: [{ name: 'Beratung', quantity: 1, price: '100' }] } as never,
      { actor: CLI, source: 'api' },
    );
    const pdfText = async () => {
      const { pdfText: read } = await import('../pdf/pdf-text.ts');
      return (await read((await k.api.pdfs.render(invoice)).bytes)).text;
    };
    expect(await pdfText()).toContain(`Rechnung ${invoice.number}`);

    const { page, problems, close } = await signedIn('ops');
    await open(page, 'settings.php');
    const wording = page.getByRole('group', { name: 'Your own wording' });
    await wording.getByLabel('Language').selectOption('de');
    await wording.getByLabel('Find a text').fill('document.invoice_number');
    const field = wording.getByLabel('document.invoice_number', { exact: true });
    await wording.getByText('Shipped: Rechnung {number}').waitFor();
    await field.fill('Faktura');
    await page.getByRole('button', { name: 'Save wording' }).click();
    await wording.locator('.billing-field-error').first().waitFor();
    expect(await wording.locator('.billing-field-error').first().textContent()).toMatch(/placeholders of its shipped text: \{number\}/);
    expect(problems).toEqual(['HTTP 400: PUT /wp-json/billing/v1/translations/de']);
    problems.length = 0;

    await field.fill('Faktura {number}');
    await page.getByRole('button', { name: 'Save wording' }).click();
    await page.getByText('Wording saved (1 text).').waitFor();
    expect(await pdfText()).toContain(`Faktura ${invoice.number}`);

    await field.fill('');
    await page.getByRole('button', { name: 'Save wording' }).click();
    await page.getByText('Wording saved (1 text).').waitFor();
    expect(await pdfText()).toContain(`Rechnung ${invoice.number}`);
    expect(problems).toEqual([]);
    await close();
  });

  it("shows a plugin's options screen declared as data, under its capability, and removes it with the plugin", async () => {
    await k.plugins.activate('relay-settings', CLI);
    await k.options.set('relay_token' as never, 'tok_secret_value' as never, CLI);
    const { page, problems, close } = await signedIn('ops');
    expect(await menuLinks(page)).toContain('Relay');
    await open(page, 'relay.php');
    await page.getByText('Events are relayed to this address.').waitFor();
    await page.getByLabel('Relay URL').fill('https://relay.example/in');
    await page.getByLabel('Retries').fill('5');
    expect(await page.getByLabel('Relay token').inputValue()).toBe('');
    expect(await page.content()).not.toContain('tok_secret_value');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect(await k.options.get('relay_url' as never)).toBe('https://relay.example/in');
    expect(await k.options.get('relay_retries' as never)).toBe(5);
    expect(await k.options.get('relay_token' as never)).toBe('tok_secret_value');
    await page.screenshot({ path: `${SHOTS}/plugin-options-screen.png` });
    expect(problems).toEqual([]);

    // a viewer lacks the plugin's capability: no link, 403
    const viewer = await signedIn('auditor');
    expect(await menuLinks(viewer.page)).not.toContain('Relay');
    expect((await viewer.page.goto(`${k.url}/wp-admin/relay.php`))!.status()).toBe(403);
    await viewer.close();

    await k.plugins.deactivate('relay-settings', CLI);
    expect((await page.goto(`${k.url}/wp-admin/relay.php`))!.status()).toBe(404);
    expect(await menuLinks(page)).not.toContain('Relay');
    await close();
  });

  it("shows a client's saved payment methods and removes one", async () => {
    // a saved card comes only from a gateway's verified success (test/payments/autopay.test.ts): the screen is shown one as stored
    const [row] = await k.db.query<{ id: string }>(
      `insert into billing_payment_methods (client_id, method, token, label) values ($1, 'gateway_a', 'pm_screen', 'Visa •••• 4242') returning id`,
      [clientId],
    );
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'clients.php');
    await page.getByRole('button', { name: 'Edit Acme Ltd' }).click();
    const saved = page.getByRole('region', { name: 'Saved payment methods of Acme Ltd' });
    await saved.getByText('Visa •••• 4242').first().waitFor();
    expect(await page.content()).not.toContain('pm_screen');
    await saved.getByRole('button', { name: 'Remove Visa •••• 4242' }).click();
    await saved.getByText('Visa •••• 4242 removed: it will not be charged again.').waitFor();
    const [after] = await k.db.query<{ removed_at: string | null }>('select removed_at from billing_payment_methods where id = $1', [
      row!.id,
    ]);
    expect(after!.removed_at).not.toBeNull();
    expect(problems).toEqual([]);
    await close();
  });

  it("shows a client's statement, downloads its PDF and sends it", async () => {
    await k.api.invoices.create(
      { items: [{ name: 'Audit', quantity: 1, price: '250.00' }], client_id: clientId, status: 'available' } as never,
      { actor: CLI, source: 'api' },
    );
    const client = await k.api.clients.get(clientId);
    const [currency, totals] = Object.entries(client.totals)[0]!;
    expect(Object.keys(client.totals)).toHaveLength(1);
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'clients.php');
    await page.getByRole('button', { name: 'Edit Acme Ltd' }).click();
    const statement = page.getByRole('region', { name: 'Statement of Acme Ltd' });
    await statement.getByText(`: ${Number(totals.due)} ${currency} (`).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      statement.getByRole('button', { name: 'Download statement (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^Statement-${clientId}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const before = svc.mail.received.length;
    await statement.getByRole('button', { name: 'Send statement' }).click();
    await statement.getByText('Statement sent to accounts@acme.example.').waitFor();
    // the PDF the screen downloaded, attached to a mail to the client
    await waitFor(
      () =>
        svc.mail.received
          .slice(before)
          .some(
            (m) =>
              m.envelope.to.includes('accounts@acme.example') &&
              m.parsed.attachments.some((a) => a.filename === download.suggestedFilename()),
          ),
      { what: 'the statement mail' },
    );
    expect(problems).toEqual([]);
    await close();
  });

  it('creates and edits a client, then quotes it with the same builder', async () => {
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'clients.php');
    await page.getByRole('button', { name: 'New client' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Globex Corporation');
    await page.getByLabel('E-mail').fill('ap@globex.example');
    await page.getByLabel('Company').fill('Globex');
    await page.getByLabel('Country (2 letters)').fill('de');
    await page.getByLabel('VAT number').fill('DE123456789');
    await page.getByLabel('Address').fill('Hauptstr. 1, Berlin');
    await page.getByLabel('Language of documents (en, de, fr, es, it, nl)').fill('de');
    await page.getByRole('button', { name: 'Save client' }).click();
    await page.getByText('Client Globex Corporation saved.').waitFor();
    await page.getByRole('button', { name: 'Edit Globex Corporation' }).click();
    await page.getByLabel('Company').fill('Globex GmbH');
    await page.getByRole('button', { name: 'Save client' }).click();
    await page.getByRole('cell', { name: 'Globex GmbH' }).waitFor();
    const globex = (await k.api.clients.list({ page: 1, per_page: 10, search: 'globex' })).items[0]!;
    expect(globex.company).toBe('Globex GmbH');
    expect(globex.country).toBe('DE');
    // the edit sent what changed: the address, which the list does not show, is kept
    expect((await k.identity.users.byId(globex.id))!.address).toBe('Hauptstr. 1, Berlin');
    expect(globex.locale).toBe('de');
    await page.screenshot({ path: `${SHOTS}/clients.png` });

    await open(page, 'quote.php');
    await page.getByLabel('Find a client').fill('globex');
    await page.getByRole('button', { name: /Choose Globex Corporation/ }).click();
    await page.getByLabel('Title').fill('Support retainer');
    await page.getByLabel('Item 1 name').fill('Support hours');
    await page.getByLabel('Item 1 quantity').fill('10');
    await page.getByLabel('Item 1 price').fill('85');
    await page.waitForFunction(() => document.querySelector('[data-total="total"]')?.textContent === '$850.00');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/quote\.php\?id=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const quote = await restGet(page, `/quotes/${id}`);
    expect(quote.totals.total).toBe(850);
    expect(quote.client_id).toBe(globex.id);
    await page.screenshot({ path: `${SHOTS}/quote.png` });
    expect(problems).toEqual([]);
    await close();
  });

  it('draws the report chart with its totals', async () => {
    const { page, problems, close } = await signedIn('ops');
    await open(page, 'reports.php');
    await page.waitForFunction(() => {
      const c = document.querySelector('canvas');
      return c && c.width > 0 && (window as any).document.querySelector('[data-total="invoiced"]');
    });
    const today = new Date().toISOString().slice(0, 10);
    const report = await ajaxGet(page, 'billing_get_report_data', { end: today });
    expect((await page.locator('[data-total="invoiced"]').textContent())!.trim()).toBe(formatMoney(String(report.totals.invoiced), 'USD'));
    expect(report.totals.invoiced).toBeGreaterThan(0);
    // the chart drew bars: some pixels of the canvas are not blank
    const drawn = await page.evaluate(() => {
      const c = document.querySelector('canvas')!;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    });
    expect(drawn).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
    await close();
  });

  it('shows a viewer no Settings, no Plugins and no edit buttons; a subscriber no billing screen', async () => {
    const viewer = await signedIn('auditor');
    const links = await menuLinks(viewer.page);
    expect(links).toEqual(expect.arrayContaining(['Dashboard', 'Invoices', 'Quotes', 'Payments', 'Clients', 'Reports', 'Audit log']));
    expect(links).not.toContain('Settings');
    expect(links).not.toContain('Plugins');
    await open(viewer.page, 'invoices.php');
    expect(await viewer.page.getByRole('link', { name: 'New invoice' }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'Send selected' }).count()).toBe(0);
    const first = viewer.page.locator('tbody tr a').first();
    await first.click();
    await viewer.page.waitForURL(/invoice\.php\?id=/);
    await viewer.page.getByLabel('Customer name').waitFor();
    for (const name of ['Save', 'Send', 'Record payment', 'Credit note', 'Cancel invoice', 'Duplicate']) {
      expect(await viewer.page.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    expect(await viewer.page.getByLabel('Customer name').isDisabled()).toBe(true);
    expect((await viewer.page.goto(`${k.url}/wp-admin/settings.php`))!.status()).toBe(403);
    expect(viewer.problems.filter((p) => !p.includes('403'))).toEqual([]);
    await viewer.close();

    const reader = await signedIn('reader');
    expect(await menuLinks(reader.page)).toEqual(['Dashboard']);
    for (const slug of ['invoices.php', 'invoice.php', 'payments.php', 'reports.php', 'clients.php', 'audit-log.php']) {
      expect((await reader.page.goto(`${k.url}/wp-admin/${slug}`))!.status()).toBe(403);
    }
    await reader.close();
  });

  it('loads every screen without console errors or foreign requests, with no serious accessibility violation', async () => {
    const invoice = (await k.api.invoices.list({ page: 1, per_page: 1 })).items[0]!;
    const screens: Array<[string, string]> = [
      ['', 'dashboard'],
      ['invoices.php', 'invoices'],
      [`invoice.php?id=${invoice.id}`, 'invoice'],
      ['invoice.php', 'invoice-new'],
      ['quotes.php', 'quotes'],
      ['quote.php', 'quote-new'],
      ['payments.php', 'payments'],
      ['clients.php', 'clients'],
      ['reports.php', 'reports'],
      ['settings.php', 'settings'],
      ['plugins.php', 'plugins'],
      ['audit-log.php', 'audit-log'],
    ];
    const { page, problems, close } = await signedIn('ops');
    const violations: string[] = [];
    for (const [slug, name] of screens) {
      await open(page, slug);
      await page.waitForTimeout(300);
      violations.push(...(await axe(page)).map((v) => `${name}: ${v}`));
      await page.screenshot({ path: `${SHOTS}/${name}.png` });
    }
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await close();

    const narrow = await signedIn('ops', 375, 800);
    await open(narrow.page, `invoice.php?id=${invoice.id}`);
    await narrow.page.screenshot({ path: `${SHOTS}/invoice-375.png`, fullPage: false });
    const overflow = await narrow.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(narrow.problems).toEqual([]);
    await narrow.close();
  });
});
