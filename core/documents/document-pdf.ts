import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { HookRegistry } from '../hooks/registry.ts';
import type { OptionsStore } from '../options/options.ts';
import type { PdfDocumentModel, PdfDocumentStatus, PdfRenderer, RenderedPdf } from '../pdf/index.ts';
import type { BillingDocument } from './document.ts';
import { quoteStatus } from './representation.ts';
import { siteDate } from './site-time.ts';

export interface DocumentPdfDeps {
  pdf: PdfRenderer;
  options: OptionsStore;
  hooks: HookRegistry;
}

/**
 * A document's PDF: the document mapped onto the PDF model with the company details of the options,
 * passed through `billing_pdf_document`, rendered by the worker pool (which renders an unchanged
 * definition only once). `parent` is the invoice a credit note belongs to.
 */
export async function documentPdf(doc: BillingDocument, d: DocumentPdfDeps, parent?: BillingDocument): Promise<RenderedPdf> {
  const o = await d.options.getMany(['company_name', 'company_address', 'company_email', 'company_logo_url', 'timezone']);
  const status: PdfDocumentStatus = doc.kind === 'credit_note' ? 'issued'
    : doc.kind === 'quote' ? quoteStatus(doc, siteDate(new Date(), o.timezone)) as PdfDocumentStatus
      : doc.status as PdfDocumentStatus;
  const model: PdfDocumentModel = {
    kind: doc.kind,
    number: doc.number,
    title: doc.title,
    status,
    issueDate: doc.issueDate,
    dueDate: doc.dueDate,
    expiryDate: doc.expiryDate,
    company: {
      name: o.company_name, address: o.company_address, email: o.company_email,
      // renderers fetch nothing: only a logo carried inline as a data: URL is drawn
      ...(o.company_logo_url.startsWith('data:image/') ? { logo: o.company_logo_url } : {}),
    },
    customer: { name: doc.customer.name, email: doc.customer.email, country: doc.customer.country, vat: doc.customer.vat, address: doc.customer.address },
    items: doc.items.map(({ name, description, quantity, price, amount }) => ({ name, description, quantity, price, amount })),
    totals: doc.totals,
    currency: doc.currency,
    taxTreatment: { category: doc.tax.category, statement: doc.tax.statement },
    notes: doc.notes,
    terms: doc.terms,
    ...(doc.kind === 'credit_note' && parent ? { creditNote: { invoiceNumber: parent.number, reason: doc.reason ?? '' } } : {}),
  };
  return d.pdf.renderDocument(model, {
    filter: async (definition) => (await d.hooks.applyFilters('billing_pdf_document',
      definition as unknown as Record<string, unknown>, doc)) as unknown as TDocumentDefinitions,
  });
}

/** The file name of a document's PDF: its number, with anything but `[A-Za-z0-9_.-]` made `_`. */
export function pdfFilename(doc: Pick<BillingDocument, 'number'>): string {
  return `${doc.number.replace(/[^A-Za-z0-9_.-]/g, '_')}.pdf`;
}
