// Attachments over real HTTP on a real database (docs/documents.md, Attachments): recognised by their
// bytes whatever the name and content type say, refused when they could run or render, bounded at
// 10 MiB with nothing stored past it, served as downloads only, kept on issued invoices, and hidden with
// their document from a user whose scope does not reach it.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const svc = useService({ mail: true });
let admin: TestUser;
const ITEM = { name: 'Design hour', quantity: 2, price: 80 };

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\0\0\0\rIHDR rest of an image')]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

beforeAll(async () => {
  admin = await svc.makeUser('attacher', 'administrator');
});

async function draft(user: TestUser = admin, route = '/invoices'): Promise<number> {
  const res = await svc.rest(user).post(route, { items: [ITEM], customer_name: 'Customer', customer_email: 'customer@example.com' });
  expect(res.status).toBe(201);
  return res.body.id;
}

function upload(user: TestUser, path: string, bytes: Buffer | string, filename: string, type: string) {
  return svc.rest(user).post(path, { raw: bytes, type }, { 'content-disposition': `attachment; filename="${filename}"` });
}

async function stored(documentId: number): Promise<number> {
  const [r] = await svc.kernel.db.query<{ n: string }>('select count(*) as n from billing_attachments where document_id = $1', [
    documentId,
  ]);
  return Number(r!.n);
}

describe('upload, list, download, delete', () => {
  it('stores a PDF under its name, lists it and serves it as a download with its exact bytes', async () => {
    const id = await draft();
    const res = await upload(admin, `/invoices/${id}/attachments`, PDF, 'Signed contract.pdf', 'application/pdf');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ filename: 'Signed contract.pdf', content_type: 'application/pdf', size: PDF.length, document_id: id });
    expect(res.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    const list = await svc.rest(admin).get(`/invoices/${id}/attachments`);
    expect(list.status).toBe(200);
    expect(list.body.map((a: { id: number }) => a.id)).toEqual([res.body.id]);
    const file = await svc.rest(admin).get(`/attachments/${res.body.id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="Signed contract\.pdf"/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.bytes.equals(PDF)).toBe(true);
    const gone = await svc.rest(admin).delete(`/attachments/${res.body.id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.previous.id).toBe(res.body.id);
    expect(await stored(id)).toBe(0);
    expect((await svc.rest(admin).get(`/attachments/${res.body.id}`)).status).toBe(404);
  });

  it('attaches to quotes too', async () => {
    const id = await draft(admin, '/quotes');
    const res = await upload(admin, `/quotes/${id}/attachments`, 'Scope of work\n', 'scope.txt', 'text/plain');
    expect(res.status).toBe(201);
    expect(res.body.content_type).toBe('text/plain');
    expect((await svc.rest(admin).get(`/quotes/${id}/attachments`)).body).toHaveLength(1);
    // a quote's id is not an invoice's
    expect((await svc.rest(admin).get(`/invoices/${id}/attachments`)).status).toBe(404);
  });
});

describe('recognised by content, never by name or declared type', () => {
  it('stores a PNG renamed .pdf and sent as application/pdf as a PNG, with a .png name', async () => {
    const id = await draft();
    const res = await upload(admin, `/invoices/${id}/attachments`, PNG, 'scan.pdf', 'application/pdf');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ content_type: 'image/png', filename: 'scan.png' });
    const file = await svc.rest(admin).get(`/attachments/${res.body.id}`);
    expect(file.headers.get('content-type')).toBe('image/png');
  });

  it.each([
    ['an HTML page called notes.txt', '<!DOCTYPE html><html><body>hi</body></html>', 'notes.txt', 'text/plain'],
    ['an SVG called chart.png', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'chart.png', 'image/png'],
    ['a script in a CSV', 'a,b\n1,<script>alert(1)</script>\n', 'data.csv', 'text/csv'],
    ['a shell script', '#!/bin/sh\nrm -rf /\n', 'run.txt', 'text/plain'],
    [
      'a Windows program called invoice.pdf',
      Buffer.concat([Buffer.from('MZ\x90\x00\x03'), Buffer.alloc(64, 0)]),
      'invoice.pdf',
      'application/pdf',
    ],
    ['an ELF program', Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01'), Buffer.alloc(64, 0)]), 'tool', 'application/octet-stream'],
    [
      'a zip that is no workbook',
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.from('payload/run.exe')]),
      'book.xlsx',
      'application/octet-stream',
    ],
  ])('refuses %s with 415 and stores nothing', async (_what, body, name, type) => {
    const id = await draft();
    const res = await upload(admin, `/invoices/${id}/attachments`, body, name, type);
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('billing_attachment_type');
    expect(await stored(id)).toBe(0);
  });

  it('takes CSV, JPEG and XLSX by their bytes', async () => {
    const id = await draft();
    const csv = await upload(admin, `/invoices/${id}/attachments`, 'date,hours\n2031-01-02,3\n', 'hours.csv', 'application/octet-stream');
    const jpeg = await upload(admin, `/invoices/${id}/attachments`, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'photo', 'image/jpeg');
    const xlsx = await upload(
      admin,
      `/invoices/${id}/attachments`,
      Buffer.from('PK\x03\x04....[Content_Types].xml....PK\x03\x04....xl/workbook.xml....', 'latin1'),
      'budget.xlsx',
      'application/octet-stream',
    );
    expect([csv.body.content_type, jpeg.body.content_type, xlsx.body.content_type]).toEqual([
      'text/csv',
      'image/jpeg',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    expect(jpeg.body.filename).toBe('photo.jpg');
  });
});

