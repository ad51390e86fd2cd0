import pdfmake from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { pdfDefinition } from '../../core/pdf/document-definition.ts';
import type { PdfDocumentModel } from '../../core/pdf/document-model.ts';
import { FONT_FAMILY, fontFiles } from '../../core/pdf/fonts.ts';
import { PdfRenderer } from '../../core/pdf/pdf-renderer.ts';
import { sampleInvoice } from '../../core/pdf/sample-document.ts';
import { TABLE_LAYOUTS } from '../../core/pdf/table-layouts.ts';
import { measureOps, type Comparison, type Measure, type Scenario } from '../harness.ts';

const CUSTOMERS: PdfDocumentModel['customer'][] = [
  {
    name: 'Ελένη Παπαδοπούλου',
    email: 'eleni@example.gr',
    country: 'GR',
    vat: 'EL123456789',
    address: 'Λεωφόρος Κηφισίας 44\n151 25 Μαρούσι',
  },
  { name: 'Дмитрий Иванов', email: 'dmitry@example.com', country: 'US', vat: '', address: '350 Fifth Avenue\nNew York, NY 10118' },
  {
    name: 'Łukasz Żółć',
    email: 'lukasz@example.pl',
    country: 'PL',
    vat: 'PL5260250274',
    address: 'ul. Marszałkowska 84/92\n00-514 Warszawa',
  },
  { name: 'Acme Widgets Ltd', email: 'ap@acme.example', country: 'GB', vat: '', address: '1 Poultry\nLondon EC2R 8EJ' },
];

/** The n-th distinct invoice: its own number and notes, one of a few customers. */
function invoice(n: number): PdfDocumentModel {
  return sampleInvoice({
    number: `INV-${String(n).padStart(6, '0')}`,
    customer: CUSTOMERS[n % CUSTOMERS.length]!,
    notes: `Thank you for your business. Please quote INV-${String(n).padStart(6, '0')} with your payment.`,
  });
}

/**
 * The baseline: pdfmake used the way its documentation shows on a server — fonts registered once by
 * file path, then `createPdf(definition).getBuffer()` per document on the main thread — with the same
 * Noto Sans files and the same definition as ours.
 */
function naiveRenderer(): (definition: TDocumentDefinitions) => Promise<Buffer> {
  const files = fontFiles();
  const allowed = new Set(Object.values(files));
  pdfmake.setFonts({ [FONT_FAMILY]: files });
  pdfmake.addTableLayouts(TABLE_LAYOUTS);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => allowed.has(path));
  return (definition) => pdfmake.createPdf(definition).getBuffer();
}

/**
 * Document numbers from `first` on: every request a new document, or (with probability repeatShare) one
 * of the last 200 asked for again.
 */
function requestMix(first: number, repeatShare: number): () => number {
  let next = first - 1;
  const recent: number[] = [];
  return () => {
    if (recent.length && Math.random() < repeatShare) return recent[Math.floor(Math.random() * recent.length)]!;
    const n = ++next;
    recent.push(n);
    if (recent.length > 200) recent.shift();
    return n;
  };
}

const ms = (m: Measure) => `${m.p50.toFixed(1)} ms`;

export const pdf: Scenario = {
  name: 'pdf',
  description: 'PDFs per second and one-page render time: worker pool + content-addressed cache vs naive pdfmake on the main thread',
  async run(env) {
    const naive = naiveRenderer();
    const renderer = new PdfRenderer();
    const rows: Comparison[] = [];
    try {
      await renderer.warmUp();
      for (let i = 0; i < 5; i++) await naive(pdfDefinition(invoice(i)));
      const seconds = env.seconds;
      const callers = renderer.pool.size * 2;
      let line = 0;
      const compare = async (scenario: string, concurrency: number, repeatShare: number) => {
        const before = renderer.stats();
        // A number range of its own for each line and side: no document is already in the cache.
        const range = ++line * 1_000_000;
        const oursMix = requestMix(range, repeatShare);
        const ours = await measureOps(() => renderer.render(pdfDefinition(invoice(oursMix()))), { seconds, concurrency, unit: 'pdf/s' });
        const naiveMix = requestMix(range + 500_000, repeatShare);
        const baseline = await measureOps(() => naive(pdfDefinition(invoice(naiveMix()))), { seconds, concurrency, unit: 'pdf/s' });
        const after = renderer.stats();
        const asked = after.renders + after.cacheHits + after.shared - (before.renders + before.cacheHits + before.shared);
        const rendered = after.renders - before.renders;
        rows.push({
          scenario,
          ours,
          baseline,
          baselineName: 'naive pdfmake',
          note: `p50 ours ${ms(ours)} vs ${ms(baseline)}; ours rendered ${rendered} of ${asked} requests (pool ${renderer.pool.size}, ${concurrency} callers)`,
        });
      };
      await compare('one-page invoice, 1 caller, all distinct', 1, 0);
      await compare(`PDFs/s, ${callers} callers, all distinct`, callers, 0);
      await compare(`PDFs/s, ${callers} callers, half repeats`, callers, 0.5);
      if (!renderer.pool.fontSharing) rows.at(-1)!.note += '; WARNING: workers are not sharing parsed fonts';
      return rows;
    } finally {
      await renderer.close();
    }
  },
};
