// The e-invoicing plugin over HTTP: every format of random issued invoices (several currencies, rates,
// exempt lines, discounts, reverse charge, export) and of credit notes passes the official EN 16931
// rules with no fatal assertion, the UBL Peppol's too and the XRechnung XRechnung's; the CII is schema-valid and byte-identical inside the Factur-X PDF;
// the amounts equal the REST representation; drafts and incomplete data are refused; issuing is
// refused under einvoice_required; the reader reads every official example and refuses hostile XML; a
// service period is the invoice period (BG-14) of every format.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { READ_BODY_LIMIT, readEinvoice } from '../../plugins/e-invoicing/reader.ts';
import { SELLER_OPTIONS as SELLER } from '../helpers/einvoice-documents.ts';
import { ciiSchemaErrors, EN16931_DIR, en16931Fatal, peppolFatal, warmEn16931, xrechnungFatal } from '../helpers/en16931.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let admin: TestUser;
const dir = mkdtempSync(join(tmpdir(), 'einvoice-http-'));

/** REST as the administrator: a Buffer or a string goes as it is, with `type`; anything else as JSON. */
function call(method: string, path: string, body?: unknown, type = 'application/json') {
  const sent = Buffer.isBuffer(body) || typeof body === 'string' ? { raw: body, type } : body;
  return svc.rest(admin).request(method, path, sent);
}

async function setOptions(values: Record<string, unknown>) {
  for (const [key, value] of Object.entries(values)) await k.options.set(key as never, value as never, CLI);
}

beforeAll(async () => {
  warmEn16931();
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  expect((await call('GET', '/invoices/1/ubl')).status).toBe(404); // rest_no_route while inactive
  await k.plugins.activate('e-invoicing', CLI);
  await waitFor(() => k.plugins.isLoaded('e-invoicing'), { what: 'e-invoicing to load' });
  await setOptions({ ...SELLER, currency: 'EUR' });
  for (const c of CLIENTS) {
    const user = await k.identity.users.create({ ...c, email: `${c.login}@example.com`, role: 'billing_client' }, CLI);
    clientIds.push(user.id);
  }
  // without a VAT number, Peppol reaches the buyer only by an electronic address of its own (a GLN here)
  const buyer = clientIds[CLIENTS.findIndex((c) => !c.vat)]!;
  expect((await call('PUT', `/clients/${buyer}/einvoice`, { einvoice_address: { scheme: '0088', id: '4000001123452' } })).status).toBe(200);
}, 300_000); // a first compile of the official rules takes seconds each, minutes on a loaded machine

const RATES = [0, 5.5, 7, 10, 19, 20, 21];
const itemArb = fc
  .record({
    name: fc.constantFrom('Consulting', 'Widgets <small> & "large"', 'Café crème'),
    quantity: fc.integer({ min: 1, max: 20_000 }).map((u) => u / 100),
    price: fc.integer({ min: 0, max: 2_000_000 }).map((u) => u / 1000),
    taxable: fc.boolean(),
    tax_rate: fc.option(fc.constantFrom(...RATES), { nil: undefined }),
  })
  .map((i) => (i.taxable ? i : { ...i, tax_rate: undefined }));
/** Clients with postal addresses (XRechnung needs the buyer's city and postcode): domestic, reverse charge, export. */
const CLIENTS = [
  { login: 'kaeufer', display_name: 'Käufer AG', country: 'DE', vat: 'DE987654321', address: 'Marktplatz 2\n80331 München' },
  { login: 'client', display_name: 'Client SARL', country: 'FR', vat: 'FR40303265045', address: '12 rue de la Paix\n75002 Paris' },
  { login: 'buyer', display_name: 'Buyer Inc.', country: 'US', vat: '', address: '1 Main Street\nSpringfield 62701' },
];
const clientIds: number[] = [];
const customerArb = fc.integer({ min: 0, max: CLIENTS.length - 1 }).map((i) => ({ client_id: clientIds[i]! }));
const invoiceArb = fc.record({
  currency: fc.constantFrom('EUR', 'USD', 'JPY', 'GBP'),
  customer: customerArb,
  items: fc.array(itemArb, { minLength: 1, maxLength: 5 }),
  discount: fc.option(
    fc.integer({ min: 1, max: 300_000 }).map((u) => ({ type: 'percent', value: u / 10_000 })),
    { nil: undefined },
  ),
});

