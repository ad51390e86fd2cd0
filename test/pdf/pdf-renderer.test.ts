import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { BillingError } from '../../core/errors.ts';
import { pdfDefinition } from '../../core/pdf/document-definition.ts';
import type { PdfDocumentModel } from '../../core/pdf/document-model.ts';
import { PdfRenderer } from '../../core/pdf/pdf-renderer.ts';
import { sampleInvoice } from '../../core/pdf/sample-document.ts';
import { pdfText } from './pdf-text.ts';

const paid = (overrides: Partial<PdfDocumentModel> = {}) =>
  sampleInvoice({
    status: 'paid',
    totals: { subtotal: '12081.30', discount: '604.07', tax: '0.00', total: '11477.23', paid: '11477.23', credited: '0.00', due: '0.00' },
    ...overrides,
  });

describe('PDF rendering', () => {
  let renderer: PdfRenderer;
  beforeAll(async () => {
    renderer = new PdfRenderer({ poolSize: 2 });
    await renderer.warmUp();
  });
  afterAll(async () => {
    await renderer.close();
  });

  it('renders an invoice whose text carries number, parties, totals, tax statement and status mark', async () => {
    const pdf = await renderer.renderDocument(paid());
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text, pages } = await pdfText(pdf.bytes);
    expect(pages).toBe(1);
    expect(text).toContain('INVOICE');
    expect(text).toContain('INV-0042');
    expect(text).toContain('Northwind Studio GmbH');
    expect(text).toContain('Ελένη Παπαδοπούλου');
    expect(text).toContain('€11,477.23'); // total
    expect(text).toContain('Reverse charge: the customer accounts for the VAT');
    expect(text).toContain('7 Mar 2025');
    expect(text).toContain('6 Apr 2025');
    expect(text).toContain('Front-end development');
    // The badge and the large mark across the page.
    expect(text.match(/PAID/g)?.length).toBeGreaterThanOrEqual(2);
    expect(renderer.pool.fontSharing).toBe(true);
  });

  it.each([
    ['Greek', 'Ελένη Παπαδοπούλου'],
    ['Cyrillic', 'Дмитрий Иванов'],
    ['Latin extended', 'Łukasz Żółć'],
    ['Latin extended, more', 'Ștefan Nguyễn Øyvind Ærø Đorđević'],
  ])('renders a %s customer name as real text', async (_script, name) => {
    const { text } = await pdfText(
      (await renderer.renderDocument(sampleInvoice({ customer: { name, email: 'c@example.com', country: 'PL', vat: '' } }))).bytes,
    );
    expect(text).toContain(name);
  });

  it('marks drafts and cancelled documents, and not open ones', async () => {
    const count = async (doc: PdfDocumentModel, word: string) =>
      (await pdfText((await renderer.renderDocument(doc)).bytes)).text.split(word).length - 1;
    expect(await count(sampleInvoice({ status: 'draft' }), 'DRAFT')).toBeGreaterThanOrEqual(2);
    expect(await count(sampleInvoice({ status: 'cancelled' }), 'CANCELLED')).toBeGreaterThanOrEqual(2);
    expect(pdfDefinition(sampleInvoice({ status: 'available' })).watermark).toBeUndefined();
    expect(pdfDefinition(sampleInvoice({ status: 'paid' })).watermark).toMatchObject({ text: 'PAID' });
  });

  it('renders quotes and credit notes with their own facts', async () => {
    const quote = await pdfText(
      (
        await renderer.renderDocument(
          sampleInvoice({
            kind: 'quote',
            number: 'QUO-0007',
            status: 'accepted',
            dueDate: null,
            expiryDate: '2025-04-30',
          }),
        )
      ).bytes,
    );
    expect(quote.text).toContain('QUOTE');
    expect(quote.text).toContain('QUO-0007');
    expect(quote.text).toContain('Valid until');
    expect(quote.text).toContain('30 Apr 2025');
    expect(quote.text).not.toContain('Amount due');

    const credit = await pdfText(
      (
        await renderer.renderDocument(
          sampleInvoice({
            kind: 'credit_note',
            number: 'CN-0003',
            status: 'issued',
            creditNote: { invoiceNumber: 'INV-0041', reason: 'Hosting cancelled after two months.' },
            items: [{ name: 'Hosting (10 months)', description: '', quantity: '10', price: '49.90', amount: '499.00' }],
            totals: { subtotal: '499.00', discount: '0.00', tax: '0.00', total: '499.00', paid: '0.00', credited: '0.00', due: '0.00' },
          }),
        )
      ).bytes,
    );
    expect(credit.text).toContain('CREDIT NOTE');
    expect(credit.text).toContain('CN-0003');
    expect(credit.text).toContain('INV-0041');
    expect(credit.text).toContain('Hosting cancelled after two months.');
    expect(credit.text).toContain('€499.00');
  });

  it('embeds a logo given as a data: URL', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const doc = sampleInvoice({ number: 'INV-0800' });
    const pdf = await renderer.renderDocument({ ...doc, company: { ...doc.company, logo: png } });
    expect(pdf.bytes.includes('/Subtype /Image')).toBe(true);
    expect((await renderer.renderDocument(doc)).bytes.includes('/Subtype /Image')).toBe(false);
  });

  it('passes the definition through the filter hook before rendering', async () => {
    const seen: string[] = [];
    const pdf = await renderer.renderDocument(sampleInvoice({ number: 'INV-0900' }), {
      filter: async (definition, document) => {
        seen.push(document.number);
        return {
          ...definition,
          content: [...(definition.content as unknown[]), { text: 'Added by a billing_pdf_document filter' }],
        } as TDocumentDefinitions;
      },
    });
    expect(seen).toEqual(['INV-0900']);
    expect((await pdfText(pdf.bytes)).text).toContain('Added by a billing_pdf_document filter');
  });

  it('lets a filter use a PDF standard font (admitted by the local access policy)', async () => {
    const def = pdfDefinition(sampleInvoice({ number: 'INV-0901' }));
    def.content = [...(def.content as unknown[]), { text: 'Set in Helvetica', font: 'Helvetica' }] as TDocumentDefinitions['content'];
    expect((await pdfText((await renderer.render(def)).bytes)).text).toContain('Set in Helvetica');
  });

  it('fetches no URL and reads no file for a definition, and keeps working after a failed render', async () => {
    const def = pdfDefinition(sampleInvoice({ number: 'INV-0902' }));
    for (const src of ['http://127.0.0.1:9/logo.png', '/etc/passwd']) {
      const bad = { ...def, images: { logo: src }, content: [{ image: 'logo' }] } as TDocumentDefinitions;
      await expect(renderer.render(bad)).rejects.toThrow(/access policy|denied/i);
    }
    expect((await renderer.render(def)).bytes.length).toBeGreaterThan(1000);
  });

  it('refuses definitions that are not plain data', async () => {
    const def = { ...pdfDefinition(sampleInvoice()), footer: () => 'page' } as unknown as TDocumentDefinitions;
    await expect(renderer.render(def)).rejects.toBeInstanceOf(BillingError);
  });

  it('renders an unchanged document once: same bytes, same ETag, from the cache', async () => {
    const doc = paid({ number: 'INV-1000' });
    const before = renderer.stats().renders;
    const first = await renderer.renderDocument(doc);
    const second = await renderer.renderDocument(structuredClone(doc));
    expect(first.source).toBe('rendered');
    expect(second.source).toBe('cache');
    expect(second.etag).toBe(first.etag);
    expect(Buffer.compare(second.bytes, first.bytes)).toBe(0);
    expect(renderer.stats().renders).toBe(before + 1);
    expect(renderer.etagOf(pdfDefinition(doc))).toBe(first.etag); // known before any rendering
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    const changed = await renderer.renderDocument({ ...doc, notes: 'A changed note.' });
    expect(changed.source).toBe('rendered');
    expect(changed.etag).not.toBe(first.etag);
    expect(renderer.stats().renders).toBe(before + 2);
  });

  it('shares one render among concurrent requests for the same document', async () => {
    const doc = paid({ number: 'INV-1001' });
    const before = renderer.stats();
    const results = await Promise.all(Array.from({ length: 8 }, () => renderer.renderDocument(doc)));
    expect(renderer.stats().renders).toBe(before.renders + 1);
    expect(renderer.stats().shared).toBe(before.shared + 7);
    expect(new Set(results.map((r) => r.etag)).size).toBe(1);
    expect(results.every((r) => r.bytes === results[0]!.bytes)).toBe(true);
  });

  it('renders the same definition to the same bytes in a fresh renderer (deterministic output)', async () => {
    const doc = paid({ number: 'INV-1002' });
    const ours = await renderer.renderDocument(doc);
    const other = new PdfRenderer({ poolSize: 1, cacheMaxBytes: 0 });
    try {
      const theirs = await other.renderDocument(doc);
      expect(theirs.etag).toBe(ours.etag);
      expect(Buffer.compare(theirs.bytes, ours.bytes)).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('leaves the event loop free while 10 documents render', async () => {
    const docs = Array.from({ length: 10 }, (_, i) => sampleInvoice({ number: `INV-2${String(i).padStart(3, '0')}` }));
    // On the main thread pdfmake does not yield between documents: a timer could not fire until all ten
    // were done. In the pool the loop stays free and the timer keeps firing while they render. What is
    // checked is that it fires at all during the renders, not how punctually (no timing threshold).
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const before = renderer.stats().renders;
    let ticksWhileRendering = 0;
    await Promise.all(docs.map((d) => renderer.renderDocument(d))).finally(() => {
      ticksWhileRendering = ticks;
      clearInterval(timer);
    });
    expect(renderer.stats().renders).toBe(before + 10);
    expect(ticksWhileRendering).toBeGreaterThanOrEqual(2);
  });
});

describe('PDF renderer under load', () => {
  it('refuses renders beyond its queue with 503 billing_pdf_busy and a time to come back, and renders the rest', async () => {
    const renderer = new PdfRenderer({ poolSize: 1, maxQueue: 3, cacheMaxBytes: 0 });
    try {
      const settled = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => renderer.renderDocument(sampleInvoice({ number: `INV-40${i}` }))),
      );
      const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as BillingError);
      // one rendering (once the worker is up) and three waiting are taken; the rest are refused at once
      expect(refused.length).toBeGreaterThanOrEqual(6);
      expect(refused.every((e) => e.code === 'billing_pdf_busy' && e.status === 503 && e.data.retry_after === 2)).toBe(true);
      for (const s of settled) if (s.status === 'fulfilled') expect(s.value.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // the queue drained: the next render is taken again
      await expect(renderer.renderDocument(sampleInvoice({ number: 'INV-4100' }))).resolves.toMatchObject({ source: 'rendered' });
    } finally {
      await renderer.close();
    }
  });

  it('renders on threads of the lowest scheduling priority (Linux), so requests and the database go first', async () => {
    if (process.platform !== 'linux') return;
    const { readdirSync, readFileSync } = await import('node:fs');
    // field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (after the command in parentheses)
    const niced = () =>
      new Set(
        readdirSync('/proc/self/task').filter((tid) => {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === 19;
        }),
      );
    // other workers of earlier tests (renders, image checks) may still be ending, at the same priority
    const before = niced();
    const renderer = new PdfRenderer({ poolSize: 1 });
    try {
      await renderer.renderDocument(sampleInvoice({ number: 'INV-4200' }));
      const after = niced();
      expect([...after].filter((tid) => !before.has(tid))).toHaveLength(1); // the render thread
      expect(after.has(String(process.pid))).toBe(false); // never the event loop (its thread id is the pid)
    } finally {
      await renderer.close();
    }
  });
});

