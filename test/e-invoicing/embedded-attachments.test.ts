// An invoice's attached files in its e-invoices (docs/e-invoicing.md, Attachments): embedded in the
// Peppol UBL and the XRechnung as additional supporting documents (BG-24) with their MIME code and name,
// passing the official EN 16931, Peppol and XRechnung rules; a type those rules do not allow (plain
// text) left out; and carried by the Factur-X PDF beside its CII, which still reads.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { CLI } from '../../core/audit/audit.ts';
import { readEinvoice } from '../../plugins/e-invoicing/reader.ts';
import { SELLER_OPTIONS as SELLER } from '../helpers/einvoice-documents.ts';
import { peppolFatal, warmEn16931, xrechnungFatal } from '../helpers/en16931.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService();
let admin: TestUser;
let invoiceId: number;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\0\0\0\rIHDR an image')]);

function upload(bytes: Buffer | string, filename: string, type: string) {
  return svc
    .rest(admin)
    .post(`/invoices/${invoiceId}/attachments`, { raw: bytes, type }, { 'content-disposition': `attachment; filename="${filename}"` });
}

beforeAll(async () => {
  warmEn16931(['ubl', 'peppol', 'xrechnung']);
  const k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  await k.plugins.activate('e-invoicing', CLI);
  await waitFor(() => k.plugins.isLoaded('e-invoicing'), { what: 'e-invoicing to load' });
  for (const [key, value] of Object.entries({ ...SELLER, currency: 'EUR' })) await k.options.set(key as never, value as never, CLI);
  const buyer = await k.identity.users.create(
    {
      login: 'kaeufer',
      display_name: 'Käufer AG',
      country: 'DE',
      vat: 'DE987654321',
      address: 'Marktplatz 2\n80331 München',
      email: 'kaeufer@example.com',
      role: 'billing_client',
    } as never,
    CLI,
  );
  const created = await svc.rest(admin).post('/invoices', {
    client_id: buyer.id,
    items: [{ name: 'Design hour', quantity: 3, price: 80, unit: 'HUR' }],
    status: 'available',
  });
  expect(created.status).toBe(201);
  invoiceId = created.body.id;
  // an issued invoice takes attachments (it only keeps them)
  expect((await upload(PDF, 'Signed contract.pdf', 'application/pdf')).status).toBe(201);
  expect((await upload(PNG, 'site photo.png', 'image/png')).status).toBe(201);
  expect((await upload('Notes for the file\n', 'notes.txt', 'text/plain')).status).toBe(201);
}, 300_000);

/** The embedded objects of a UBL document: MIME code, file name, bytes. */
function embedded(xml: string): Array<[string, string, Buffer]> {
  return [...xml.matchAll(/<cbc:EmbeddedDocumentBinaryObject mimeCode="([^"]+)" filename="([^"]+)">([^<]*)</g)].map((m) => [
    m[1]!,
    m[2]!,
    Buffer.from(m[3]!, 'base64'),
  ]);
}

describe('UBL and XRechnung', () => {
  it.each(['ubl', 'xrechnung'])('%s embeds the PDF and the PNG, not the text file, and passes the official rules', async (format) => {
    const res = await svc.rest(admin).get(`/invoices/${invoiceId}/${format}`);
    expect(res.status).toBe(200);
    const xml = res.bytes.toString();
    expect(embedded(xml)).toEqual([
      ['application/pdf', 'Signed contract.pdf', PDF],
      ['image/png', 'site photo.png', PNG],
    ]);
    expect(xml).toContain('<cac:AdditionalDocumentReference><cbc:ID>ATT-1</cbc:ID>');
    expect(xml).not.toContain('notes.txt');
    expect(format === 'ubl' ? peppolFatal(xml) : xrechnungFatal(xml)).toEqual([]);
    // still read as the same invoice: 3 × 80 with 19 % VAT
    expect((await readEinvoice(res.bytes)).totals.payable).toBe(285.6);
  });
});

describe('Factur-X', () => {
  it('carries the files beside factur-x.xml, which still reads', async () => {
    const res = await svc.rest(admin).get(`/invoices/${invoiceId}/facturx`);
    expect(res.status).toBe(200);
    const pdf = await PDFDocument.load(res.bytes);
    const names = pdf.catalog
      .lookup(PDFName.of('Names'), PDFDict)
      .lookup(PDFName.of('EmbeddedFiles'), PDFDict)
      .lookup(PDFName.of('Names'), PDFArray);
    const files: string[] = [];
    for (let i = 0; i < names.size(); i += 2) files.push((names.lookup(i) as PDFString | PDFHexString).decodeText());
    expect(files.sort()).toEqual(['Signed contract.pdf', 'factur-x.xml', 'notes.txt', 'site photo.png']);
    expect((await readEinvoice(res.bytes)).totals.payable).toBe(285.6);
  });
});
