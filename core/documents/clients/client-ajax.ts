import type { AjaxAction } from '../../http/ajax/ajax-action.ts';
import type { ClientService } from './client-service.ts';

/** At most this many answers per autocomplete request. */
export const CLIENT_SEARCH_LIMIT = 20;

/** The search term of an autocomplete request: text, trimmed, at most 200 characters. */
export function searchTerm(params: Record<string, unknown>): string {
  return typeof params.term === 'string' ? params.term.trim().slice(0, 200) : '';
}

/** The client autocomplete of the document builders (docs/ajax.md). */
export function clientAjaxActions(d: { clients: ClientService }): AjaxAction[] {
  return [
    {
      action: 'billing_search_clients',
      capability: 'bill_view_clients',
      // the legacy table lists it under the same name with edit_posts
      legacyCapability: 'edit_posts',
      fields: { term: 'text searched in the name, e-mail and company (case-insensitive); empty lists the first clients by name' },
      handler: async (req) => d.clients.search(searchTerm(req.params), CLIENT_SEARCH_LIMIT, req.user ?? undefined),
    },
  ];
}
