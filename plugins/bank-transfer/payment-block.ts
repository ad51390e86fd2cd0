import type { Content } from 'pdfmake/interfaces.js';
import { html, raw, type Html } from '../../core/plugin-api.ts';
// The "Pay by bank transfer" block on an invoice's PDF and public page: account, payment reference and
// the code to scan. Built from TransferDetails so both show the same thing; the words are in labels.ts.
import { groupedRf } from './references.ts';
import { LABELS } from './labels.ts';
import type { TransferDetails } from './payment-codes.ts';

const shownReference = (ref: string) =>
  ref.startsWith('RF')
    ? groupedRf(ref)
    : ref.replace(/^(\d{2})((?:\d{5}){5})$/, (_, a: string, b: string) => `${a} ${b.replace(/(\d{5})(?=\d)/g, '$1 ')}`);
const grouped = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');

function facts(d: TransferDetails): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  if (d.holder) rows.push([LABELS.accountHolder, d.holder]);
  rows.push([LABELS.iban, grouped(d.iban)]);
  if (d.bic) rows.push([LABELS.bic, d.bic]);
  if (d.reference) rows.push([LABELS.paymentReference, shownReference(d.reference)]);
  return rows;
}

/** The block for the PDF (pdfmake draws the code's SVG as vectors). */
export function pdfBlock(d: TransferDetails): Content {
  const table: Content = {
    table: {
      widths: ['auto', '*'],
      body: facts(d).map(([k, v]) => [
        { text: k, color: '#6b7280' },
        { text: v, bold: k === LABELS.paymentReference },
      ]),
    },
    layout: 'noBorders',
    fontSize: 9,
  };
  const heading: Content = {
    text: LABELS.bankDetails.toUpperCase(),
    fontSize: 8,
    bold: true,
    color: '#6b7280',
    characterSpacing: 0.6,
    margin: [0, 0, 0, 4],
  };
  if (d.code?.kind === 'swiss') {
    // the payment part is A6 landscape (210 × 105 mm) at the foot of its own page, as SIX asks
    return [
      { unbreakable: true, margin: [0, 18, 0, 0], stack: [heading, table] },
      { svg: d.code.svg, width: 595.28, absolutePosition: { x: 0, y: 841.89 - 297.64 }, pageBreak: 'before' },
    ];
  }
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
            { text: LABELS.epcCaption, fontSize: 7, color: '#6b7280', alignment: 'center' },
          ],
        },
      ],
    };
  }
  return { unbreakable: true, margin: [0, 18, 0, 0], stack: [heading, table] };
}

/** The block for the public page (the code as inline SVG). */
export function pageBlock(d: TransferDetails): Html {
  const rows = facts(d).map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`);
  const code = d.code
    ? html`<figure class="payment-code" role="img" aria-label="${d.code.kind === 'epc' ? LABELS.epcAlt : LABELS.swissAlt}" style="max-width:${d.code.kind === 'epc' ? '12em' : '40em'};margin:.5em 0">${raw(d.code.svg)}<figcaption>${d.code.kind === 'epc' ? LABELS.epcCaption : LABELS.swissCaption}</figcaption></figure>`
    : html``;
  return html`<section class="bank-transfer"><h3>${LABELS.bankDetails}</h3><table>${rows}</table>${code}</section>`;
}
