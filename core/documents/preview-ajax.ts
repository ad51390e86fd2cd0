import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import { builderInput } from './builder-input.ts';
import { clientOf } from './document-objects.ts';
import { INVOICE_ARGS, QUOTE_ARGS } from './document-schema.ts';
import type { DocumentService } from './document-service.ts';
import type { DocumentsContext } from './services.ts';

/**
 * `billing_preview_invoice` / `billing_preview_quote`: the builder's live totals. The same input as the
 * save action, checked by the same schemas and computed by the same code, with nothing written.
 */
export function previewAjaxActions(d: DocumentsContext): AjaxAction[] {
  const preview = (kind: 'invoice' | 'quote', service: DocumentService, capability: string): AjaxAction => ({
    action: `billing_preview_${kind}`,
    capability,
    // the customer shown is the client's: one outside the caller's scope is one that does not exist
    object: clientOf(`${kind}.client_id`),
    fields: { [kind]: `the builder's ${kind} as JSON text, the body of POST /${kind}s` },
    handler: async (req) => {
      const p = await service.preview(builderInput(req.params, kind, kind === 'invoice' ? INVOICE_ARGS : QUOTE_ARGS));
      return {
        currency: p.currency,
        customer: { name: p.customer.name, email: p.customer.email, country: p.customer.country },
        items: p.items.map((i) => ({ amount: Number(i.amount) })),
        totals: { subtotal: Number(p.subtotal), discount: Number(p.discount), tax: Number(p.tax), total: Number(p.total) },
        tax_category: p.tax_category,
        tax_statement: p.tax_statement,
        tax_rate: Number(p.tax_rate),
      };
    },
  });
  return [preview('invoice', d.invoices, 'bill_view_invoices'), preview('quote', d.quotes, 'bill_view_quotes')];
}
