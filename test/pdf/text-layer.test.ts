// What a reader copies or searches in a PDF is its text layer, written from the characters each glyph
// was made for. Latin capitals share glyphs with Greek and Cyrillic ones (Z and Ζ, A and А), and the
// render workers share the fonts' decoded tables between documents (core/pdf/pdfmake-engine.ts): a
// document rendered after one in Greek and Russian — as every worker's warm-up document is — must still
// read "Zwischensumme", not "Ζwischensumme". Through the service, where the workers render.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { useService, type TestUser } from '../../testing/index.ts';
import { pdfText } from './pdf-text.ts';

const svc = useService({ options: { company_name: 'Zeta Zoo GmbH', currency: 'EUR' } });
let admin: TestUser;

beforeAll(async () => {
  admin = await svc.makeUser('owner', 'administrator');
});

async function pdfOf(fields: Record<string, unknown>): Promise<string> {
  const made = await svc.rest(admin).post('/invoices', { customer_email: 'c@example.com', status: 'available', ...fields });
  expect(made.status).toBe(201);
  const pdf = await svc.rest(admin).get(`/invoices/${made.body.id}/pdf`);
  return (await pdfText(new Uint8Array(pdf.bytes))).text;
}

describe('the text layer of a PDF', () => {
  it('reads Latin, Greek and Cyrillic letters as written, whichever document a worker rendered before', async () => {
    const greek = await pdfOf({ customer_name: 'Ζωή Αθηνά', items: [{ name: 'Сумма КОПИЯ', quantity: 1, price: '10' }] });
    expect(greek).toContain('Ζωή Αθηνά');
    expect(greek).toContain('Сумма КОПИЯ');
    const german = await pdfOf({ customer_name: 'Zora Zander', locale: 'de', items: [{ name: 'Zubehör', quantity: 1, price: '10' }] });
    for (const words of ['Zwischensumme', 'Zeta Zoo GmbH', 'Zora Zander', 'RECHNUNG', 'Zubehör']) expect(german).toContain(words);
  });
});
