import type { Content } from 'pdfmake/interfaces.js';
import { html, raw, type Html, type Translator } from '../../core/plugin-api.ts';
// The "Pay by bank transfer" block on an invoice's PDF and public page: account, payment reference and
// the code to scan. Built from TransferDetails so both show the same thing, in the invoice's language (texts.ts).
import { groupedRf } from './references.ts';
import type { TransferDetails } from './payment-codes.ts';

const shownReference = (ref: string) =>
  ref.startsWith('RF')
    ? groupedRf(ref)
    : ref.replace(/^(\d{2})((?:\d{5}){5})$/, (_, a: string, b: string) => `${a} ${b.replace(/(\d{5})(?=\d)/g, '$1 ')}`);
const grouped = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');

/** The block's rows: label, value, and whether the value is the reference (printed bold). */
function facts(d: TransferDetails, tr: Translator): Array<[string, string, boolean]> {
  const rows: Array<[string, string, boolean]> = [];
  if (d.holder) rows.push([tr.t('bank_transfer.account_holder'), d.holder, false]);
  rows.push([tr.t('bank_transfer.iban'), grouped(d.iban), false]);
  if (d.bic) rows.push([tr.t('bank_transfer.bic'), d.bic, false]);
  if (d.reference) rows.push([tr.t('bank_transfer.payment_reference'), shownReference(d.reference), true]);
  return rows;
}

/** The block for the PDF (pdfmake draws the code's SVG as vectors). */
export function pdfBlock(d: TransferDetails, tr: Translator): Content {
  const table: Content = {
    table: {
      widths: ['auto', '*'],
      body: facts(d, tr).map(([k, v, bold]) => [
        { text: k, color: '#6b7280' },
        { text: v, bold },
      ]),
    },
    layout: 'noBorders',
    fontSize: 9,
  };
  const heading: Content = {
    text: tr.t('bank_transfer.heading').toUpperCase(),
    fontSize: 8,
    bold: true,
    color: '#6b7280',
    characterSpacing: 0.6,
    margin: [0, 0, 0, 4],
  };
  if (d.swiss) return [{ unbreakable: true, margin: [0, 18, 0, 0], stack: [heading, table] }, swissPart(d.swiss, tr)];
  if (d.code?.kind === 'epc') {
    return {
      unbreakable: true,
      margin: [0, 18, 0, 0],
      columns: [
        { width: '*', stack: [heading, table] },
        {
          width: 110,
          stack: [
            { svg: d.code.svg, width: 110 },
            { text: tr.t('bank_transfer.epc_caption'), fontSize: 7, color: '#6b7280', alignment: 'center' },
          ],
        },
      ],
    };
  }
  return { unbreakable: true, margin: [0, 18, 0, 0], stack: [heading, table] };
}

/** The block for the public page (the code as inline SVG). */
export function pageBlock(d: TransferDetails, tr: Translator): Html {
  const rows = facts(d, tr).map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`);
  const code = d.code
    ? html`<figure class="payment-code" role="img" aria-label="${tr.t(d.code.kind === 'epc' ? 'bank_transfer.epc_alt' : 'bank_transfer.swiss_alt')}" style="max-width:${d.code.kind === 'epc' ? '12em' : '40em'};margin:.5em 0">${raw(d.code.svg)}<figcaption>${tr.t(d.code.kind === 'epc' ? 'bank_transfer.epc_caption' : 'bank_transfer.swiss_caption')}</figcaption></figure>`
    : html``;
  return html`<section class="bank-transfer"><h3>${tr.t('bank_transfer.heading')}</h3><table>${rows}</table>${code}</section>`;
}

const MM = 72 / 25.4;
const title = (text: string): Content => ({ text, bold: true, fontSize: 11, margin: [0, 0, 0, 4] });
const head = (text: string, size: number): Content => ({ text, bold: true, fontSize: size, margin: [0, 4, 0, 1] });
const lines = (texts: string[], size: number): Content => ({ text: texts.filter(Boolean).join('\n'), fontSize: size });

/**
 * The QR-bill's receipt and payment part (SIX layout: 62 mm receipt, 148 mm payment part, 105 mm tall)
 * on a page of its own, with the library's QR code.
 */
function swissPart(p: NonNullable<TransferDetails['swiss']>, tr: Translator): Content {
  const ref = shownReference(p.reference);
  const words = {
    receipt: tr.t('bank_transfer.qr_bill.receipt'),
    paymentPart: tr.t('bank_transfer.qr_bill.payment_part'),
    payableTo: tr.t('bank_transfer.qr_bill.payable_to'),
    reference: tr.t('bank_transfer.qr_bill.reference'),
    additionalInformation: tr.t('bank_transfer.qr_bill.additional_information'),
    currency: tr.t('bank_transfer.qr_bill.currency'),
    amount: tr.t('bank_transfer.qr_bill.amount'),
    acceptancePoint: tr.t('bank_transfer.qr_bill.acceptance_point'),
  };
  const receipt = {
    width: 52 * MM,
    stack: [
      title(words.receipt),
      head(words.payableTo, 6),
      lines(p.creditor, 8),
      ...(ref ? [head(words.reference, 6), lines([ref], 8)] : []),
      {
        columns: [
          { width: 22 * MM, stack: [head(words.currency, 6), lines([p.currency], 8)] },
          { stack: [head(words.amount, 6), lines([p.amount], 8)] },
        ],
      },
      { text: words.acceptancePoint, bold: true, fontSize: 6, alignment: 'right', margin: [0, 14, 0, 0] },
    ],
  };
  const payment = {
    width: 51 * MM,
    stack: [
      title(words.paymentPart),
      { svg: p.qrSvg, width: 46 * MM, margin: [0, 4, 0, 6] },
      {
        columns: [
          { width: 22 * MM, stack: [head(words.currency, 8), lines([p.currency], 10)] },
          { stack: [head(words.amount, 8), lines([p.amount], 10)] },
        ],
      },
    ],
  };
  const details = {
    width: '*',
    stack: [
      head(words.payableTo, 8),
      lines(p.creditor, 10),
      ...(ref ? [head(words.reference, 8), lines([ref], 10)] : []),
      ...(p.message ? [head(words.additionalInformation, 8), lines([p.message], 10)] : []),
    ],
  };
  const pad = 5 * MM;
  const dashed = (x2: number, y2: number) => ({ canvas: [{ type: 'line', x1: 0, y1: 0, x2, y2, lineWidth: 0.5, dash: { length: 3 } }] });
  return [
    // a page of its own, in the flow (pdfmake moves a block placed over the bottom margin to yet another page)
    { text: '', pageBreak: 'before' },
    {
      stack: [
        dashed(210 * MM, 0),
        {
          columns: [
            { ...receipt, margin: [pad, pad, pad, 0] },
            { width: 0.5, ...dashed(0, 105 * MM - 1) },
            { ...payment, margin: [pad, pad, 0, 0] },
            { ...details, margin: [pad, pad + 11, pad, 0] },
          ],
          columnGap: 0,
        },
      ],
    },
  ] as Content;
}
