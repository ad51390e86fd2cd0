// The item library (docs/item-library.md): what a business sells, kept once — REST `/items`, the
// builders' suggestions as an item name is typed (`billing_search_items`), and the Items screen.
import {
  BillingError,
  COLLECTION_ARGS,
  collectionResponse,
  definePlugin,
  filter,
  isCurrency,
  pageWindow,
  RestResponse,
} from '../../core/plugin-api.ts';
import { ITEM_FIELDS, ITEM_REPRESENTATION, ItemStore } from './items.ts';
import { itemsScreen } from './screen.ts';
import { itemsImport } from './item-import.ts';

/** The plugin's own services: the items' store. */
type Services = { items: ItemStore };

/** Reading the library is part of building documents; changing it, of editing them (a price list is sales' tool). */
const VIEW = 'bill_view_invoices';
const CHANGE = 'bill_edit_invoice';
/** At most this many suggestions per search, and this much of the term is read. */
export const SEARCH_LIMIT = 20;
export const TERM_MAX = 200;

const ONE = '/items/(?P<id>[\\d]+)';
const ID_ARGS = { id: { type: 'integer', minimum: 1, required: true, description: 'The item id.' } };
/** The item a route names, through the core's scoped resolver (kind `item`, declared below). */
const ITEM = { param: 'id', kind: 'item' };

export default definePlugin<Services>({
  services: (ctx) => ({ items: new ItemStore(ctx) }),
  name: 'item-library',
  version: '1.0.0',
  compatibility: '^0.1.0',
  title: 'Item library',
  description: 'Products and services kept once, with price, unit and tax, suggested in the invoice and quote builders.',
  migrations: [
    {
      name: '0001_items',
      up: `
        create table item_library_items (
          id bigserial primary key,
          name text not null check (length(name) between 1 and 500),
          description text not null default '',
          price numeric not null check (price >= 0),
          currency text check (currency ~ '^[A-Z]{3}$'),
          unit text check (length(unit) between 2 and 3),
          tax_rate numeric check (tax_rate between 0 and 100),
          taxable boolean not null default true,
          sku text,
          created_by int,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        );
        create index item_library_items_name on item_library_items (lower(name));
        create index item_library_items_owner on item_library_items (created_by);
      `,
    },
  ],
  // an item is its creator's: under an own scope (team-roles) a user's library is the items they made
  objects: [{ kind: 'item', noun: 'library item', table: 'item_library_items', owner: 'created_by' }],
  rest: [
    {
      path: '/items',
      methods: 'GET',
      capability: VIEW,
      schema: ITEM_REPRESENTATION,
      args: {
        ...COLLECTION_ARGS,
        search: { ...COLLECTION_ARGS.search, maxLength: TERM_MAX, description: 'Text in the name, SKU or description.' },
      },
      description: 'The library, by name.',
      handler: async (req, ctx) => {
        const { page, perPage } = pageWindow(req.params);
        const search = typeof req.params.search === 'string' ? req.params.search.trim() : '';
        const scope = await ctx.api.scope.of('item', req.user);
        const { items, total } = await ctx.self.items.list({ page, perPage, search: search || undefined, scope });
        return collectionResponse(req, items, total);
      },
    },
    {
      path: '/items',
      methods: 'POST',
      capability: CHANGE,
      schema: ITEM_REPRESENTATION,
      args: { ...ITEM_FIELDS, name: { ...ITEM_FIELDS.name!, required: true }, price: { ...ITEM_FIELDS.price!, required: true } },
      description: 'Add an item to the library.',
      handler: async (req, ctx) => {
        const item = await ctx.self.items.create(req.params, req.actor);
        return new RestResponse(item, 201, { Location: `${ctx.config.baseUrl}/wp-json/billing/v1/items/${item.id}` });
      },
    },
    {
      path: ONE,
      methods: 'GET',
      capability: VIEW,
      object: ITEM,
      schema: ITEM_REPRESENTATION,
      args: ID_ARGS,
      description: 'One item.',
      handler: async (req, ctx) => ctx.self.items.get(req.params.id),
    },
    {
      path: ONE,
      methods: 'PUT',
      capability: CHANGE,
      object: ITEM,
      schema: ITEM_REPRESENTATION,
      args: { ...ID_ARGS, ...ITEM_FIELDS },
      description: 'Change an item: the fields given; null clears currency, unit, tax rate or SKU. Documents keep their lines.',
      handler: async (req, ctx) => {
        const { id, ...fields } = req.params;
        return ctx.self.items.update(id, Object.fromEntries(Object.entries(fields).filter(([k]) => k in ITEM_FIELDS)), req.actor);
      },
    },
    {
      path: ONE,
      methods: 'DELETE',
      capability: CHANGE,
      object: ITEM,
      args: ID_ARGS,
      description: 'Remove an item from the library; documents keep their lines.',
      handler: async (req, ctx) => ({ deleted: true, previous: await ctx.self.items.delete(req.params.id, req.actor) }),
    },
  ],
  ajax: [
    {
      action: 'billing_search_items',
      capability: CHANGE,
      // the legacy table lists it under the same name with manage_options
      legacyCapability: 'manage_options',
      fields: {
        term: `text searched in the name, SKU and description (case-insensitive); names starting with it first; at most ${TERM_MAX} characters are read`,
        currency: "the document's currency: only items in it or in none (optional)",
      },
      handler: async (req, ctx) => {
        const term = typeof req.params.term === 'string' ? req.params.term.trim().slice(0, TERM_MAX) : '';
        const currency = typeof req.params.currency === 'string' ? req.params.currency.trim().toUpperCase() : '';
        if (currency && !isCurrency(currency))
          throw new BillingError('rest_invalid_param', `currency ${currency} is not an ISO 4217 code.`, {
            params: { currency: `currency ${currency} is not an ISO 4217 code.` },
          });
        const scope = await ctx.api.scope.of('item', req.user!);
        return ctx.self.items.search({ term, currency: currency || undefined, limit: SEARCH_LIMIT, scope });
      },
    },
  ],
  listeners: [
    // the builders offer the library's items as the item name is typed
    filter('billing_admin_item_sources', () => async (sources) => [...sources, { action: 'billing_search_items', label: 'Item library' }]),
    // a price list comes in from a CSV (`POST /imports?resource=items`) like clients and invoices do
    filter('billing_import_resources', (ctx) => async (resources) => [...resources, itemsImport(ctx.self.items)]),
    // the library travels with the business's export and comes back with its ids
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'item-library/items', table: 'item_library_items', key: ['id'] },
    ]),
  ],
  screens: [itemsScreen],
});
