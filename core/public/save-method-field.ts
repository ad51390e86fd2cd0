import { html, type Html } from '../http/html.ts';
import type { Translator } from '../i18n/translator.ts';

/** When the page offers the box: the invoice has a client and the gateway can save; `autopay` ticks it and says why. */
export type SaveMethodOffer = { autopay: boolean } | null;

/**
 * The pay form's "Save for future invoices" box (docs/payments.md, Autopay), `save_method=1` when
 * ticked; its words are the keys `page.save_method*` in the customer's language.
 */
export function saveMethodField(method: string, offer: SaveMethodOffer, tr: Translator): Html | '' {
  if (!offer) return '';
  const id = `save-method-${method}`;
  if (offer.autopay) {
    // an autopay invoice always saves: the box is shown ticked and the field sent, so the customer knows
    return html`<input type="hidden" name="save_method" value="1" />
      <p class="muted"><input id="${id}" type="checkbox" checked disabled /> <label for="${id}">${tr.t('page.save_method')}</label>
      ${tr.t('page.save_method_autopay')}</p>`;
  }
  return html`<p class="muted"><input id="${id}" type="checkbox" name="save_method" value="1" />
      <label for="${id}">${tr.t('page.save_method')}</label> ${tr.t('page.save_method_explanation')}</p>`;
}
