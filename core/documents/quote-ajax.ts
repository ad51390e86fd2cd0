import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { DocumentsContext } from './documents.ts';

/** The visitor's answer: `quote_id` and the page's one-time `token` (contract §6). */
const answerFields = { quote_id: 'The quote id', token: 'The one-time token of the public quote page' };

/** The quote builder's and the visitor's admin-ajax actions (contract §6). */
export function quoteAjaxActions(d: DocumentsContext): AjaxAction[] {
  return [
    {
      action: 'billing_accept_quote',
      aliases: ['billing_quote_accept'],
      capability: null,
      nopriv: true,
      fields: { ...answerFields, signature: 'With the e-signature addon: the signature' },
      handler: async (req) => {
        const { quote, invoice } = await d.quotes.accept(Number(req.params.quote_id), {
          token: String(req.params.token ?? ''), signature: stringOrUndefined(req.params.signature), ip: req.ip,
        });
        return { quote_id: quote.id, status: quote.status, invoice_id: invoice?.id ?? null };
      },
    },
    {
      action: 'billing_decline_quote',
      aliases: ['billing_quote_decline'],
      capability: null,
      nopriv: true,
      fields: { ...answerFields, reason: 'Why (optional)' },
      handler: async (req) => {
        const { quote } = await d.quotes.decline(Number(req.params.quote_id), {
          token: String(req.params.token ?? ''), reason: stringOrUndefined(req.params.reason)?.slice(0, 2000), ip: req.ip,
        });
        return { quote_id: quote.id, status: quote.status };
      },
    },
  ];
}

function stringOrUndefined(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
