import { CLI } from '../../core/audit/audit.ts';
import { pdfDefinition } from '../../core/pdf/document-definition.ts';
import { sampleInvoice } from '../../core/pdf/sample-document.ts';
import { alternate, measureHttp, measureOps, type Comparison, type Scenario } from '../harness.ts';

/**
 * Translation must cost nothing measurable: the same documents in German (texts from the catalogue,
 * amounts and dates through Intl) against English, in the same run, alternately. The aim is a ratio of
 * at least 0.9.
 */
export const languages: Scenario = {
  name: 'languages',
  description: 'PDFs and public pages in de vs en: translated texts and Intl formats against the English ones',
  async run(env) {
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    try {
      const rows: Comparison[] = [];
      // the public page of one invoice per language, over HTTP: unlock, the page, the texts
      const pageOf = async (locale: string) => {
        const inv = await kernel.api.invoices.create(
          {
            items: [
              { name: 'Consulting', quantity: 12, price: '1234.50' },
              { name: 'Hosting', quantity: 1, price: '99.90' },
            ],
            customer_name: 'Bench Kunde',
            customer_email: 'kunde@example.com',
            status: 'available',
            locale,
          },
          { actor: CLI, source: 'api' },
        );
        return `${kernel.url}/billing/invoice/${inv.id}?key=${encodeURIComponent(await kernel.api.invoices.accessKey(inv.id))}`;
      };
      const [de, en] = [await pageOf('de'), await pageOf('en')];
      const pages = await alternate(
        () => measureHttp({ url: de }, env),
        () => measureHttp({ url: en }, env),
        env,
      );
      rows.push({ scenario: 'public invoice page, de vs en', ...pages, baselineName: 'en' });

      // PDFs of distinct documents (none from the cache) through the worker pool, in each language
      await kernel.pdf.warmUp();
      const [trDe, trEn] = [await kernel.translations.translator('de'), await kernel.translations.translator('en')];
      let n = 0;
      const render = (tr: typeof trDe) => () =>
        kernel.pdf.render(pdfDefinition(sampleInvoice({ number: `INV-${String(++n).padStart(7, '0')}` }), 'A4', tr));
      const concurrency = kernel.pdf.pool.size * 2;
      const pdfs = await alternate(
        () => measureOps(render(trDe), { seconds: env.seconds, concurrency, unit: 'pdf/s' }),
        () => measureOps(render(trEn), { seconds: env.seconds, concurrency, unit: 'pdf/s' }),
        env,
      );
      rows.push({ scenario: `PDFs/s, ${concurrency} callers, all distinct, de vs en`, ...pdfs, baselineName: 'en' });
      for (const r of rows) r.note = `aim ≥ 0.9x: ${(r.ours.throughput / r.baseline.throughput).toFixed(2)}x`;
      return rows;
    } finally {
      await kernel.stop();
      await db.close();
    }
  },
};
