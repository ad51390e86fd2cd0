import type { AjaxAction, AjaxRequest } from '../http/ajax/ajax-action.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { checkFields } from '../validation/args.ts';
import { builderInput, isNew } from './builder-input.ts';
import { clientOf } from './document-objects.ts';
import type { BillingDocument } from './document.ts';
import { QUOTE_ARGS } from './document-schema.ts';
import { quoteRepresentation, representationContext } from './representation.ts';
import type { DocumentsContext } from './services.ts';

const SAVE_FIELDS: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, description: 'The quote id' } };

/** The visitor's answer: `quote_id` and the page's one-time `token` (docs/ajax.md). */
const answerFields = { quote_id: 'The quote id', token: 'The one-time token of the public quote page' };

/** The visitor's actions name a quote by its public page's token, which decides: no signed-in scope applies. */
const BY_TOKEN = { quote_id: "the public page's one-time token decides, not a signed-in user's scope" };

/** The quote builder's and the visitor's admin-ajax actions (docs/ajax.md). */
export function quoteAjaxActions(d: DocumentsContext): AjaxAction[] {
  const represent = async (doc: BillingDocument, req: AjaxRequest) => quoteRepresentation(doc, await representationContext(d, req));
  return [
    {
      action: 'billing_save_quote',
      capability: { create: 'bill_create_quote', edit: 'bill_edit_quote' },
      object: [{ param: 'id', kind: 'quote' }, clientOf('quote.client_id')],
      legacyCapability: 'manage_options',
      fields: {
        id: 'the quote to save; absent or empty to create one',
        quote: 'the document as JSON text, the body of POST /quotes (accepted or declined quotes cannot change)',
      },
      handler: async (req) => {
        const input = builderInput(req.params, 'quote', QUOTE_ARGS);
        const doc = isNew(req.params)
          ? await d.quotes.create(input, { actor: req.actor, source: 'ajax' })
          : await d.quotes.update(checkFields(SAVE_FIELDS, req.params).id, input, req.actor);
        return represent(doc, req);
      },
    },
    {
      action: 'billing_accept_quote',
      aliases: ['billing_quote_accept'],
      capability: null,
      nopriv: true,
      unscoped: BY_TOKEN,
      fields: {
        ...answerFields,
        signature: 'With the e-signature addon: the signature, a data:image/png;base64 URL',
        signer_name: "With the e-signature addon: the signer's name",
      },
      handler: async (req) => {
        const { quote, invoice } = await d.quotes.accept(Number(req.params.quote_id), {
          token: String(req.params.token ?? ''),
          signature: stringOrUndefined(req.params.signature),
          ip: req.ip,
          userAgent: req.userAgent,
          fields: textFields(req.params),
        });
        return { quote_id: quote.id, status: quote.status, invoice_id: invoice?.id ?? null };
      },
    },
    {
      action: 'billing_decline_quote',
      aliases: ['billing_quote_decline'],
      capability: null,
      nopriv: true,
      unscoped: BY_TOKEN,
      fields: { ...answerFields, reason: 'Why (optional)' },
      handler: async (req) => {
        const { quote } = await d.quotes.decline(Number(req.params.quote_id), {
          token: String(req.params.token ?? ''),
          reason: stringOrUndefined(req.params.reason)?.slice(0, 2000),
          ip: req.ip,
        });
        return { quote_id: quote.id, status: quote.status };
      },
    },
  ];
}

/** The posted fields that are text, for `billing_quote_acceptance` (the token is left out: it is spent). */
function textFields(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (typeof v === 'string' && k !== 'token' && k !== '_wpnonce') out[k] = v;
  return out;
}

function stringOrUndefined(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
