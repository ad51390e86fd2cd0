import { COLLECTION_ARGS, collectionResponse } from '../../http/rest/pagination.ts';
import type { RestRequest, RestRoute } from '../../http/rest/route.ts';
import type { HookRegistry } from '../../hooks/registry.ts';
import type { OptionsStore } from '../../options/options.ts';
import { clientRepresentation } from './client-representation.ts';
import type { ClientService } from './client-service.ts';

export interface ClientRouteDeps {
  clients: ClientService;
  options: OptionsStore;
  hooks: HookRegistry;
}

const totalsSchema = {
  type: 'object',
  properties: { invoiced: { type: 'number' }, paid: { type: 'number' }, due: { type: 'number' } },
  required: ['invoiced', 'paid', 'due'],
};

/**
 * The resource's JSON schema: OPTIONS, the OpenAPI document and the tests that validate responses all
 * read this one (every field clientRepresentation writes is required; `billing_rest_client` may add more).
 */
export const CLIENT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'client',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true, description: 'The user id, used as client_id on documents.' },
    name: { type: 'string' },
    email: { type: 'string', format: 'email' },
    company: { type: 'string' },
    country: { type: 'string' },
    vat: { type: 'string' },
    created: { type: 'string', description: 'Y-m-d H:i:s in the site timezone.' },
    counts: {
      type: 'object',
      properties: { invoices: { type: 'integer' }, quotes: { type: 'integer' } },
      required: ['invoices', 'quotes'],
    },
    currency: { type: 'string', description: 'The site currency, in which totals are given.' },
    totals: { ...totalsSchema, description: 'Invoices in the site currency: invoiced and due of issued ones, paid of all.' },
    totals_by_currency: {
      type: 'object',
      additionalProperties: totalsSchema,
      description: 'The same, per currency the client has invoices in.',
    },
  },
  required: ['id', 'name', 'email', 'company', 'country', 'vat', 'created', 'counts', 'currency', 'totals', 'totals_by_currency'],
};

/** `GET /clients` of `billing/v1` (docs/api.md), through ClientService. */
export function clientRoutes(d: ClientRouteDeps): RestRoute[] {
  return [
    {
      path: '/clients',
      methods: 'GET',
      capability: 'bill_view_clients',
      args: COLLECTION_ARGS,
      schema: CLIENT_SCHEMA,
      description: 'List clients.',
      handler: async (req: RestRequest) => {
        const { items, total } = await d.clients.list({
          page: req.params.page,
          per_page: req.params.per_page,
          search: req.params.search || undefined,
          viewer: req.user,
        });
        const o = await d.options.getMany(['currency', 'timezone']);
        const ctx = { currency: o.currency, timezone: o.timezone, hooks: d.hooks, request: req };
        return collectionResponse(req, await Promise.all(items.map((c) => clientRepresentation(c, ctx))), total);
      },
    },
  ];
}
