import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const svc = useService();
let admin: TestUser;

beforeAll(async () => {
  admin = await svc.makeUser('boss', 'administrator');
});

const rest = (method: string, path: string, body?: unknown) => svc.rest(admin).request(method, path, body);
const count = async () => (await svc.kernel.db.query<{ n: number }>('select count(*)::int as n from billing_documents'))[0]!.n;
const doc = (over: object) => ({ items: [{ name: 'Work', quantity: 1, price: 100 }], customer_name: 'Acme', status: 'available', ...over });

describe('customer VAT numbers', () => {
  it("refuses a number without the format of the customer's country: 400, nothing written", async () => {
    const before = await count();
    for (const [country, vat] of [
      ['DE', '12345'],
      ['FR', 'DE123456789'],
      ['AT', 'ATU1234'],
    ]) {
      const res = await rest('POST', '/invoices', doc({ customer_country: country, customer_vat_number: vat }));
      expect([country, vat, res.status, res.body.code]).toEqual([country, vat, 400, 'rest_invalid_param']);
      expect(res.body.data.params.customer_vat_number).toContain(`VAT number of ${country}`);
    }
    expect(await count()).toBe(before);
  });

  it('takes a number of the right format, with or without its prefix and spacing, and any number when no country is given', async () => {
    for (const [country, vat] of [
      ['DE', 'DE123456789'],
      ['DE', 'de 123 456 789'],
      ['FR', 'FR40303265045'],
      ['', 'anything-goes-1'],
    ]) {
      const res = await rest(
        'POST',
        '/invoices',
        doc(country ? { customer_country: country, customer_vat_number: vat } : { customer_vat_number: vat }),
      );
      expect([country, vat, res.status]).toEqual([country, vat, 201]);
      expect(res.body.customer.vat).toBe(vat);
    }
  });
});

// a 1×1 PNG, and one whose bytes are broken after a valid signature: both pass the option's schema
const GOOD_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const BROKEN_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVQQQQQQQQQQQQQQQQQQQQQQQQQQQQ==';

describe('a logo the PDF library cannot draw', () => {
  it('is left out of the PDF, which still renders: never a 500', async () => {
    const invoice = await rest('POST', '/invoices', doc({}));
    const image = (pdf: Buffer) => pdf.toString('latin1').includes('/Subtype /Image');

    await svc.setOption('company_logo_url', `data:image/png;base64,${GOOD_PNG}`);
    const drawn = await rest('GET', `/invoices/${invoice.body.id}/pdf`);
    expect([drawn.status, drawn.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(image(drawn.bytes)).toBe(true);

    await svc.setOption('company_logo_url', `data:image/png;base64,${BROKEN_PNG}`);
    for (let i = 0; i < 2; i++) {
      const res = await rest('GET', `/invoices/${invoice.body.id}/pdf`);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/pdf']);
      const pdf = res.bytes;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(image(pdf)).toBe(false);
    }
    // the customer's page's PDF too
    const key = await svc.kernel.api.invoices.accessKey(invoice.body.id);
    const pub = await fetch(`${svc.url}/billing/invoice/${invoice.body.id}/pdf?key=${encodeURIComponent(key)}`);
    expect([pub.status, pub.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    await svc.kernel.options.delete('company_logo_url', CLI);
  });
});
