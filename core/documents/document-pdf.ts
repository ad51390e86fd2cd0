import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Translations } from '../i18n/translations.ts';
import type { OptionsStore } from '../options/options.ts';
import type { PdfCompany, PdfDocumentModel, PdfDocumentStatus } from '../pdf/document-model.ts';
import type { PdfRenderer, RenderedPdf } from '../pdf/pdf-renderer.ts';
import { breakdownLabel, taxStatements } from '../tax/index.ts';
import type { BillingDocument } from './document.ts';
import { quoteStatus, scheduleStates } from './representation.ts';
import { siteDate } from '../time/site-time.ts';
import { unitName } from '../units/units.ts';

export interface DocumentPdfDeps {
  pdf: PdfRenderer;
  options: OptionsStore;
  hooks: HookRegistry;
  /** The document's language: its `locale`, else the option `site_locale`. */
  translations: Translations;
}

const COMPANY_OPTIONS = ['company_name', 'company_address', 'company_email', 'company_logo_url', 'company_vat_number'] as const;

/** The seller as every PDF prints it, from the options. */
export async function pdfCompany(options: OptionsStore): Promise<PdfCompany> {
  return companyOf(await options.getMany([...COMPANY_OPTIONS]));
}

function companyOf(o: Record<(typeof COMPANY_OPTIONS)[number], string>): PdfCompany {
  return {
    name: o.company_name,
    address: o.company_address,
    email: o.company_email,
    // the seller's VAT number belongs on an invoice (and on the page of a Factur-X)
    ...(o.company_vat_number.trim() ? { vat: o.company_vat_number.trim() } : {}),
    // renderers fetch nothing: only a logo carried inline as a data: URL is drawn
    ...(o.company_logo_url.startsWith('data:image/') ? { logo: o.company_logo_url } : {}),
  };
}

/**
 * A document's PDF: the document mapped onto the PDF model with the company details of the options,
 * passed through `billing_pdf_document`, rendered by the worker pool (which renders an unchanged
 * definition only once). `parent` is the invoice a credit note belongs to; `adjust` changes the final
 * definition (after the filter), e.g. to render it as PDF/A.
 */
export async function documentPdf(
  doc: BillingDocument,
  d: DocumentPdfDeps,
  parent?: BillingDocument,
  adjust?: (definition: TDocumentDefinitions) => TDocumentDefinitions,
): Promise<RenderedPdf> {
  const o = await d.options.getMany([...COMPANY_OPTIONS, 'timezone']);
  const tr = await d.translations.translator(doc.locale);
  const status: PdfDocumentStatus =
    doc.kind === 'credit_note'
      ? 'issued'
      : doc.kind === 'quote'
        ? (quoteStatus(doc, siteDate(new Date(), o.timezone)) as PdfDocumentStatus)
        : (doc.status as PdfDocumentStatus);
  const model: PdfDocumentModel = {
    kind: doc.kind,
    number: doc.number,
    title: doc.title,
    status,
    issueDate: doc.issueDate,
    dueDate: doc.dueDate,
    expiryDate: doc.expiryDate,
    servicePeriod: doc.period,
    // paid and outstanding follow from the money received alone, not the day
    schedule: scheduleStates(doc, doc.issueDate)?.map((s) => ({ dueDate: s.due_date, amount: s.amount, paid: s.paid, due: s.due })) ?? null,
    company: companyOf(o),
    customer: {
      name: doc.customer.name,
      email: doc.customer.email,
      country: doc.customer.country,
      vat: doc.customer.vat,
      address: doc.customer.address,
    },
    items: doc.items.map(({ name, description, quantity, unit, price, amount }) => ({
      name,
      description,
      quantity,
      ...(unit ? { unit: unitName(unit, tr.locale) } : {}),
      price,
      amount,
    })),
    totals: doc.totals,
    currency: doc.currency,
    taxTreatment: { category: doc.tax.category, statement: taxStatements(doc).join('\n') },
    taxBreakdown: doc.taxBreakdown.map((e) => ({ label: breakdownLabel(e, tr), basis: e.basis, tax: e.tax })),
    notes: doc.notes,
    terms: doc.terms,
    ...(doc.kind === 'credit_note' && parent ? { creditNote: { invoiceNumber: parent.number, reason: doc.reason ?? '' } } : {}),
  };
  return d.pdf.renderDocument(model, {
    translator: tr,
    filter: async (definition) => {
      const filtered = (await d.hooks.applyFilters(
        'billing_pdf_document',
        definition as unknown as Record<string, unknown>,
        doc,
      )) as unknown as TDocumentDefinitions;
      // a caller's own change of the final definition (a PDF/A rendering); cached apart by its content
      return adjust ? adjust(filtered) : filtered;
    },
  });
}
