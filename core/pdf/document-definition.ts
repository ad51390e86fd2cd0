// The layout of invoices, quotes and credit notes: a pure function from the document model to a pdfmake
// definition (plain data, so it can be hashed, cached and sent to a render worker), and the async step
// that passes it through a filter (the core's `billing_pdf_document`).
import type { Content, ContentTable, TableCell, TDocumentDefinitions, Watermark } from 'pdfmake/interfaces.js';
import type { PdfDocumentModel, PdfDocumentStatus, TaxCategory } from './document-model.ts';
import { FONT_FAMILY } from './fonts.ts';
import { servicePeriodText } from '../display/service-period.ts';
import { shippedTranslator, type Translator } from '../i18n/translator.ts';
import { totalsRows } from '../display/totals-rows.ts';
import { HEADER_FILL, RULE_COLOR } from './table-layouts.ts';

/** Receives the built definition and the document; returns the definition to render. */
export type PdfDefinitionFilter = (
  definition: TDocumentDefinitions,
  document: PdfDocumentModel,
) => TDocumentDefinitions | Promise<TDocumentDefinitions>;

export interface BuildPdfOptions {
  /** e.g. the core's `billing_pdf_document` filter. */
  filter?: PdfDefinitionFilter;
  /** Default `A4`. */
  pageSize?: PageSizeName;
  /** The document's language (its texts, amounts and dates); the shipped English without it. */
  translator?: Translator;
}

export type PageSizeName = 'A4' | 'LETTER';

const PAGE_WIDTH: Record<PageSizeName, number> = { A4: 595.28, LETTER: 612 };
const MARGIN = 48;

// the design language every PDF of the service shares (statements too: ./statement-definition.ts)
export const INK = '#1f2937';
export const MUTED = '#6b7280';
export const ACCENT = '#0f4c81';

/** The width between the page margins. */
export function contentWidth(pageSize: PageSizeName): number {
  return PAGE_WIDTH[pageSize] - 2 * MARGIN;
}

const STATUS: Record<PdfDocumentStatus, { color: string; mark?: boolean }> = {
  draft: { color: '#6b7280', mark: true },
  available: { color: ACCENT },
  partial: { color: '#b45309' },
  paid: { color: '#15803d', mark: true },
  unpaid: { color: '#b45309' },
  cancelled: { color: '#b91c1c', mark: true },
  accepted: { color: '#15803d' },
  declined: { color: '#b91c1c' },
  expired: { color: '#6b7280' },
  issued: { color: ACCENT },
};

/** The key of a tax treatment's name (`tax.reverse_charge`, …). */
const TAX_KEY: Record<TaxCategory, string> = {
  standard: 'tax.standard',
  reverse_charge: 'tax.reverse_charge',
  export: 'tax.export',
  exempt: 'tax.exempt',
};

/**
 * The definition of a document, before any filter, in the language of `tr` (texts, amounts, dates).
 * Pure: the same document and texts give the same definition, so an override changes the PDF's hash.
 */
export function pdfDefinition(
  doc: PdfDocumentModel,
  pageSize: PageSizeName = 'A4',
  tr: Translator = shippedTranslator(),
): TDocumentDefinitions {
  const width = contentWidth(pageSize);
  const money = (amount: string) => tr.money(amount, doc.currency);
  const known = STATUS[doc.status];
  const status = known ? { ...known, label: tr.t(`status.${doc.status}`) } : { label: String(doc.status), color: MUTED };
  const kind = tr.t(`document.${doc.kind}`);
  const numbered = tr.t(`document.${doc.kind}_number`, { number: doc.number });

  const content: Content[] = [header(doc, kind, status, tr), rule(width, [0, 14, 0, 12]), parties(doc, money, tr)];
  if (doc.title.trim()) content.push({ text: doc.title, style: 'title' });
  if (doc.kind === 'credit_note' && doc.creditNote) {
    content.push({
      margin: [0, 14, 0, 0],
      text: [{ text: `${tr.t('document.reason')}: `, bold: true }, doc.creditNote.reason],
    });
  }
  content.push(items(doc, money, tr), totals(doc, money, tr));
  if (doc.kind === 'invoice' && doc.schedule?.length) content.push(schedule(doc.schedule, money, tr));
  if (doc.taxTreatment.statement.trim()) content.push(taxStatement(doc, tr));
  for (const [label, text] of [
    [tr.t('document.notes'), doc.notes],
    [tr.t('document.terms'), doc.terms],
  ] as const) {
    if (text.trim())
      content.push({
        stack: [
          { text: label.toUpperCase(), style: 'label' },
          { text, margin: [0, 3, 0, 0] },
        ],
        margin: [0, 12, 0, 0],
        unbreakable: true,
      });
  }

  const definition = pageDefinition({
    pageSize,
    tr,
    company: doc.company,
    content,
    footer: numbered,
    info: {
      title: numbered,
      subject: doc.title || tr.t('document.subject', { document: numbered, customer: doc.customer.name }),
      // From the document, not the clock: the same document renders to the same bytes.
      date: doc.issueDate,
    },
  });
  if (status.mark) definition.watermark = statusMark(status.label.toUpperCase(), status.color);
  return definition;
}

