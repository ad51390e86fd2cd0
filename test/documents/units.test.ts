// Units on document lines (docs/documents.md, Units): a UN/ECE Recommendation 20 code, validated (an
// unknown code is 400 and nothing is written), kept in the representation and through duplication,
// printed with its name after the quantity on the PDF, the public page and the e-mail, and written as the line's
// unit code in UBL and CII (C62 where a line names none), which still pass the official EN 16931 rules.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { unitName } from '../../core/units/units.ts';
import { readEinvoice } from '../../plugins/e-invoicing/reader.ts';
import { SELLER_OPTIONS } from '../helpers/einvoice-documents.ts';
import { ciiSchemaErrors, en16931Fatal, warmEn16931 } from '../helpers/en16931.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const svc = useService({ plugins: ['e-invoicing'], options: { ...SELLER_OPTIONS, currency: 'EUR' }, mail: true });
let k: Kernel;
let admin: TestUser;
let clientId: number;

const LINES = [
  { name: 'Design hour', description: 'Interface design', quantity: 12.5, price: '95.00', unit: 'HUR' },
  { name: 'Hosting', quantity: 3, price: '20.00', unit: 'MON' },
  { name: 'Licence', quantity: 1, price: '300.00' },
];

async function rest(method: string, path: string, body?: unknown) {
  return svc.rest(admin).request(method, path, body);
}

const documents = async () => Number((await k.db.query<{ n: string }>('select count(*) as n from billing_documents'))[0]!.n);

beforeAll(async () => {
  warmEn16931();
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  const client = await k.identity.users.create(
    {
      login: 'kaeufer',
      display_name: 'Käufer AG',
      email: 'ap@kaeufer.example',
      country: 'DE',
      vat: 'DE987654321',
      address: 'Marktplatz 2\n80331 München',
      role: 'billing_client',
    },
    CLI,
  );
  clientId = client.id;
}, 300_000); // a first compile of the official rules takes seconds each

describe('units on document lines', () => {
  it('keeps a line’s unit, and null where it names none; a quote and a duplicate keep it too', async () => {
    const created = await rest('POST', '/invoices', { client_id: clientId, items: LINES });
    expect(created.status).toBe(201);
    expect(created.body.items.map((i: { unit: string | null }) => i.unit)).toEqual(['HUR', 'MON', null]);
    const quote = await rest('POST', '/quotes', { client_id: clientId, items: LINES });
    expect(quote.body.items.map((i: { unit: string | null }) => i.unit)).toEqual(['HUR', 'MON', null]);
    const copy = await k.api.invoices.duplicate(created.body.id, { actor: CLI, source: 'api' });
    expect(copy.items.map((i) => i.unit ?? null)).toEqual(['HUR', 'MON', null]);
  });

  it('refuses a code outside Recommendation 20 with 400, naming the line, and writes nothing', async () => {
    const before = await documents();
    for (const unit of ['HOURS', 'hur', 'QQQ', '']) {
      const r = await rest('POST', '/invoices', { client_id: clientId, items: [LINES[0], { ...LINES[1], unit }] });
      expect([unit, r.status, r.body.code]).toEqual([unit, 400, 'rest_invalid_param']);
      expect(JSON.stringify(r.body.data.params)).toContain('unit');
    }
    const quote = await rest('POST', '/quotes', { client_id: clientId, items: [{ ...LINES[0], unit: 'STUNDE' }] });
    expect([quote.status, quote.body.code]).toEqual([400, 'rest_invalid_param']);
    expect(await documents()).toBe(before);
  });

  it('prints the unit’s name after the quantity on the PDF, the public page and the e-mail', async () => {
    const created = await rest('POST', '/invoices', { client_id: clientId, items: LINES, status: 'available' });
    const id = created.body.id;
    const pdf = await rest('GET', `/invoices/${id}/pdf`);
    expect(pdf.status).toBe(200);
    const text = (await pdfText(pdf.bytes)).text;
    expect(unitName('HUR')).toBe('hr');
    expect(text).toContain(`12.5 ${unitName('HUR')}`);
    expect(text).toContain(`3 ${unitName('MON')}`);

    const key = await k.api.invoices.accessKey(id);
    const page = await (await fetch(`${k.url}/billing/invoice/${id}?key=${encodeURIComponent(key)}`)).text();
    const cells = [...page.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells).toContain(`12.5 ${unitName('HUR')}`);
    expect(cells).toContain(`3 ${unitName('MON')}`);
    expect(cells).toContain('1');

    await k.api.mail.sendInvoice(id, CLI);
    const mail = await svc.mail.waitFor((m) => m.parsed.subject?.includes(created.body.number) ?? false);
    expect(mail.parsed.text).toContain(`Design hour: 12.5 ${unitName('HUR')} x`);
    expect(mail.parsed.text).toContain('Licence: 1 x');
    expect(String(mail.parsed.html)).toContain(`12.5 ${unitName('HUR')}</td>`);
  });

  it('writes the unit as the line’s unitCode in UBL and CII (C62 for none), which pass the official rules', async () => {
    const created = await rest('POST', '/invoices', { client_id: clientId, items: LINES, status: 'available' });
    const id = created.body.id;
    const ubl = (await rest('GET', `/invoices/${id}/ubl`)).bytes.toString();
    const xrechnung = (await rest('GET', `/invoices/${id}/xrechnung`)).bytes.toString();
    const cii = (await rest('GET', `/invoices/${id}/cii`)).bytes.toString();
    expect(ubl).toContain('<cbc:InvoicedQuantity unitCode="HUR">12.5</cbc:InvoicedQuantity>');
    expect(ubl).toContain('<cbc:InvoicedQuantity unitCode="MON">3</cbc:InvoicedQuantity>');
    expect(ubl).toContain('<cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity>');
    expect(cii).toContain('<ram:BilledQuantity unitCode="HUR">12.5</ram:BilledQuantity>');
    expect(cii).toContain('<ram:BilledQuantity unitCode="C62">1</ram:BilledQuantity>');
    for (const xml of [ubl, cii]) expect((await readEinvoice(Buffer.from(xml))).lines.map((l) => l.unit)).toEqual(['HUR', 'MON', 'C62']);
    expect(en16931Fatal(ubl, 'ubl')).toEqual([]);
    expect(en16931Fatal(xrechnung, 'ubl')).toEqual([]);
    expect(en16931Fatal(cii, 'cii')).toEqual([]);
    expect(await ciiSchemaErrors(cii)).toBe('');
  });
});