describe('bounds', () => {
  it('refuses a file over 10 MiB with 413 and stores nothing', async () => {
    const id = await draft();
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024, 0x20)]);
    const res = await upload(admin, `/invoices/${id}/attachments`, big, 'big.pdf', 'application/pdf');
    expect(res.status).toBe(413);
    expect(await stored(id)).toBe(0);
  });

  it("refuses what would take a document's attachments past 25 MiB", async () => {
    const id = await draft();
    const nine = Buffer.concat([PDF, Buffer.alloc(9 * 1024 * 1024, 0x20)]);
    for (let i = 0; i < 2; i++)
      expect((await upload(admin, `/invoices/${id}/attachments`, nine, `part${i}.pdf`, 'application/pdf')).status).toBe(201);
    const third = await upload(admin, `/invoices/${id}/attachments`, nine, 'part2.pdf', 'application/pdf');
    expect(third.status).toBe(413);
    expect(await stored(id)).toBe(2);
  });
});

describe('an issued invoice keeps its attachments', () => {
  it('takes a new attachment but refuses to delete one', async () => {
    const id = await draft();
    const before = await upload(admin, `/invoices/${id}/attachments`, PDF, 'contract.pdf', 'application/pdf');
    const invoices = svc.kernel.services.documents.invoices;
    await invoices.update(id, { ...(await invoices.get(id)), status: 'available' } as never, CLI);
    expect((await invoices.get(id)).status).toBe('available');
    const after = await upload(admin, `/invoices/${id}/attachments`, 'Timesheet\n', 'timesheet.txt', 'text/plain');
    expect(after.status).toBe(201);
    for (const a of [before.body.id, after.body.id]) {
      const res = await svc.rest(admin).delete(`/attachments/${a}`);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('billing_rest_invalid_state');
    }
    expect(await stored(id)).toBe(2);
  });
});