/**
 * The frame of every page the service prints: size, margins, type, the styles its parts use, the
 * company's logo and the footer line (company, e-mail, what the document is). `info.date` (`Y-m-d`)
 * dates the file, from the document rather than the clock, so the same document renders to the same bytes
 * (it crosses to a render worker as an ISO string, and the worker makes it a Date again).
 */
export function pageDefinition(p: {
  pageSize: PageSizeName;
  tr: Translator;
  company: PdfDocumentModel['company'];
  content: Content[];
  footer: string;
  info: { title: string; subject: string; date: string };
}): TDocumentDefinitions {
  const footerLine = [p.company.name, p.company.email, p.footer].filter((s) => s.trim()).join('  ·  ');
  const definition: TDocumentDefinitions = {
    pageSize: p.pageSize,
    pageMargins: [MARGIN, 40, MARGIN, 52],
    info: {
      title: p.info.title,
      author: p.company.name,
      subject: p.info.subject,
      creator: p.company.name,
      creationDate: new Date(`${p.info.date.slice(0, 10)}T00:00:00.000Z`),
    },
    language: p.tr.locale,
    content: p.content,
    footer: { text: footerLine, alignment: 'center', fontSize: 7.5, color: MUTED, margin: [MARGIN, 18, MARGIN, 0] },
    defaultStyle: { font: FONT_FAMILY, fontSize: 9.5, color: INK, lineHeight: 1.05 },
    styles: {
      label: { fontSize: 7.5, bold: true, color: MUTED, characterSpacing: 0.6 },
      title: { fontSize: 12, bold: true, margin: [0, 14, 0, 0] },
      tableHeader: { fontSize: 7.5, bold: true, color: MUTED, characterSpacing: 0.6 },
      muted: { color: MUTED },
    },
  };
  if (p.company.logo) definition.images = { logo: p.company.logo };
  return definition;
}

/** Builds the definition and passes it through `options.filter`. */
export async function buildPdfDefinition(doc: PdfDocumentModel, options: BuildPdfOptions = {}): Promise<TDocumentDefinitions> {
  const definition = pdfDefinition(doc, options.pageSize, options.translator);
  return options.filter ? options.filter(definition, doc) : definition;
}

/** The seller at the top left of every page: logo, name, address, e-mail, VAT number. */
export function companyStack(company: PdfDocumentModel['company'], tr: Translator): Content[] {
  const stack: Content[] = [];
  if (company.logo) stack.push({ image: 'logo', fit: [150, 56], margin: [0, 0, 0, 8] });
  stack.push({ text: company.name, fontSize: 13, bold: true });
  stack.push(...lines(company.address).map((text): Content => ({ text, style: 'muted' })));
  if (company.email) stack.push({ text: company.email, style: 'muted' });
  if (company.vat) stack.push({ text: tr.t('document.vat_number', { vat: company.vat }), style: 'muted' });
  return stack;
}

/** The customer addressed: a label, then name, address, country, e-mail and VAT number. */
export function customerStack(c: PdfDocumentModel['customer'], label: string, tr: Translator): Content[] {
  const stack: Content[] = [
    { text: label.toUpperCase(), style: 'label', margin: [0, 0, 0, 3] },
    { text: c.name, fontSize: 11, bold: true },
    ...lines(c.address ?? '').map((text): Content => ({ text })),
  ];
  if (c.country) stack.push({ text: tr.country(c.country) });
  if (c.email) stack.push({ text: c.email, style: 'muted' });
  if (c.vat) stack.push({ text: tr.t('document.vat_number', { vat: c.vat }), style: 'muted' });
  return stack;
}

