// The layout of a statement of account, drawn with the parts of the document PDFs (frame, seller,
// customer, rules, table layouts) so a customer receives one design from the service.
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { Translator } from '../i18n/translator.ts';
import {
  ACCENT,
  companyStack,
  contentWidth,
  customerStack,
  MUTED,
  pageDefinition,
  rule,
  type PageSizeName,
} from './document-definition.ts';
import type { PdfCompany, PdfCustomer } from './document-model.ts';

export type PdfStatementLineType = 'invoice' | 'payment' | 'refund' | 'credit_note';

/** A statement as plain data: amounts are exact decimal strings the money module computed; dates `Y-m-d`. */
export interface PdfStatementModel {
  company: PdfCompany;
  customer: PdfCustomer;
  currency: string;
  from: string;
  to: string;
  opening: string;
  closing: string;
  lines: {
    date: string;
    type: PdfStatementLineType;
    number: string;
    reference: string;
    description: string;
    debit: string;
    credit: string;
    balance: string;
  }[];
  aging: { current: string; days_1_30: string; days_31_60: string; days_61_90: string; days_over_90: string };
}

/** The statement's definition in the language of `tr`; pure, as the documents' is. */
export function statementDefinition(s: PdfStatementModel, tr: Translator, pageSize: PageSizeName = 'A4'): TDocumentDefinitions {
  const money = (amount: string) => tr.money(amount, s.currency);
  const title = tr.t('statement.title');
  const period = tr.t('statement.period', { from: tr.date(s.from), to: tr.date(s.to) });

  const header: Content = {
    columns: [
      { width: '*', stack: companyStack(s.company, tr) },
      {
        width: 'auto',
        stack: [
          { text: title.toUpperCase(), fontSize: 20, bold: true, color: ACCENT, alignment: 'right', characterSpacing: 1 },
          { text: period, fontSize: 11, bold: true, alignment: 'right', margin: [0, 2, 0, 0] },
        ],
      },
    ],
    columnGap: 24,
  };
  const facts: TableCell[][] = [
    [
      { text: tr.t('document.currency'), style: 'muted' },
      { text: s.currency, alignment: 'right' },
    ],
    [
      { text: tr.t('statement.opening_balance'), style: 'muted' },
      { text: money(s.opening), alignment: 'right' },
    ],
    [
      { text: tr.t('statement.closing_balance'), bold: true, style: 'muted' },
      { text: money(s.closing), bold: true, fontSize: 12, color: ACCENT, alignment: 'right' },
    ],
  ];
  const parties: Content = {
    columns: [
      { width: '*', stack: customerStack(s.customer, tr.t('statement.account_of'), tr) },
      { width: 210, table: { widths: ['*', 'auto'], body: facts }, layout: 'billingPairs' },
    ],
    columnGap: 24,
  };

  const heads = ['statement.date', 'statement.entry', 'statement.reference', 'statement.debit', 'statement.credit', 'statement.balance'];
  const head = heads.map((key, i) => ({
    text: tr.t(key).toUpperCase(),
    style: 'tableHeader',
    alignment: i < 3 ? ('left' as const) : ('right' as const),
  }));
  const right = (text: string) => ({ text, alignment: 'right' as const });
  const opening: TableCell[] = [
    { text: tr.date(s.from) },
    { text: tr.t('statement.opening_balance'), colSpan: 4, bold: true },
    {},
    {},
    {},
    { ...right(money(s.opening)), bold: true },
  ];
  // a zero side of a line stays empty, as on a ledger
  const zero = (amount: string) => /^0(\.0+)?$/.test(amount);
  const rows = s.lines.map((l): TableCell[] => [
    { text: tr.date(l.date) },
    {
      stack: [
        { text: `${tr.t(`statement.type.${l.type}`)} ${l.number}`, bold: true },
        ...(l.description.trim() ? [{ text: l.description, fontSize: 8.5, color: MUTED }] : []),
      ],
    },
    { text: l.reference === l.number ? '' : l.reference },
    right(zero(l.debit) ? '' : money(l.debit)),
    right(zero(l.credit) ? '' : money(l.credit)),
    right(money(l.balance)),
  ]);
  const closing: TableCell[] = [
    { text: tr.date(s.to) },
    { text: tr.t('statement.closing_balance'), colSpan: 4, bold: true },
    {},
    {},
    {},
    { ...right(money(s.closing)), bold: true, color: ACCENT },
  ];
  const table: Content = {
    margin: [0, 16, 0, 0],
    table: { headerRows: 1, dontBreakRows: true, widths: [58, '*', 60, 66, 66, 70], body: [head, opening, ...rows, closing] },
    layout: 'billingItems',
  };

  const buckets = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
  const aging: Content = {
    margin: [0, 16, 0, 0],
    unbreakable: true,
    stack: [
      { text: tr.t('statement.aging').toUpperCase(), style: 'label', margin: [0, 0, 0, 3] },
      {
        table: {
          widths: buckets.map(() => '*'),
          body: [
            buckets.map((b) => ({ text: tr.t(`statement.aging.${b}`), style: 'muted', alignment: 'right' as const })),
            buckets.map((b) => right(money(s.aging[b]))),
          ],
        },
        layout: 'billingPairs',
      },
    ],
  };

  return pageDefinition({
    pageSize,
    tr,
    company: s.company,
    content: [header, rule(contentWidth(pageSize), [0, 14, 0, 12]), parties, table, aging],
    footer: `${title} · ${period}`,
    info: { title: `${title} ${s.customer.name}`, subject: period, date: s.to },
  });
}