describe("the customer's page, under the document's key", () => {
  it('lists the files and serves each as a download; a wrong key or another document answers as missing', async () => {
    const id = await draft();
    const other = await draft();
    const file = await upload(admin, `/invoices/${id}/attachments`, PDF, 'Signed contract.pdf', 'application/pdf');
    const foreign = await upload(admin, `/invoices/${other}/attachments`, PDF, 'Not yours.pdf', 'application/pdf');
    const key = await svc.kernel.services.documents.invoices.accessKey(id);
    const base = `${svc.kernel.config.baseUrl}/billing/invoice/${id}`;
    const page = await (await fetch(`${base}?key=${encodeURIComponent(key)}`)).text();
    const href = `/billing/invoice/${id}/attachments/${file.body.id}?key=${encodeURIComponent(key)}`;
    expect(page).toContain('Attachments');
    expect(page).toContain(`href="${href.replace(/&/g, '&amp;')}"`);
    expect(page).toContain('Signed contract.pdf');
    expect(page).not.toContain('Not yours.pdf');
    const res = await fetch(`${svc.kernel.config.baseUrl}${href}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Signed contract\.pdf"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(PDF)).toBe(true);
    const refused = [
      `${base}/attachments/${file.body.id}?key=wrong`,
      `${base}/attachments/${file.body.id}`,
      `${base}/attachments/${foreign.body.id}?key=${encodeURIComponent(key)}`,
      `${svc.kernel.config.baseUrl}/billing/quote/${id}/attachments/${file.body.id}?key=${encodeURIComponent(key)}`,
    ];
    for (const url of refused) expect((await fetch(url)).status).toBe(404);
  });

  it("names the files in the document's language", async () => {
    const id = (await svc.rest(admin).post('/invoices', { items: [ITEM], customer_name: 'Kunde', locale: 'de-DE' })).body.id;
    await upload(admin, `/invoices/${id}/attachments`, PDF, 'Vertrag.pdf', 'application/pdf');
    const key = await svc.kernel.services.documents.invoices.accessKey(id);
    const page = await (await fetch(`${svc.kernel.config.baseUrl}/billing/invoice/${id}?key=${encodeURIComponent(key)}`)).text();
    expect(page).toContain('<h3>Anlagen</h3>');
  });
});

describe("the document's mail", () => {
  const send = (id: number) => svc.kernel.services.mail.sendInvoice(id, CLI);
  const mailed = () => svc.mail.received.at(-1)!.parsed.attachments.filter((a) => a.contentDisposition === 'attachment');

  it('carries each attached file after the PDF, with its name, type and bytes', async () => {
    const id = await draft();
    await upload(admin, `/invoices/${id}/attachments`, PDF, 'Signed contract.pdf', 'application/pdf');
    await upload(admin, `/invoices/${id}/attachments`, PNG, 'site photo.pdf', 'application/pdf');
    await send(id);
    const files = mailed();
    expect(files.map((a) => [a.filename, a.contentType])).toEqual([
      [expect.stringMatching(/\.pdf$/), 'application/pdf'],
      ['Signed contract.pdf', 'application/pdf'],
      ['site photo.png', 'image/png'],
    ]);
    expect(files[1]!.content.equals(PDF)).toBe(true);
    expect(files[2]!.content.equals(PNG)).toBe(true);
  });

  it('leaves them out with email_attachments off', async () => {
    const id = await draft();
    await upload(admin, `/invoices/${id}/attachments`, PDF, 'Signed contract.pdf', 'application/pdf');
    await svc.kernel.options.set('email_attachments', false, CLI);
    try {
      await send(id);
      expect(mailed().map((a) => a.filename)).not.toContain('Signed contract.pdf');
    } finally {
      await svc.kernel.options.set('email_attachments', true, CLI);
    }
  });
});

describe('scope: a sales user with the own scope', () => {
  let a: TestUser;
  let b: TestUser;
  beforeAll(async () => {
    await svc.kernel.plugins.activate('team-roles', CLI);
    a = await svc.makeUser('sales-att-a', 'billing_sales');
    b = await svc.makeUser('sales-att-b', 'billing_sales');
    await svc.kernel.options.set('team_sales_scope', 'own', CLI);
  });

  it("answers another user's attachment and document as missing on every route, and changes nothing", async () => {
    const theirs = await draft(a);
    const file = await upload(a, `/invoices/${theirs}/attachments`, PDF, 'a.pdf', 'application/pdf');
    expect(file.status).toBe(201);
    const quote = await draft(a, '/quotes');
    expect((await upload(a, `/quotes/${quote}/attachments`, PDF, 'q.pdf', 'application/pdf')).status).toBe(201);
    const answers = [
      await svc.rest(b).get(`/attachments/${file.body.id}`),
      await svc.rest(b).delete(`/attachments/${file.body.id}`),
      await svc.rest(b).get(`/invoices/${theirs}/attachments`),
      await upload(b, `/invoices/${theirs}/attachments`, PDF, 'b.pdf', 'application/pdf'),
      await svc.rest(b).get(`/quotes/${quote}/attachments`),
      await upload(b, `/quotes/${quote}/attachments`, PDF, 'b.pdf', 'application/pdf'),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(answers.every((r) => r.body.code === 'billing_rest_not_found')).toBe(true);
    expect(await stored(theirs)).toBe(1);
    // their own are theirs
    expect((await svc.rest(a).get(`/attachments/${file.body.id}`)).status).toBe(200);
  });
});