function header(doc: PdfDocumentModel, kind: string, status: { label: string; color: string }, tr: Translator): Content {
  return {
    columns: [
      { width: '*', stack: companyStack(doc.company, tr) },
      {
        width: 'auto',
        stack: [
          { text: kind.toUpperCase(), fontSize: 24, bold: true, color: ACCENT, alignment: 'right', characterSpacing: 1 },
          { text: doc.number, fontSize: 12, bold: true, alignment: 'right', margin: [0, 2, 0, 6] },
          {
            columns: [
              { width: '*', text: '' },
              {
                width: 'auto',
                table: {
                  body: [
                    [
                      {
                        text: status.label.toUpperCase(),
                        color: '#ffffff',
                        fillColor: status.color,
                        fontSize: 7.5,
                        bold: true,
                        margin: [6, 1, 6, 1],
                      },
                    ],
                  ],
                },
                layout: 'noBorders',
              },
            ],
          },
        ],
      },
    ],
    columnGap: 24,
  };
}

function parties(doc: PdfDocumentModel, money: (a: string) => string, tr: Translator): Content {
  const billTo = customerStack(doc.customer, tr.t(doc.kind === 'quote' ? 'document.prepared_for' : 'document.bill_to'), tr);

  const dateKey = doc.kind === 'invoice' ? 'document.issue_date' : `document.${doc.kind}_date`;
  const facts: [string, string][] = [[tr.t(dateKey), tr.date(doc.issueDate)]];
  if (doc.kind === 'invoice' && doc.dueDate) facts.push([tr.t('document.due_date'), tr.date(doc.dueDate)]);
  if (doc.kind === 'quote' && doc.expiryDate) facts.push([tr.t('document.valid_until'), tr.date(doc.expiryDate)]);
  const period = doc.kind !== 'quote' ? servicePeriodText(doc.servicePeriod, tr) : null;
  if (period) facts.push([tr.t('document.service_period'), period]);
  if (doc.kind === 'credit_note' && doc.creditNote) facts.push([tr.t('document.credits_invoice'), doc.creditNote.invoiceNumber]);
  facts.push([tr.t('document.currency'), doc.currency.toUpperCase()]);

  const headline: [string, string] =
    doc.kind === 'invoice'
      ? [tr.t('document.amount_due'), doc.totals.due]
      : doc.kind === 'quote'
        ? [tr.t('document.quote_total'), doc.totals.total]
        : [tr.t('document.credit_total'), doc.totals.total];
  const body: TableCell[][] = facts.map(([label, value]) => [
    { text: label, style: 'muted' },
    { text: value, alignment: 'right' },
  ]);
  body.push([
    { text: headline[0], bold: true, style: 'muted' },
    { text: money(headline[1]), bold: true, fontSize: 12, color: ACCENT, alignment: 'right' },
  ]);

  return {
    columns: [
      { width: '*', stack: billTo },
      { width: 210, table: { widths: ['*', 'auto'], body }, layout: 'billingPairs' },
    ],
    columnGap: 24,
  };
}

/**
 * The payment schedule: each instalment's date, amount, paid and outstanding. No status column: what is
 * overdue changes with the day, and a document renders to the same bytes whenever it is rendered.
 */
function schedule(rows: NonNullable<PdfDocumentModel['schedule']>, money: (a: string) => string, tr: Translator): Content {
  const head = [
    'document.instalment_due_date',
    'document.instalment_amount',
    'document.instalment_paid',
    'document.instalment_outstanding',
  ].map((key, i) => ({ text: tr.t(key).toUpperCase(), style: 'tableHeader', alignment: i === 0 ? ('left' as const) : ('right' as const) }));
  const body = rows.map((r) => [
    { text: tr.date(r.dueDate) },
    { text: money(r.amount), alignment: 'right' as const },
    { text: money(r.paid), alignment: 'right' as const },
    { text: money(r.due), alignment: 'right' as const },
  ]);
  return {
    margin: [0, 14, 0, 0],
    unbreakable: true,
    stack: [
      { text: tr.t('document.payment_schedule').toUpperCase(), style: 'label', margin: [0, 0, 0, 3] },
      { table: { headerRows: 1, dontBreakRows: true, widths: ['*', 82, 82, 88], body: [head, ...body] }, layout: 'billingItems' },
    ],
  };
}

