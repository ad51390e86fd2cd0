import { COLLECTION_ARGS, collectionResponse } from '../../http/rest/pagination.ts';
import { RestResponse, type ArgSchema, type RestRequest, type RestRoute } from '../../http/rest/route.ts';
import type { HookRegistry } from '../../hooks/registry.ts';
import type { Identity } from '../../identity/identity.ts';
import { LOCALE_TAG_SCHEMA } from '../../i18n/locale-tag.ts';
import type { OptionsStore } from '../../options/options.ts';
import { clientRepresentation } from './client-representation.ts';
import type { ClientService } from './client-service.ts';
import { saveClient, type ClientFields } from './client-writes.ts';

export interface ClientRouteDeps {
  clients: ClientService;
  options: OptionsStore;
  hooks: HookRegistry;
  /** Clients are users: made and changed through the identity module. */
  identity: Identity;
  config: { baseUrl: string };
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
    address: { type: 'string', description: 'Postal address, one line per line.' },
    locale: { type: ['string', 'null'], description: 'The BCP 47 tag its documents print in; null prints in the option site_locale.' },
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
  required: [
    'id',
    'name',
    'email',
    'company',
    'country',
    'vat',
    'address',
    'locale',
    'created',
    'counts',
    'currency',
    'totals',
    'totals_by_currency',
  ],
};

/** What a client is written from; the user service checks each field again with its own schema. */
const CLIENT_FIELDS: Record<string, ArgSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 250, description: 'The display name.' },
  email: { type: 'string', format: 'email', maxLength: 254 },
  company: { type: 'string', maxLength: 250 },
  country: { type: 'string', pattern: '^([A-Za-z]{2})?$', description: 'ISO 3166-1 alpha-2, or empty.' },
  vat: { type: 'string', maxLength: 32 },
  address: { type: 'string', maxLength: 1000 },
  locale: { ...LOCALE_TAG_SCHEMA, type: ['string', 'null'] },
};

const ID_ARGS: Record<string, ArgSchema> = {
  id: { type: 'integer', minimum: 1, required: true, description: 'The client (a user with role billing_client).' },
};

/** `GET|POST /clients`, `GET|PUT /clients/{id}` of `billing/v1` (docs/api.md), through ClientService. */
export function clientRoutes(d: ClientRouteDeps): RestRoute[] {
  const represent = async (req: RestRequest, id: number) => {
    const o = await d.options.getMany(['currency', 'timezone']);
    return clientRepresentation(await d.clients.get(id), { currency: o.currency, timezone: o.timezone, hooks: d.hooks, request: req });
  };
  const fields = (req: RestRequest): ClientFields =>
    Object.fromEntries(Object.keys(CLIENT_FIELDS).flatMap((k) => (req.params[k] === undefined ? [] : [[k, req.params[k]]])));
  const one = '/clients/(?P<id>[\\d]+)';
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
    {
      path: '/clients',
      methods: 'POST',
      capability: 'bill_edit_clients',
      args: {
        ...CLIENT_FIELDS,
        name: { ...CLIENT_FIELDS.name, required: true },
        email: { ...CLIENT_FIELDS.email, required: true },
      },
      description: 'Create a client.',
      response: { status: 201, schema: CLIENT_SCHEMA, errors: ['billing_conflict'] },
      handler: async (req) => {
        const user = await saveClient(d.identity, null, fields(req), req.actor);
        return new RestResponse(await represent(req, user.id), 201, {
          Location: `${d.config.baseUrl}/wp-json/billing/v1/clients/${user.id}`,
        });
      },
    },
    {
      path: one,
      object: { param: 'id', kind: 'client' },
      methods: 'GET',
      capability: 'bill_view_clients',
      args: ID_ARGS,
      schema: CLIENT_SCHEMA,
      description: 'Retrieve a client.',
      response: { schema: CLIENT_SCHEMA },
      handler: async (req) => represent(req, req.params.id),
    },
    {
      path: one,
      object: { param: 'id', kind: 'client' },
      methods: 'PUT',
      capability: 'bill_edit_clients',
      args: { ...ID_ARGS, ...CLIENT_FIELDS },
      description: 'Change a client: only the fields sent change.',
      response: { schema: CLIENT_SCHEMA, errors: ['billing_conflict'] },
      handler: async (req) => {
        await saveClient(d.identity, req.params.id, fields(req), req.actor);
        return represent(req, req.params.id);
      },
    },
  ];
}
