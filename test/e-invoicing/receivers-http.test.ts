// What Peppol access points and German public receivers require, over HTTP: a client's electronic
// address and buyer reference (GET|PUT /clients/{id}/einvoice) reach the documents; a buyer Peppol cannot
// address, a domestic German buyer without an address and a public body without its Leitweg-ID are
// refused with the field named; credit notes (UBL and XRechnung) tell nobody to pay the seller; what is
// served passes EN 16931 with Peppol's or XRechnung's rules; the releases' examples are read.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';
import { SELLER_OPTIONS } from '../helpers/einvoice-documents.ts';
import { PEPPOL_XRECHNUNG_DIR, peppolFatal, warmEn16931, xrechnungFatal } from '../helpers/en16931.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let admin: TestUser;
const ids: Record<string, number> = {};

function call(method: string, path: string, body?: unknown, type = 'application/json') {
  const sent = Buffer.isBuffer(body) || typeof body === 'string' ? { raw: body, type } : body;
  return svc.rest(admin).request(method, path, sent);
}

const CLIENTS = {
  // a French consumer: no VAT number, so Peppol cannot address it by one
  particulier: { display_name: 'Jeanne Particulier', country: 'FR', vat: '', address: '3 rue Nationale\n59000 Lille' },
  // a German business without a postal address on record
  ohneAdresse: { display_name: 'Käufer KG', country: 'DE', vat: 'DE811234567', address: '' },
  // an Austrian business: reverse charge, addressed in Peppol by its VAT number
  kunde: { display_name: 'Kunde GmbH', country: 'AT', vat: 'ATU13585627', address: 'Hauptplatz 1\n8010 Graz' },
  // a German public body
  stadt: { display_name: 'Stadt Musterhausen', country: 'DE', vat: '', address: 'Rathausplatz 1\n12345 Musterhausen' },
};

beforeAll(async () => {
  warmEn16931(['ubl', 'peppol', 'xrechnung']);
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  await k.plugins.activate('e-invoicing', CLI);
  await waitFor(() => k.plugins.isLoaded('e-invoicing'), { what: 'e-invoicing to load' });
  for (const [key, value] of Object.entries({ ...SELLER_OPTIONS, currency: 'EUR' })) await k.options.set(key as never, value as never, CLI);
  for (const [login, c] of Object.entries(CLIENTS)) {
    ids[login] = (await k.identity.users.create({ login, email: `${login}@example.com`, role: 'billing_client', ...c }, CLI)).id;
  }
}, 300_000); // a first compile of the rules takes seconds each

afterAll(() => closeBoundedWorkers());