function items(doc: PdfDocumentModel, money: (a: string) => string, tr: Translator): ContentTable {
  const head = ['document.description', 'document.quantity', 'document.unit_price', 'document.amount'].map((key, i) => ({
    text: tr.t(key).toUpperCase(),
    style: 'tableHeader',
    alignment: i === 0 ? ('left' as const) : ('right' as const),
  }));
  const rows = doc.items.map((item) => [
    {
      stack: [
        { text: item.name, bold: true },
        ...(item.description.trim()
          ? [{ text: item.description, fontSize: 8.5, color: MUTED, margin: [0, 1, 0, 0] as [number, number, number, number] }]
          : []),
      ],
    },
    // the unit arrives named in the document's language (document-pdf.ts)
    { text: item.unit ? `${tr.quantity(item.quantity)} ${item.unit}` : tr.quantity(item.quantity), alignment: 'right' as const },
    { text: money(item.price), alignment: 'right' as const },
    { text: money(item.amount), alignment: 'right' as const },
  ]);
  return {
    margin: [0, 12, 0, 0],
    table: { headerRows: 1, dontBreakRows: true, widths: ['*', 60, 82, 88], body: [head, ...rows] },
    layout: 'billingItems',
  };
}

function totals(doc: PdfDocumentModel, money: (a: string) => string, tr: Translator): Content {
  const category = doc.taxTreatment.category;
  const taxLabel =
    category === 'standard' ? tr.t('totals.tax') : tr.t('totals.tax_treatment', { treatment: tr.t(TAX_KEY[category]).toLowerCase() });
  const rows = totalsRows(
    { currency: doc.currency, totals: doc.totals, taxLines: doc.taxBreakdown ?? [] },
    {
      texts: tr,
      settlement: doc.kind === 'invoice',
      taxLabel,
      totalLabel: doc.kind === 'credit_note' ? tr.t('document.credit_total') : tr.t('totals.total'),
    },
  );
  // the rows up to the total in one table, the total and what follows it (settled, due) in another
  const drawn = rows.map((r): [string, string] => [r.label, `${r.deducted ? '-' : ''}${money(r.amount)}`]);
  const split = rows.findIndex((r) => r.key === 'total');
  const pairs = drawn.slice(0, split);
  const final = drawn.slice(split);

  const row = ([label, value]: [string, string], strong = false) => [
    { text: label, bold: strong, color: strong ? INK : MUTED },
    { text: value, bold: strong, alignment: 'right' as const },
  ];
  const last = final.length - 1;
  return {
    columns: [
      { width: '*', text: '' },
      {
        width: 230,
        unbreakable: true,
        stack: [
          { table: { widths: ['*', 'auto'], body: pairs.map((p) => row(p)) }, layout: 'billingPairs' },
          {
            table: {
              widths: ['*', 'auto'],
              body: final.map((p, i) => {
                const r = row(p, i === 0 || i === last);
                if (i === last) for (const cell of r) Object.assign(cell, { fontSize: 12, color: i === 0 ? INK : ACCENT });
                return r;
              }),
            },
            layout: 'billingTotal',
            margin: [0, 4, 0, 0],
          },
        ],
      },
    ],
    margin: [0, 12, 0, 0],
  };
}

function taxStatement(doc: PdfDocumentModel, tr: Translator): Content {
  return {
    margin: [0, 14, 0, 0],
    unbreakable: true,
    table: {
      widths: [3, '*'],
      body: [
        [
          { text: '', fillColor: ACCENT },
          {
            fillColor: HEADER_FILL,
            margin: [8, 6, 8, 6],
            stack: [
              { text: tr.t(TAX_KEY[doc.taxTreatment.category]).toUpperCase(), style: 'label' },
              { text: doc.taxTreatment.statement, margin: [0, 2, 0, 0] },
            ],
          },
        ],
      ],
    },
    layout: 'noBorders',
  };
}

function statusMark(text: string, color: string): Watermark {
  return { text, color, opacity: 0.12, bold: true, font: FONT_FAMILY };
}

export function rule(width: number, margin: [number, number, number, number]): Content {
  return { canvas: [{ type: 'line', x1: 0, y1: 0, x2: width, y2: 0, lineWidth: 0.8, lineColor: RULE_COLOR }], margin };
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}