describe('PDF renderer shutdown', () => {
  it('close() terminates the workers and rejects later renders', async () => {
    const renderer = new PdfRenderer({ poolSize: 2 });
    expect(renderer.pool.threads).toBe(0); // workers start on first use
    await renderer.renderDocument(sampleInvoice());
    expect(renderer.pool.threads).toBe(2);
    await renderer.close();
    expect(renderer.pool.threads).toBe(0);
    await expect(renderer.renderDocument(sampleInvoice({ number: 'INV-3000' }))).rejects.toThrow(/closed/);
  });

  it('rejects renders still queued when closed', async () => {
    const renderer = new PdfRenderer({ poolSize: 1 });
    const pending = Promise.allSettled(
      Array.from({ length: 3 }, (_, i) => renderer.renderDocument(sampleInvoice({ number: `INV-31${i}` }))),
    );
    await renderer.close();
    const settled = await pending;
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
  });

  it('holds a plain node process open while it renders, and lets it exit once closed', async () => {
    // Idle workers are unref'd, busy ones ref'd: a script awaiting its PDF must not exit under it (top-level
    // await would end with code 13), and one that closed the renderer must exit by itself.
    const script = `
      import { PdfRenderer } from ${JSON.stringify(new URL('../../core/pdf/pdf-renderer.ts', import.meta.url).href)};
      import { sampleInvoice } from ${JSON.stringify(new URL('../../core/pdf/sample-document.ts', import.meta.url).href)};
      const renderer = new PdfRenderer();
      const pdf = await renderer.renderDocument(sampleInvoice());
      console.log(pdf.bytes.subarray(0, 5).toString('latin1'), renderer.pool.threads === renderer.pool.size);
      await renderer.close();`;
    const { stdout, code } = await new Promise<{ stdout: string; code: number | null }>((resolve, reject) => {
      const child = execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 20000 }, (err, stdout) => {
        if (err && err.killed) reject(new Error('the child did not exit'));
        else resolve({ stdout, code: child.exitCode });
      });
    });
    expect(stdout.trim()).toBe('%PDF- true');
    expect(code).toBe(0);
  });
});