async function invoiceFor(client: string): Promise<{ id: number; number: string }> {
  const res = await call('POST', '/invoices', {
    client_id: ids[client],
    items: [
      { name: 'Beratung', quantity: 2, price: 100 },
      { name: 'Buch', quantity: 1, price: '20.50', tax_rate: 7 },
    ],
    status: 'available',
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("a client's electronic address", () => {
  it('is needed for Peppol when the buyer has no VAT number; set, it is the EndpointID and the invoice passes', async () => {
    const inv = await invoiceFor('particulier');
    const refused = await call('GET', `/invoices/${inv.id}/ubl`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('billing_einvoice_incomplete');
    expect(refused.body.data.missing).toEqual(['customer_einvoice_address']);
    // XRechnung accepts the e-mail address (EM)
    const x = await call('GET', `/invoices/${inv.id}/xrechnung`);
    expect(x.status).toBe(200);
    expect(x.bytes.toString()).toContain('<cbc:EndpointID schemeID="EM">particulier@example.com</cbc:EndpointID>');
    expect(xrechnungFatal(x.bytes.toString())).toEqual([]);

    expect((await call('GET', `/clients/${ids.particulier}/einvoice`)).body).toEqual({
      client_id: ids.particulier,
      einvoice_address: null,
      buyer_reference: '',
      public_body: false,
    });
    const set = await call('PUT', `/clients/${ids.particulier}/einvoice`, { einvoice_address: { scheme: '0088', id: '4000001123452' } });
    expect(set.status).toBe(200);
    expect(set.body.einvoice_address).toEqual({ scheme: '0088', id: '4000001123452' });

    const ubl = await call('GET', `/invoices/${inv.id}/ubl`);
    expect(ubl.status).toBe(200);
    const xml = ubl.bytes.toString();
    expect(xml).toMatch(/<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="0088">4000001123452<\/cbc:EndpointID>/);
    expect(peppolFatal(xml)).toEqual([]);
  });

  it('is refused when Peppol would reject it (a scheme not on its list, a GLN with a wrong check digit), and nothing changes', async () => {
    const before = (await call('GET', `/clients/${ids.ohneAdresse}/einvoice`)).body;
    for (const address of [
      { scheme: 'EM', id: 'ap@example.com' },
      { scheme: '0088', id: '4000001123453' },
      { scheme: '0208', id: '0123456789' },
      { scheme: '9930', id: 'DE 811234567' },
    ]) {
      const res = await call('PUT', `/clients/${ids.ohneAdresse}/einvoice`, { einvoice_address: address });
      expect({ address, status: res.status }).toEqual({ address, status: 400 });
    }
    expect((await call('GET', `/clients/${ids.ohneAdresse}/einvoice`)).body).toEqual(before);
    // a valid one is kept (trimmed), and null removes it again
    const set = await call('PUT', `/clients/${ids.ohneAdresse}/einvoice`, { einvoice_address: { scheme: '9930', id: ' DE811234567 ' } });
    expect(set.body.einvoice_address).toEqual({ scheme: '9930', id: 'DE811234567' });
    expect((await call('PUT', `/clients/${ids.ohneAdresse}/einvoice`, { einvoice_address: null })).body).toEqual(before);
  });
});

describe('German seller, German buyer', () => {
  it('without the buyer’s address: /ubl is refused as /xrechnung is (DE-R-008, DE-R-009)', async () => {
    const inv = await invoiceFor('ohneAdresse');
    for (const format of ['ubl', 'xrechnung']) {
      const res = await call('GET', `/invoices/${inv.id}/${format}`);
      expect({ format, status: res.status, missing: res.body.data?.missing }).toEqual({
        format,
        status: 409,
        missing: ['customer_address'],
      });
    }
  });

  it('a public body: XRechnung needs its Leitweg-ID, which reaches BT-10 of invoices and credit notes', async () => {
    await call('PUT', `/clients/${ids.stadt}/einvoice`, { public_body: true });
    const inv = await invoiceFor('stadt');
    const refused = await call('GET', `/invoices/${inv.id}/xrechnung`);
    expect(refused.status).toBe(409);
    expect(refused.body.data.missing).toEqual(['buyer_reference']);

    const leitweg = '04011000-12345-67';
    expect((await call('PUT', `/clients/${ids.stadt}/einvoice`, { buyer_reference: leitweg })).body).toMatchObject({
      buyer_reference: leitweg,
      public_body: true,
    });
    const x = await call('GET', `/invoices/${inv.id}/xrechnung`);
    expect(x.status).toBe(200);
    expect(x.bytes.toString()).toContain(`<cbc:BuyerReference>${leitweg}</cbc:BuyerReference>`);
    expect(xrechnungFatal(x.bytes.toString())).toEqual([]);

    // its credit note: XRechnung and Peppol, settled against the invoice, nobody told to pay the seller
    const note = await call('POST', `/invoices/${inv.id}/credit-notes`, { amount: 50, reason: 'Returned goods' });
    expect(note.status).toBe(201);
    const cx = await call('GET', `/credit-notes/${note.body.id}/xrechnung`);
    expect(cx.status).toBe(200);
    expect(cx.headers.get('content-disposition')).toContain('-xrechnung.xml');
    const credit = cx.bytes.toString();
    expect(xrechnungFatal(credit)).toEqual([]);
    expect(credit).toContain(`<cbc:BuyerReference>${leitweg}</cbc:BuyerReference>`);
    expect(credit).toContain(`<cac:InvoiceDocumentReference><cbc:ID>${inv.number}</cbc:ID>`);
    expect(credit).toContain('<cbc:PaymentMeansCode name="Clearing between partners">97</cbc:PaymentMeansCode>');
    expect(credit).not.toContain('PayeeFinancialAccount');
    expect(credit).not.toContain(SELLER_OPTIONS.einvoice_iban);
    expect(credit).toContain('nothing is to be paid to the seller');

    // the Peppol credit note needs the buyer's electronic address (no VAT number): with it, it passes
    await call('PUT', `/clients/${ids.stadt}/einvoice`, { einvoice_address: { scheme: '0204', id: leitweg } });
    const cu = await call('GET', `/credit-notes/${note.body.id}/ubl`);
    expect(cu.status).toBe(200);
    expect(peppolFatal(cu.bytes.toString())).toEqual([]);
    expect(cu.bytes.toString()).not.toContain('PayeeFinancialAccount');
  });
});

describe("an invoice's own references", () => {
  it('its buyer reference (BT-10) and purchase order (BT-13) reach every format, and its credit notes', async () => {
    const inv = await invoiceFor('kunde');
    expect((await call('GET', `/invoices/${inv.id}/einvoice`)).body).toEqual({
      document_id: inv.id,
      buyer_reference: '',
      purchase_order_reference: '',
    });
    expect((await call('GET', `/invoices/${inv.id}/ubl`)).bytes.toString()).toContain(
      `<cbc:BuyerReference>${inv.number}</cbc:BuyerReference>`,
    );
    const set = await call('PUT', `/invoices/${inv.id}/einvoice`, {
      buyer_reference: 'Abt. 12 & <IT>',
      purchase_order_reference: 'PO-4711',
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ document_id: inv.id, buyer_reference: 'Abt. 12 & <IT>', purchase_order_reference: 'PO-4711' });

    const ubl = (await call('GET', `/invoices/${inv.id}/ubl`)).bytes.toString();
    expect(ubl).toContain('<cbc:BuyerReference>Abt. 12 &amp; &lt;IT&gt;</cbc:BuyerReference>');
    expect(ubl).toContain('<cac:OrderReference><cbc:ID>PO-4711</cbc:ID></cac:OrderReference>');
    expect(ubl).toContain('<cbc:EndpointID schemeID="9914">ATU13585627</cbc:EndpointID>');
    expect(peppolFatal(ubl)).toEqual([]);
    const x = (await call('GET', `/invoices/${inv.id}/xrechnung`)).bytes.toString();
    expect(x).toContain('<cac:OrderReference><cbc:ID>PO-4711</cbc:ID></cac:OrderReference>');
    expect(xrechnungFatal(x)).toEqual([]);
    const cii = (await call('GET', `/invoices/${inv.id}/cii`)).bytes.toString();
    expect(cii).toContain('<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>PO-4711</ram:IssuerAssignedID>');

    // printed under the parties on the PDF (the core's definition through the plugin's filter)
    const layout = { content: ['header', 'rule', 'parties', 'items'] };
    const pdf = (await k.hooks.applyFilters(
      'billing_pdf_document',
      layout as never,
      (await k.api.invoices.get(inv.id)) as never,
    )) as typeof layout;
    expect(pdf.content).toEqual([
      'header',
      'rule',
      'parties',
      { text: 'Buyer reference: Abt. 12 & <IT>  ·  Purchase order: PO-4711', margin: [0, 0, 0, 10] },
      'items',
    ]);
    // in the document's language: a German invoice's PDF says what a German letter-invoice says
    const german = { ...(await k.api.invoices.get(inv.id)), locale: 'de' };
    const de = (await k.hooks.applyFilters('billing_pdf_document', layout as never, german as never)) as typeof layout;
    expect(de.content[3]).toEqual({ text: 'Ihr Zeichen: Abt. 12 & <IT>  ·  Bestellnummer: PO-4711', margin: [0, 0, 0, 10] });

    const note = await call('POST', `/invoices/${inv.id}/credit-notes`, { amount: 10, reason: 'Discount granted' });
    const credit = (await call('GET', `/credit-notes/${note.body.id}/ubl`)).bytes.toString();
    expect(credit).toContain('<cbc:BuyerReference>Abt. 12 &amp; &lt;IT&gt;</cbc:BuyerReference>');
    expect(credit).toContain('<cac:OrderReference><cbc:ID>PO-4711</cbc:ID></cac:OrderReference>');
    expect(peppolFatal(credit)).toEqual([]);
  });
});

const have = existsSync(PEPPOL_XRECHNUNG_DIR) || process.env.CI === 'true';
(have ? describe : describe.skip)('POST /einvoices/read', () => {
  it('reads the Peppol examples and the XRechnung test suite', async () => {
    const files = ['peppol/examples', 'xrechnung-testsuite'].flatMap((d) => {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.xml') ? [join(dir, e.name)] : [],
        );
      return walk(join(PEPPOL_XRECHNUNG_DIR, d));
    });
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const res = await call('POST', '/einvoices/read', readFileSync(file), 'application/xml');
      expect({ file, status: res.status }).toEqual({ file, status: 200 });
      expect(res.body.format).toBe('ubl');
      expect(res.body.number).not.toBe('');
      expect(res.body.lines.length).toBeGreaterThan(0);
      expect(typeof res.body.payable).toBe('number');
    }
  });
});
