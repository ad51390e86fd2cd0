// The bank-transfer plugin end to end: the payment reference in the representation, the PDF and the page;
// the EPC and Swiss QR codes decoded back from the page's SVG (rendered by resvg, read by jsQR); bank
// statements in CAMT.053 and MT940 recording exactly the expected payments, once, even from two instances
// at the same time; hostile XML refused.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Resvg } from '@resvg/resvg-js';
import jsQRModule from 'jsqr';
import { SwissQRBill } from 'swissqrbill/svg';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import type { BillingDocument } from '../../core/documents/document.ts';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';
import { bootKernel, useService, waitFor, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { invoiceRfReference, qrReference } from '../../plugins/bank-transfer/references.ts';
import { swissData, type BankSettings } from '../../plugins/bank-transfer/payment-codes.ts';
import { Money } from '../../core/money/index.ts';
import { ACCOUNT, camt053, mt940, type TestEntry } from './statement-files.ts';

// each test renders PDFs and pages and rasterises their QR codes: on a busy two-core machine more than
// the default minute
jest.setTimeout(180_000);

// jsQR is CommonJS with a default export
const jsQR = ((jsQRModule as any).default ?? jsQRModule) as unknown as typeof jsQRModule.default;

const svc = useService();
let k: Kernel;
let admin: TestUser;

async function invoice(
  total: string,
  currency = 'EUR',
  status: 'available' | 'draft' = 'available',
  locale = 'en',
): Promise<BillingDocument> {
  return k.api.invoices.create(
    {
      items: [{ name: 'Consulting', quantity: 1, price: total }],
      customer_name: 'Payer GmbH',
      customer_email: 'payer@example.com',
      currency,
      status,
      locale,
    } as never,
    { actor: CLI, source: 'api' },
  );
}

async function publicPage(id: number): Promise<string> {
  const key = await k.api.invoices.accessKey(id);
  const res = await fetch(`${k.url}/billing/invoice/${id}?key=${encodeURIComponent(key)}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** An SVG rendered to pixels and its QR code read back (null when none is found). */
function decodeSvg(svg: string, width = 1200): string | null {
  const img = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white' }).render();
  // on a white margin: a QR-bill's code is drawn without the quiet zone around it (the part's layout gives it)
  const m = 100;
  const [w, h] = [img.width + 2 * m, img.height + 2 * m];
  const pixels = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < img.height; y++) pixels.set(img.pixels.subarray(y * img.width * 4, (y + 1) * img.width * 4), ((y + m) * w + m) * 4);
  return jsQR(pixels, w, h)?.data ?? null;
}

/** The final pdfmake definition of an invoice's PDF, as rendered (after every plugin's filter). */
async function pdfDefinition(doc: BillingDocument): Promise<unknown> {
  let seen: unknown = null;
  await k.api.pdfs.render(doc, {
    adjust: (d) => {
      seen = d;
      return d;
    },
  });
  return seen;
}

/** Every `text` of a pdfmake definition, joined: the words the PDF prints, the same for the page's block. */
function textsIn(node: unknown): string {
  if (Array.isArray(node)) return node.map(textsIn).join(' ');
  if (!node || typeof node !== 'object') return '';
  const own = typeof (node as { text?: unknown }).text === 'string' ? [(node as { text: string }).text] : [];
  return [...own, ...Object.values(node).map(textsIn)].join(' ');
}

/** Every `svg` node of a pdfmake definition. */
function svgsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(svgsIn);
  if (!node || typeof node !== 'object') return [];
  const own = typeof (node as { svg?: unknown }).svg === 'string' ? [(node as { svg: string }).svg] : [];
  return [...own, ...Object.values(node).flatMap(svgsIn)];
}

/** The QR code inside the page's payment figure, rendered to pixels and read back. */
function decodeQr(page: string): string | null {
  const svg = /<figure class="payment-code"[^>]*>(<svg[\s\S]*<\/svg>)\s*<figcaption>/.exec(page)?.[1];
  if (!svg) return null;
  const img = new Resvg(svg, { fitTo: { mode: 'width', value: 1200 }, background: 'white' }).render();
  const code = jsQR(new Uint8ClampedArray(img.pixels), img.width, img.height);
  return code?.data ?? null;
}

const post = (body: string, type = 'application/xml', who: TestUser = admin) => svc.rest(who).post('/bank-statements', { raw: body, type });
const paymentsOf = (id: number) =>
  k.db.query<{ amount: string; status: string; method: string; transaction_id: string; date: Date }>(
    `select amount::text, status, method, transaction_id, date from billing_payments where invoice_id = $1 order by id`,
    [id],
  );
const paymentCount = async () => Number((await k.db.query<{ n: string }>('select count(*) as n from billing_payments'))[0]!.n);

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('banker', 'administrator');
  await k.plugins.activate('bank-transfer', CLI);
  await waitFor(() => k.plugins.isLoaded('bank-transfer'), { what: 'bank-transfer to load' });
  await k.options.set('company_name', 'Muster Consulting', CLI);
  await k.options.set('bank_iban', 'DE89 3704 0044 0532 0130 00', CLI);
  await k.options.set('bank_bic', 'COBADEFFXXX', CLI);
}, 120_000);

afterAll(() => closeBoundedWorkers());

describe('settings', () => {
  it('refuses an IBAN whose check digits fail, and a malformed BIC', async () => {
    await expect(k.options.set('bank_iban', 'DE89 3704 0044 0532 0130 01', CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    await expect(k.options.set('bank_bic', 'NOT A BIC', CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    expect(await k.options.get('bank_iban')).toBe('DE89 3704 0044 0532 0130 00');
  });
});

describe('payment reference and EPC QR code', () => {
  it('gives the RF reference in the representation, prints it on the PDF and page, and the GiroCode decodes to the EPC fields', async () => {
    const inv = await invoice('1234.50');
    const rf = invoiceRfReference(inv.number)!;
    const rep = await svc.rest(admin).get(`/invoices/${inv.id}`);
    expect(rep.status).toBe(200);
    expect(rep.body).toMatchObject({ payment_reference: rf });

    // described in the OpenAPI document while the plugin is active
    const doc = (await svc.rest(admin).get('/openapi.json')).body as { components: { schemas: Record<string, { properties: object }> } };
    expect(doc.components.schemas.invoice!.properties).toHaveProperty('payment_reference.type', ['string', 'null']);

    const pdf = await svc.rest(admin).get(`/invoices/${inv.id}/pdf`);
    expect(pdf.status).toBe(200);
    const { text } = await pdfText(pdf.bytes);
    expect(text).toContain('Payment reference');
    expect(text.replace(/\s+/g, '')).toContain(rf);

    // the code drawn on the PDF is the same: the SVG in the definition pdfmake renders, read back
    const expected = ['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Muster Consulting', ACCOUNT, 'EUR1234.50', '', rf, ''].join('\n');
    expect(svgsIn(await pdfDefinition(inv)).map((svg) => decodeSvg(svg))).toEqual([expected]);

    const page = await publicPage(inv.id);
    expect(page).toContain('Payment reference');
    expect(decodeQr(page)).toBe(
      ['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Muster Consulting', ACCOUNT, 'EUR1234.50', '', rf, ''].join('\n'),
    );
  });

  it('carries the amount due after a partial payment, and no code once paid', async () => {
    const inv = await invoice('100.00');
    await k.api.payments.record(inv.id, { amount: '40', method: 'cash', status: 'completed' }, CLI);
    expect(decodeQr(await publicPage(inv.id))?.split('\n')[7]).toBe('EUR60.00');
    await k.api.payments.record(inv.id, { amount: '60', method: 'cash', status: 'completed' }, CLI);
    const page = await publicPage(inv.id);
    expect(page).not.toContain('payment-code');
    expect(decodeQr(page)).toBeNull();
  });
});

describe('Swiss QR-bill', () => {
  it('draws the payment part for a franc invoice to a Swiss QR-IBAN, decoding to the Swiss Payments Code', async () => {
    const settings: Partial<BankSettings> = {
      bank_iban: 'CH44 3199 9123 0008 8901 2',
      company_street: 'Musterstrasse 7',
      company_postcode: '8000',
      company_city: 'Zürich',
      business_country: 'CH',
    };
    for (const [key, value] of Object.entries(settings)) await k.options.set(key as never, value as never, CLI);
    try {
      const inv = await invoice('250.00', 'CHF');
      const rep = await svc.rest(admin).get(`/invoices/${inv.id}`);
      expect(rep.body).toMatchObject({ payment_reference: qrReference(inv.id) });
      const spc = decodeQr(await publicPage(inv.id))!.split(/\r?\n/);
      expect(spc.slice(0, 4)).toEqual(['SPC', '0200', '1', 'CH4431999123000889012']);
      expect(spc).toContain('250.00');
      expect(spc).toContain('CHF');
      expect(spc[spc.indexOf('QRR') + 1]).toBe(qrReference(inv.id));
      expect(spc).toContain('EPD');
      // the PDF's QR-bill carries the same Swiss Payments Code (its code alone, at a size where the
      // anti-aliased seams between its square modules do not confuse the reader)
      expect(svgsIn(await pdfDefinition(inv)).map((svg) => decodeSvg(svg, 300)?.split(/\r?\n/))).toEqual([spc]);
      // the PDF carries the payment part too
      const pdf = await svc.rest(admin).get(`/invoices/${inv.id}/pdf`);
      expect(pdf.status).toBe(200);
      const { text, pages } = await pdfText(pdf.bytes);
      expect(pages).toBe(2);
      for (const part of [
        'Receipt',
        'Payment part',
        'Account / Payable to',
        'CH44 3199 9123 0008 8901 2',
        '250.00',
        '00 00000 00000 00000 00000 ',
      ]) {
        expect(text).toContain(part);
      }
      // the library's own validation accepts the data (it throws on anything invalid)
      const all = {
        ...(await k.options.getMany(['bank_account_holder', 'bank_bic', 'bank_qr', 'company_name'] as never)),
        ...settings,
      } as BankSettings;
      expect(() => new SwissQRBill(swissData(inv, all, Money.parse('250', 'CHF')))).not.toThrow();
    } finally {
      await k.options.set('bank_iban', 'DE89 3704 0044 0532 0130 00', CLI);
    }
  });
});

describe('in the invoice’s language', () => {
  it('labels the block of a German euro invoice in German on the PDF and page', async () => {
    const inv = await invoice('80.00', 'EUR', 'available', 'de');
    const { text } = await pdfText((await svc.rest(admin).get(`/invoices/${inv.id}/pdf`)).bytes);
    expect(text).toContain(`Zahlungsreferenz ${invoiceRfReference(inv.number)!.replace(/(.{4})(?=.)/g, '$1 ')}`);
    const page = await publicPage(inv.id);
    for (const shown of [textsIn(await pdfDefinition(inv)), page]) {
      expect(shown).toContain('Zahlungsreferenz');
      expect(shown).toContain('Kontoinhaber');
      expect(shown).toContain('Mit Ihrer Banking-App scannen und bezahlen');
      expect(shown).not.toContain('Payment reference');
    }
    expect(text).toContain('ZAHLUNG PER ÜBERWEISUNG');
    expect(text).toContain('Mit Ihrer Banking-App scannen und bezahlen');
    expect(page).toContain('<h3>Zahlung per Überweisung</h3>');
  });

  it('prints the QR-bill of a French franc invoice in its official French wording, on the PDF and in the page’s SVG', async () => {
    const settings: Partial<BankSettings> = {
      bank_iban: 'CH44 3199 9123 0008 8901 2',
      company_street: 'Rue du Rhône 1',
      company_postcode: '1204',
      company_city: 'Genève',
      business_country: 'CH',
    };
    for (const [key, value] of Object.entries(settings)) await k.options.set(key as never, value as never, CLI);
    try {
      const inv = await invoice('120.00', 'CHF', 'available', 'fr');
      const { text } = await pdfText((await svc.rest(admin).get(`/invoices/${inv.id}/pdf`)).bytes);
      expect(text).toContain('Section paiement');
      const printed = textsIn(await pdfDefinition(inv));
      const page = await publicPage(inv.id);
      for (const part of ['Récépissé', 'Section paiement', 'Compte / Payable à', 'Référence', 'Monnaie', 'Montant', 'Point de dépôt']) {
        expect([part, printed.includes(part)]).toEqual([part, true]);
      }
      expect(printed).not.toContain('Payment part');
      // the library's own SVG on the page, drawn in French
      const svg = /<figure class="payment-code"[^>]*>(<svg[\s\S]*<\/svg>)/.exec(page)![1]!;
      expect(svg).toContain('Section paiement');
      expect(svg).not.toContain('Payment part');
      expect(page).toContain('Référence de paiement');
      expect(page).toContain('<figcaption>Section paiement de la QR-facture</figcaption>');
      // a Spanish one keeps the QR-bill's wording in English, as the guidelines ask, and the rest in Spanish
      const es = await invoice('120.00', 'CHF', 'available', 'es');
      const esText = textsIn(await pdfDefinition(es));
      expect(esText).toContain('Payment part');
      expect(esText).toContain('Referencia de pago');
    } finally {
      await k.options.set('bank_iban', 'DE89 3704 0044 0532 0130 00', CLI);
    }
  });
});

describe('Swiss QR-bill with an ordinary Swiss IBAN', () => {
  it('carries the RF reference as a creditor reference (SCOR)', async () => {
    const settings: Partial<BankSettings> = {
      bank_iban: 'CH93 0076 2011 6238 5295 7',
      company_street: 'Bahnhofstrasse 1',
      company_postcode: '3000',
      company_city: 'Bern',
      business_country: 'CH',
    };
    for (const [key, value] of Object.entries(settings)) await k.options.set(key as never, value as never, CLI);
    try {
      const inv = await invoice('99.95', 'CHF');
      const rf = invoiceRfReference(inv.number)!;
      expect((await svc.rest(admin).get(`/invoices/${inv.id}`)).body).toMatchObject({ payment_reference: rf });
      const spc = decodeQr(await publicPage(inv.id))!.split(/\r?\n/);
      expect(spc[3]).toBe('CH9300762011623852957');
      expect(spc).toContain('99.95');
      expect(spc[spc.indexOf('SCOR') + 1]).toBe(rf);
      // a euro invoice on the same account still gets a GiroCode
      const eur = await invoice('10.00');
      expect(
        decodeQr(await publicPage(eur.id))!
          .split('\n')
          .slice(0, 8),
      ).toEqual(['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Muster Consulting', 'CH9300762011623852957', 'EUR10.00']);
    } finally {
      await k.options.set('bank_iban', 'DE89 3704 0044 0532 0130 00', CLI);
    }
  });
});

describe('bank statements', () => {
  it('reads CAMT.053 of versions .02 to .08 and MT940', async () => {
    const entries: TestEntry[] = [
      { amount: '10.00', ref: 'R-1', debtor: 'Anna', ustrd: ['nothing of ours'] },
      { amount: '5.00', credit: false, ref: 'R-2', debtor: 'Shop' },
    ];
    for (const v of [2, 3, 4, 5, 6, 7, 8]) {
      const res = await post(camt053(entries, v, `V${v}`));
      expect([v, res.status, res.body]).toEqual([v, 201, expect.anything()]);
      expect(res.body).toMatchObject({ format: 'camt.053', account: ACCOUNT, entries: 1 });
    }
    const res = await post(mt940([{ amount: '12.34', ref: 'M-1', debtor: 'Bert', ustrd: ['hello'] }]), 'application/octet-stream');
    expect([res.status, res.body.message]).toEqual([201, undefined]);
    expect(res.body).toMatchObject({ format: 'mt940', account: ACCOUNT, entries: 1, matched: 0, unmatched: 1 });
    const list = await svc.rest(admin).get(`/bank-statements/${(res.body as { id: number }).id}/entries`);
    expect(list.body).toEqual([
      expect.objectContaining({
        n: 1,
        date: '2026-11-20',
        amount: 12.34,
        currency: 'EUR',
        counterparty: 'Bert',
        remittance: 'hello',
        bank_reference: 'M-1',
        status: 'unmatched',
      }),
    ]);
  });

  it('records exactly the expected payments, once, and duplicates nothing on re-import or overlap', async () => {
    const full = await invoice('100.00');
    const part = await invoice('200.00');
    const over = await invoice('50.00');
    const usd = await invoice('70.00');
    const longer = await invoice('30.00');
    const twoA = await invoice('11.00');
    const twoB = await invoice('11.00');
    const rf = (d: BillingDocument) => invoiceRfReference(d.number)!;
    const entries: TestEntry[] = [
      { amount: '100.00', ref: 'B-1', debtor: 'Full Payer', creditorRef: rf(full) },
      { amount: '80.00', ref: 'B-2', debtor: 'Part Payer', ustrd: [`Invoice ${part.number}, thanks`] },
      { amount: '65.00', endToEnd: 'E2E-3', debtor: 'Over Payer', ustrd: [`Ref ${rf(over).replace(/(.{4})(?=.)/g, '$1 ')}`] },
      { amount: '70.00', currency: 'USD', ref: 'B-4', ustrd: [usd.number] },
      { amount: '30.00', ref: 'B-5', ustrd: [`${longer.number}7`] },
      { amount: '11.00', ref: 'B-6', ustrd: [`${twoA.number} and ${twoB.number}`] },
      { amount: '999.00', credit: false, ref: 'B-7', debtor: 'Landlord', ustrd: [full.number] },
    ];
    const before = await paymentCount();
    const res = await post(camt053(entries, 8, 'S-1'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ entries: 6, matched: 3, unmatched: 3 });
    const id = (res.body as { id: number }).id;
    const listed = (await svc.rest(admin).get(`/bank-statements/${id}/entries`)).body as Array<{
      status: string;
      invoice_id: number | null;
    }>;
    expect(listed.map((e) => e.status)).toEqual(['matched', 'matched', 'matched', 'unmatched', 'unmatched', 'ambiguous', 'debit']);
    expect(await paymentCount()).toBe(before + 3);

    expect(await paymentsOf(full.id)).toEqual([
      expect.objectContaining({ amount: '100.00', status: 'completed', method: 'bank_transfer', transaction_id: 'B-1' }),
    ]);
    expect(new Date((await paymentsOf(full.id))[0]!.date).toISOString().slice(0, 10)).toBe('2026-11-20');
    expect((await k.api.invoices.get(full.id)).status).toBe('paid');
    expect((await k.api.invoices.get(part.id)).status).toBe('partial');
    // more than due: recorded, held for review as a gateway's overpayment is, and flagged in the audit log
    expect(await paymentsOf(over.id)).toEqual([expect.objectContaining({ amount: '65.00', transaction_id: 'E2E-3' })]);
    const flagged = await k.db.query(
      `select 1 from billing_audit_log where action = 'payment.review' and details->>'reason' like 'overpaid%'`,
    );
    expect(flagged.length).toBeGreaterThan(0);
    expect(await paymentsOf(usd.id)).toEqual([]);
    expect(await paymentsOf(longer.id)).toEqual([]);

    // the same file again, and an overlapping one: nothing new but the new entry
    const again = await post(camt053(entries, 8, 'S-1'));
    expect(again.body).toMatchObject({ entries: 6, matched: 0, unmatched: 0 });
    const overlapping = await post(camt053([entries[0]!, { amount: '20.00', ref: 'B-8', creditorRef: rf(part) }], 8, 'S-2'));
    expect(overlapping.body).toMatchObject({ entries: 2, matched: 1 });
    expect(await paymentCount()).toBe(before + 4);

    // a person assigns the ambiguous entry; assigning it again changes nothing
    const assigned = await svc.rest(admin).post(`/bank-statements/${id}/entries/6/assign`, { invoice_id: twoB.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ status: 'matched', invoice_id: twoB.id });
    const twice = await svc.rest(admin).post(`/bank-statements/${id}/entries/6/assign`, { invoice_id: twoA.id });
    expect(twice.status).toBe(409);
    expect((await k.api.invoices.get(twoB.id)).status).toBe('paid');
    expect(await paymentCount()).toBe(before + 5);
  });

  it('records each entry once when two instances import the same file at once', async () => {
    const a = await invoice('10.00');
    const b = await invoice('20.00');
    const file = camt053(
      [
        { amount: '10.00', ref: 'C-1', creditorRef: invoiceRfReference(a.number)! },
        { amount: '20.00', ref: 'C-2', ustrd: [b.number] },
      ],
      5,
      'S-C',
    );
    const other = await bootKernel(svc.databaseUrl);
    try {
      await waitFor(() => other.plugins.isLoaded('bank-transfer'), { what: 'bank-transfer on the second instance' });
      const send = (url: string) =>
        fetch(`${url}/wp-json/billing/v1/bank-statements`, {
          method: 'POST',
          headers: { authorization: admin.authorization, 'content-type': 'application/xml' },
          body: file,
        });
      const answers = await Promise.all([send(k.url), send(other.url), send(k.url)]);
      expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as Array<{ matched: number }>;
      expect(bodies.reduce((n, x) => n + x.matched, 0)).toBe(2);
      expect(await paymentsOf(a.id)).toHaveLength(1);
      expect(await paymentsOf(b.id)).toHaveLength(1);
    } finally {
      await other.stop();
    }
  }, 60_000);

  it('refuses hostile and foreign files with 400, storing nothing', async () => {
    const count = async () => Number((await k.db.query<{ n: string }>('select count(*) as n from bank_transfer_statements'))[0]!.n);
    const before = await count();
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">&lol2;</Document>`;
    const external = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">&x;</Document>`;
    const deep = `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</Document>`;
    for (const body of [
      laughs,
      external,
      deep,
      '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
      'not a statement',
    ]) {
      const res = await post(body, body.startsWith('<') ? 'application/xml' : 'text/plain');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'billing_bank_statement_unreadable' });
    }
    // larger than the route takes: refused before it is read
    const huge = await post(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">${' '.repeat(21 * 1024 * 1024)}</Document>`);
    expect(huge.status).toBe(413);
    expect(await count()).toBe(before);
  });
});