describe('e-invoices of random issued invoices, over HTTP', () => {
  it('are valid in every format, carry the representation’s amounts, and the Factur-X carries the exact CII', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(invoiceArb, fc.constantFrom(0.3, 1), async (spec, creditShare) => {
        // yen amounts are whole: a price with fractions of a yen makes line amounts Peppol refuses (R120)
        const items =
          spec.currency === 'JPY'
            ? spec.items.map((i) => ({ ...i, quantity: Math.ceil(i.quantity), price: Math.round(i.price) }))
            : spec.items;
        const created = await call('POST', '/invoices', {
          items,
          currency: spec.currency,
          ...spec.customer,
          ...(spec.discount ? { discount: spec.discount } : {}),
          status: 'available',
        });
        expect(created.status).toBe(201);
        const inv = created.body;
        const id = inv.id;

        const ubl = await call('GET', `/invoices/${id}/ubl`);
        expect(ubl.status).toBe(200);
        expect(ubl.headers.get('content-type')).toMatch(/^application\/xml; charset=utf-8$/i);
        const xrechnung = await call('GET', `/invoices/${id}/xrechnung`);
        const cii = await call('GET', `/invoices/${id}/cii`);
        expect(xrechnung.status).toBe(200);
        expect(peppolFatal(ubl.bytes.toString())).toEqual([]);
        expect(xrechnungFatal(xrechnung.bytes.toString())).toEqual([]);
        expect(en16931Fatal(cii.bytes.toString(), 'cii')).toEqual([]);
        expect(await ciiSchemaErrors(cii.bytes.toString())).toBe('');

        // the amounts in the XML are the representation's
        for (const xml of [ubl.bytes, cii.bytes]) {
          const read = await readEinvoice(xml);
          expect(read.totals.line_total).toBe(inv.totals.subtotal);
          expect(read.totals.allowance_total).toBe(inv.totals.discount);
          expect(read.totals.tax).toBe(inv.totals.tax);
          expect(read.totals.tax_inclusive).toBe(inv.totals.total);
          expect(read.totals.payable).toBe(inv.totals.due);
          expect(read.lines.map((l) => l.net_amount)).toEqual(inv.items.map((i: { amount: number }) => i.amount));
          expect(read.vat_breakdown.map((v) => [v.category, v.rate, v.taxable_amount, v.tax])).toEqual(
            inv.tax_breakdown.map((b: { category: string; rate: number; taxable_amount: number; tax: number }) => [
              b.category,
              b.rate,
              b.taxable_amount,
              b.tax,
            ]),
          );
        }

        // Factur-X: a PDF/A-3b whose factur-x.xml is byte for byte the /cii answer
        const fx = await call('GET', `/invoices/${id}/facturx`);
        expect(fx.status).toBe(200);
        expect(fx.headers.get('content-type')).toBe('application/pdf');
        const { extractFacturX } = await import('../../plugins/e-invoicing/facturx-extract.ts');
        expect(Buffer.from(await extractFacturX(fx.bytes), 'utf8').equals(cii.bytes)).toBe(true);

        // a credit note of it, as a UBL CreditNote referring to the invoice
        const amount = Math.max(Number((inv.totals.total * creditShare).toFixed(spec.currency === 'JPY' ? 0 : 2)), 0);
        if (amount > 0) {
          const note = await call('POST', `/invoices/${id}/credit-notes`, { amount, reason: 'Returned goods' });
          expect(note.status).toBe(201);
          const credit = await call('GET', `/credit-notes/${note.body.id}/ubl`);
          expect(credit.status).toBe(200);
          expect(peppolFatal(credit.bytes.toString())).toEqual([]);
          const creditX = await call('GET', `/credit-notes/${note.body.id}/xrechnung`);
          expect(creditX.status).toBe(200);
          expect(xrechnungFatal(creditX.bytes.toString())).toEqual([]);
          const read = await readEinvoice(credit.bytes);
          expect(read.type).toBe('credit_note');
          expect(read.totals.payable).toBe(note.body.amount);
          expect(credit.bytes.toString()).toContain(`<cac:InvoiceDocumentReference><cbc:ID>${inv.number}</cbc:ID>`);
        }
        runs++;
      }),
      { numRuns: Number(process.env.EINVOICE_HTTP_RUNS ?? 8), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
    expect(runs).toBeGreaterThan(0);
    // eight invoices, each rendered in four formats and run through the official rules: minutes on a
    // busy two-core machine with the embedded database, so more than the default minute
  }, 300_000);

  it('makes a Factur-X that declares PDF/A-3b, embeds its fonts and attaches factur-x.xml as the alternative', async () => {
    const inv = await call('POST', '/invoices', {
      items: [{ name: 'Consulting', quantity: 2, price: 100 }],
      customer_name: 'Käufer AG',
      customer_country: 'DE',
      status: 'available',
    });
    const fx = await call('GET', `/invoices/${inv.body.id}/facturx`);
    const { PDFDocument, PDFName, PDFDict, PDFArray } = await import('pdf-lib');
    const pdf = await PDFDocument.load(fx.bytes, { updateMetadata: false });
    expect(fx.bytes.subarray(0, 8).toString()).toBe('%PDF-1.7');
    const metadata = pdf.catalog.lookup(PDFName.of('Metadata')) as unknown as { contents: Uint8Array };
    const xmp = Buffer.from(metadata.contents).toString('utf8');
    expect(xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
    const intents = pdf.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
    expect(String(intents.lookup(0, PDFDict).get(PDFName.of('S')))).toBe('/GTS_PDFA1');
    const af = pdf.catalog.lookup(PDFName.of('AF'), PDFArray);
    const spec = af.lookup(0, PDFDict);
    expect(spec.get(PDFName.of('AFRelationship'))?.toString()).toBe('/Alternative');
    const embedded = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F')) as unknown as { dict: { get(n: unknown): unknown } };
    expect(String(embedded.dict.get(PDFName.of('Subtype')))).toBe('/text#2Fxml');
    // every font is embedded: each descriptor carries its font program
    const fonts = pdf.context
      .enumerateIndirectObjects()
      .map(([, o]) => o as unknown as { get?(n: unknown): unknown; has(n: unknown): boolean })
      .filter((o) => o instanceof PDFDict && String(o.get!(PDFName.of('Type'))) === '/FontDescriptor');
    expect(fonts.length).toBeGreaterThan(0);
    for (const f of fonts)
      expect(f.has(PDFName.of('FontFile2')) || f.has(PDFName.of('FontFile3')) || f.has(PDFName.of('FontFile'))).toBe(true);
    // the same invoice, the same bytes
    expect((await call('GET', `/invoices/${inv.body.id}/facturx`)).bytes.equals(fx.bytes)).toBe(true);
  });
});

describe('the service period (BG-14) over HTTP', () => {
  it('is the invoice period of the UBL, XRechnung and CII (valid by the official rules) and of a credit note', async () => {
    const inv = await call('POST', '/invoices', {
      items: [{ name: 'Hosting', quantity: 1, price: 100 }],
      client_id: clientIds[0],
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      status: 'available',
    });
    expect(inv.status).toBe(201);
    const ubl = (await call('GET', `/invoices/${inv.body.id}/ubl`)).bytes.toString();
    const xrechnung = (await call('GET', `/invoices/${inv.body.id}/xrechnung`)).bytes.toString();
    const cii = (await call('GET', `/invoices/${inv.body.id}/cii`)).bytes.toString();
    for (const xml of [ubl, xrechnung]) {
      expect(xml).toContain(
        '<cac:InvoicePeriod><cbc:StartDate>2026-01-01</cbc:StartDate><cbc:EndDate>2026-01-31</cbc:EndDate></cac:InvoicePeriod>',
      );
      expect(en16931Fatal(xml, 'ubl')).toEqual([]);
    }
    expect(cii).toContain(
      '<ram:BillingSpecifiedPeriod><ram:StartDateTime><udt:DateTimeString format="102">20260101</udt:DateTimeString></ram:StartDateTime>' +
        '<ram:EndDateTime><udt:DateTimeString format="102">20260131</udt:DateTimeString></ram:EndDateTime></ram:BillingSpecifiedPeriod>',
    );
    expect(en16931Fatal(cii, 'cii')).toEqual([]);
    expect(await ciiSchemaErrors(cii)).toBe('');

    const note = await call('POST', `/invoices/${inv.body.id}/credit-notes`, { amount: 20, reason: 'Outage', period_start: '2026-01-10' });
    expect(note.status).toBe(201);
    const credit = (await call('GET', `/credit-notes/${note.body.id}/ubl`)).bytes.toString();
    expect(credit).toContain(
      '<cac:InvoicePeriod><cbc:StartDate>2026-01-10</cbc:StartDate><cbc:EndDate>2026-01-31</cbc:EndDate></cac:InvoicePeriod>',
    );
    expect(en16931Fatal(credit, 'ubl')).toEqual([]);

    // without a period, none is written
    const plain = await call('POST', '/invoices', {
      items: [{ name: 'Hosting', quantity: 1, price: 100 }],
      client_id: clientIds[0],
      status: 'available',
    });
    expect((await call('GET', `/invoices/${plain.body.id}/ubl`)).bytes.toString()).not.toContain('InvoicePeriod');
    expect((await call('GET', `/invoices/${plain.body.id}/cii`)).bytes.toString()).not.toContain('BillingSpecifiedPeriod');
  }, 120_000);
});

describe('refusals', () => {
  it('refuses drafts with 409 billing_rest_invalid_state, unknown ids with 404', async () => {
    const draft = await call('POST', '/invoices', {
      items: [{ name: 'A', quantity: 1, price: 1 }],
      customer_name: 'X',
      customer_country: 'DE',
    });
    for (const format of ['ubl', 'cii', 'facturx', 'xrechnung']) {
      const res = await call('GET', `/invoices/${draft.body.id}/${format}`);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('billing_rest_invalid_state');
    }
    expect((await call('GET', '/invoices/999999/ubl')).body.code).toBe('billing_rest_not_found');
  });

  it('refuses incomplete data with 409 billing_einvoice_incomplete listing every missing field at once', async () => {
    const inv = await call('POST', '/invoices', {
      items: [
        { name: 'A', quantity: 1, price: 10 },
        { name: 'Fee', quantity: 1, price: 5, taxable: false },
      ],
      status: 'available',
    });
    await setOptions({
      company_vat_number: '',
      company_street: '',
      company_city: '',
      company_postcode: '',
      tax_exempt_items_statement: '',
    });
    try {
      // the statement was stored with the invoice: changing the option afterwards changes nothing
      const ubl = await call('GET', `/invoices/${inv.body.id}/ubl`);
      expect(ubl.status).toBe(409);
      expect(ubl.body.code).toBe('billing_einvoice_incomplete');
      expect(ubl.body.data.missing).toEqual([
        'company_vat_number',
        'company_street',
        'company_city',
        'company_postcode',
        'customer_name',
        'customer_country',
        'einvoice_seller_id',
        'customer_einvoice_address',
      ]);
      const x = await call('GET', `/invoices/${inv.body.id}/xrechnung`);
      expect(x.body.data.missing).toEqual(
        expect.arrayContaining(['company_vat_number', 'customer_name', 'customer_country', 'customer_address']),
      );
      const fx = await call('GET', `/invoices/${inv.body.id}/facturx`);
      expect(fx.body.code).toBe('billing_einvoice_incomplete');
      const later = await call('POST', '/invoices', {
        items: [{ name: 'Fee', quantity: 1, price: 5, taxable: false }],
        customer_name: 'Käufer AG',
        customer_country: 'DE',
        status: 'available',
      });
      expect((await call('GET', `/invoices/${later.body.id}/cii`)).body.data.missing).toContain('tax_exempt_items_statement');
    } finally {
      await setOptions(SELLER);
    }
  });

  it('refuses 3-decimal currencies, whose amounts EN 16931 cannot carry', async () => {
    const inv = await call('POST', '/invoices', {
      items: [{ name: 'A', quantity: 1, price: '1.234' }],
      currency: 'KWD',
      customer_name: 'X',
      customer_country: 'DE',
      status: 'available',
    });
    const res = await call('GET', `/invoices/${inv.body.id}/ubl`);
    expect(res.status).toBe(409);
    expect(res.body.data.invalid.currency).toContain('at most 2');
  });

  it('under einvoice_required refuses to issue (create, save, send) what would be refused, and nothing is written', async () => {
    await setOptions({ einvoice_required: true });
    try {
      const before = (await call('GET', '/invoices?per_page=1')).headers.get('x-wp-total');
      const refused = await call('POST', '/invoices', { items: [{ name: 'A', quantity: 1, price: 1 }], status: 'available' });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('billing_einvoice_incomplete');
      expect(refused.body.data.missing).toEqual(['customer_name', 'customer_country']);
      expect((await call('GET', '/invoices?per_page=1')).headers.get('x-wp-total')).toBe(before);

      const draft = await call('POST', '/invoices', { items: [{ name: 'A', quantity: 1, price: 1 }], customer_email: 'x@y.test' });
      expect(draft.status).toBe(201);
      await expect(
        k.api.invoices.update(draft.body.id, { items: [{ name: 'A', quantity: 1, price: 1 }], status: 'available' }, CLI),
      ).rejects.toMatchObject({ code: 'billing_einvoice_incomplete' });
      await expect(k.api.mail.sendInvoice(draft.body.id, CLI)).rejects.toMatchObject({ code: 'billing_einvoice_incomplete' });
      expect((await k.api.invoices.get(draft.body.id)).status).toBe('draft');
      expect(await k.api.mail.deliveries(draft.body.id)).toEqual([]);

      const ok = await call('POST', '/invoices', {
        items: [{ name: 'A', quantity: 1, price: 1 }],
        customer_name: 'Käufer AG',
        customer_country: 'DE',
        status: 'available',
      });
      expect(ok.status).toBe(201);
    } finally {
      await setOptions({ einvoice_required: false });
    }
  });
});

describe('POST /einvoices/read', () => {
  const examples = ['ubl', 'cii'].flatMap((syntax) =>
    readdirSync(join(EN16931_DIR, syntax, 'examples')).map((f) => ({ syntax, file: join(EN16931_DIR, syntax, 'examples', f) })),
  );

  it('reads every official example, the 3 MiB one with its attachment too (the route takes 20 MiB)', async () => {
    expect(examples.length).toBeGreaterThan(30);
    for (const { syntax, file } of examples) {
      const bytes = readFileSync(file);
      const res = await call('POST', '/einvoices/read', bytes, 'application/xml');
      expect({ file, status: res.status }).toEqual({ file, status: 200 });
      expect(res.body.format).toBe(syntax);
      expect(res.body.number).not.toBe('');
      expect(res.body.seller.name).not.toBe('');
      expect(res.body.lines.length).toBeGreaterThan(0);
      expect(typeof res.body.payable).toBe('number');
    }
  });

  it('reads a Factur-X PDF, and stores nothing', async () => {
    const count = async () => (await k.db.query<{ n: string }>('select count(*) as n from billing_documents'))[0]!.n;
    const n = await count();
    const inv = await call('POST', '/invoices', {
      items: [{ name: 'Consulting', quantity: 2, price: 100, tax_rate: 7 }],
      customer_name: 'Käufer AG',
      customer_country: 'DE',
      status: 'available',
    });
    const fx = await call('GET', `/invoices/${inv.body.id}/facturx`);
    const before = await count();
    expect(Number(before)).toBe(Number(n) + 1);
    const res = await call('POST', '/einvoices/read', fx.bytes, 'application/pdf');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: 'facturx', number: inv.body.number, payable: inv.body.totals.due, currency: 'EUR' });
    expect(res.body.vat_breakdown).toEqual([{ category: 'S', rate: 7, taxable_amount: 200, tax: 14, exemption_reason: '' }]);
    expect(await count()).toBe(before);
  });

  it('refuses what is not an e-invoice with 400 billing_einvoice_unreadable, and a body over 20 MiB with 413', async () => {
    for (const [body, type] of [
      ['not xml at all', 'application/xml'],
      ['<html><body>hi</body></html>', 'text/xml'],
      ['<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><unclosed></Invoice>', 'application/xml'],
      ['%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF', 'application/pdf'],
    ] as const) {
      const res = await call('POST', '/einvoices/read', body, type);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('billing_einvoice_unreadable');
    }
    const empty = await call('POST', '/einvoices/read', { hello: 'json' });
    expect(empty.body.code).toBe('billing_einvoice_unreadable');
    const big = await call('POST', '/einvoices/read', Buffer.alloc(READ_BODY_LIMIT + 1, 32), 'application/xml');
    expect(big.status).toBe(413);
  });

  it('refuses hostile XML without expanding or fetching anything', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&lol9;</ID></Invoice>`;
    const started = Date.now();
    const a = await call('POST', '/einvoices/read', laughs, 'application/xml');
    expect(a.status).toBe(400);
    expect(a.body.code).toBe('billing_einvoice_unreadable');
    expect(Date.now() - started).toBeLessThan(5000); // a reader worker's start included

    // an external entity naming a local file: refused, and the file's content appears nowhere
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-CONTENT');
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY s SYSTEM "file://${secret}">]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">&s;</cbc:ID></Invoice>`;
    const b = await call('POST', '/einvoices/read', xxe, 'application/xml');
    expect(b.status).toBe(400);
    expect(b.bytes.toString()).not.toContain('TOP-SECRET');
    // the same entity without a DTD is merely undefined: an error, never a read
    const bare = await call('POST', '/einvoices/read', xxe.replace(/<!DOCTYPE[^\]]*\]>/, ''), 'application/xml');
    expect(bare.status).toBe(400);
    expect(bare.bytes.toString()).not.toContain('TOP-SECRET');

    const deep = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</Invoice>`;
    const c = await call('POST', '/einvoices/read', deep, 'application/xml');
    expect(c.status).toBe(400);
    expect(c.body.message).toContain('deep');
  });

  it('needs bill_view_invoices', async () => {
    const sub = await svc.makeUser('sub', 'subscriber');
    const res = await svc.rest(sub).post('/einvoices/read', { raw: '<x/>', type: 'application/xml' });
    expect(res.status).toBe(403);
  });
});
