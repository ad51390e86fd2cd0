import { html, type Html } from '../http/html.ts';

/**
 * The pay form's "Save for future invoices" box (docs/payments.md, Autopay): every text the customer
 * reads about saving a card or mandate is here, and only here.
 */
export const SAVE_METHOD_TEXTS = {
  label: 'Save for future invoices',
  explanation:
    'We keep a reference to this card or mandate at the payment provider, never its number, and may charge it for your future invoices. You can ask us to remove it at any time.',
  autopay: 'Your future invoices of this subscription are paid automatically with the card or mandate you pay with now.',
} as const;

/** When the page offers the box: the invoice has a client and the gateway can save; `autopay` ticks it and says why. */
export type SaveMethodOffer = { autopay: boolean } | null;

/** The box inside one gateway's pay form (`save_method=1` when ticked). */
export function saveMethodField(method: string, offer: SaveMethodOffer): Html | '' {
  if (!offer) return '';
  const id = `save-method-${method}`;
  if (offer.autopay) {
    // an autopay invoice always saves: the box is shown ticked and the field sent, so the customer knows
    return html`<input type="hidden" name="save_method" value="1" />
      <p class="muted"><input id="${id}" type="checkbox" checked disabled /> <label for="${id}">${SAVE_METHOD_TEXTS.label}</label>
      ${SAVE_METHOD_TEXTS.autopay}</p>`;
  }
  return html`<p class="muted"><input id="${id}" type="checkbox" name="save_method" value="1" />
      <label for="${id}">${SAVE_METHOD_TEXTS.label}</label> ${SAVE_METHOD_TEXTS.explanation}</p>`;
}
