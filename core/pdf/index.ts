import { defineModule } from '../modules/define-module.ts';
import { PdfRenderer } from './pdf-renderer.ts';

/**
 * PDFs of invoices, quotes and credit notes: a pure builder from the document model to a pdfmake
 * definition (with a filter hook point for `billing_pdf_document`), and a renderer that renders in a
 * pool of worker threads and never renders the same final definition twice.
 *
 *   const pdfs = new PdfRenderer();                        // at boot; `await pdfs.close()` at shutdown
 *   const { bytes, etag } = await pdfs.renderDocument(model, {
 *     filter: async (definition) => (await hooks.applyFilters('billing_pdf_document',
 *       definition as unknown as Record<string, unknown>, invoice)) as unknown as TDocumentDefinitions,
 *   });
 *
 * A filter returns plain data: table layouts by name (see `table-layouts.ts`), images as data: URLs.
 */
export const pdfModule = defineModule({
  name: 'pdf',
  services: () => new PdfRenderer(),
  stop: (ctx) => ctx.self.close(),
});
