// The library's items: what a business sells, kept once and copied into document lines. Each change
// is audited in its own transaction; lists and searches are narrowed to the caller's scope.
import {
  audit,
  BillingError,
  containsPattern,
  startsPattern,
  Decimal,
  isCurrency,
  minorUnits,
  siteDateTime,
  timestamp,
  UNIT_ARG,
  type Actor,
  type ArgSchema,
  type ListScope,
  type PluginContext,
  type Tx,
} from '../../core/plugin-api.ts';

/** Most decimals of a price and a rate: those of a document line, so an item always fits one. */
const DECIMALS = 4;

/** An item as REST answers it (docs/item-library.md). */
export interface Item {
  id: number;
  name: string;
  description: string;
  /** Exact decimal text, at least the currency's minor unit when it has one ("120.00", "0.0450"). */
  price: string;
  /** ISO 4217, or null: offered on documents of any currency. */
  currency: string | null;
  /** UN/ECE Recommendation 20 code, or null (one). */
  unit: string | null;
  /** Percent, exact text, or null: the document's rate. */
  tax_rate: string | null;
  taxable: boolean;
  sku: string | null;
  created: string;
  modified: string;
}

interface ItemRow {
  id: string;
  name: string;
  description: string;
  price: string;
  currency: string | null;
  unit: string | null;
  tax_rate: string | null;
  taxable: boolean;
  sku: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, name, description, price::text, currency, unit, tax_rate::text, taxable, sku, created_by, created_at, updated_at';

/** The fields of an item a request may give: one schema for REST's args, OPTIONS, the OpenAPI document and the screen's form. */
export const ITEM_FIELDS: Record<string, ArgSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S', title: 'Name', description: 'What is sold, as a line names it.' },
  description: { type: 'string', maxLength: 5000, title: 'Description', description: "Copied into the line's description." },
  price: {
    type: ['number', 'string'],
    maxLength: 40,
    title: 'Price',
    description: 'Unit price: 0 or more, at most 4 decimals; a decimal string keeps it exact ("120.00").',
  },
  currency: {
    type: ['string', 'null'],
    format: 'currency',
    title: 'Currency',
    description: 'ISO 4217; empty: offered on documents in any currency.',
  },
  unit: {
    ...UNIT_ARG,
    type: ['string', 'null'],
    title: 'Unit',
    description: 'UN/ECE Recommendation 20 code: HUR hour, DAY, MON, KGM, LS…',
  },
  tax_rate: {
    type: ['number', 'string', 'null'],
    maxLength: 40,
    title: 'Tax rate (%)',
    description: "0–100, at most 4 decimals; empty: the document's rate.",
  },
  taxable: { type: 'boolean', title: 'Taxable', description: 'Unticked: the line is never taxed.' },
  sku: { type: ['string', 'null'], maxLength: 100, title: 'SKU', description: 'Your article number; found by the search.' },
};

/** The item's representation schema (the OpenAPI document's, checked against every answer in tests). */
export const ITEM_REPRESENTATION = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'item',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    name: { type: 'string' },
    description: { type: 'string' },
    price: { type: 'string', description: 'Exact decimal text' },
    currency: { type: ['string', 'null'] },
    unit: { type: ['string', 'null'] },
    tax_rate: { type: ['string', 'null'], description: 'Percent, exact decimal text, or null for the document’s rate' },
    taxable: { type: 'boolean' },
    sku: { type: ['string', 'null'] },
    created: { type: 'string', description: 'Y-m-d H:i:s in the site timezone.', readonly: true },
    modified: { type: 'string', description: 'Y-m-d H:i:s in the site timezone.', readonly: true },
  },
};

/** A price padded with zeros to its currency's minor unit: it reads as money, and keeps any digits beyond. */
function priceText(price: string, currency: string | null): string {
  if (!currency) return price;
  const [whole, fraction = ''] = price.split('.');
  const places = Math.max(isCurrency(currency) ? minorUnits(currency) : 0, fraction.length);
  return places ? `${whole}.${fraction.padEnd(places, '0')}` : whole!;
}

function represent(r: ItemRow, timezone: string): Item {
  return {
    id: Number(r.id),
    name: r.name,
    description: r.description,
    price: priceText(r.price, r.currency),
    currency: r.currency,
    unit: r.unit,
    tax_rate: r.tax_rate,
    taxable: r.taxable,
    sku: r.sku,
    created: siteDateTime(timestamp(r.created_at)!, timezone),
    modified: siteDateTime(timestamp(r.updated_at)!, timezone),
  };
}

function invalid(param: string, message: string): BillingError {
  return new BillingError('rest_invalid_param', message, {
    params: { [param]: message },
    details: { [param]: { code: 'rest_invalid_param', message, data: { reason: 'invalid' } } },
  });
}

/** The exact decimal of a price or a rate; ≥ 0 (and ≤ 100 for a rate), at most 4 decimals. */
function exact(value: unknown, param: 'price' | 'tax_rate'): string {
  const d = Decimal.parse(value as string | number, { maxDecimals: DECIMALS, param });
  if (d.sign() < 0) throw invalid(param, `${param} must not be negative.`);
  if (param === 'tax_rate' && d.compare(100) > 0) throw invalid(param, 'tax_rate must be at most 100.');
  return d.toString();
}

/** Empty text and null both mean "none" for the optional fields. */
const orNull = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The columns of a new item, or of a change (only the fields given), checked beyond what the schema says. */
function columns(input: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input.name !== undefined) out.name = String(input.name).trim();
  if (input.description !== undefined) out.description = input.description;
  if (input.price !== undefined) out.price = exact(input.price, 'price');
  if (input.currency !== undefined) out.currency = orNull(input.currency)?.toUpperCase() ?? null;
  if (input.unit !== undefined) out.unit = orNull(input.unit);
  if (input.tax_rate !== undefined)
    out.tax_rate = input.tax_rate === null || input.tax_rate === '' ? null : exact(input.tax_rate, 'tax_rate');
  if (input.taxable !== undefined) out.taxable = input.taxable;
  if (input.sku !== undefined) out.sku = orNull(input.sku);
  return out;
}

/** A line that is never taxed has no rate of its own (the document service refuses such a line too). */
function checkTaxable(item: Record<string, unknown>): void {
  if (item.taxable === false && item.tax_rate !== null && item.tax_rate !== undefined)
    throw invalid('tax_rate', 'tax_rate is set on an item that is not taxable.');
}

export function notFound(): BillingError {
  return new BillingError('billing_rest_not_found', 'No library item has this id.');
}

/** A search or a page of the list: what narrows it, in SQL with its parameters. */
function filters(q: { search?: string; currency?: string; scope: ListScope }): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  if (q.scope.created_by !== undefined) {
    params.push(q.scope.created_by);
    clauses.push(`created_by = $${params.length}`);
  }
  if (q.search) {
    params.push(containsPattern(q.search));
    const n = params.length;
    clauses.push(`(lower(name) like $${n} or lower(coalesce(sku, '')) like $${n} or lower(description) like $${n})`);
  }
  if (q.currency) {
    params.push(q.currency);
    clauses.push(`(currency is null or currency = $${params.length})`);
  }
  return { where: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
}

/** The library's items: REST's CRUD and the builder's search. */
export class ItemStore {
  private readonly ctx: PluginContext;

  constructor(ctx: PluginContext) {
    this.ctx = ctx;
  }

  private timezone(): Promise<string> {
    return this.ctx.options.get('timezone');
  }

  /** A page of items by name, narrowed to `scope` (the caller's `billing_list_scope` for kind `item`) and `search`. */
  async list(q: { page: number; perPage: number; search?: string; scope: ListScope }): Promise<{ items: Item[]; total: number }> {
    const { where, params } = filters(q);
    const [{ n }] = (await this.ctx.db.query<{ n: number }>(`select count(*)::int as n from item_library_items ${where}`, params)) as [
      { n: number },
    ];
    const rows = await this.ctx.db.query<ItemRow>(
      `select ${COLUMNS} from item_library_items ${where}
        order by lower(name), id limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, q.perPage, (q.page - 1) * q.perPage],
    );
    const tz = await this.timezone();
    return { items: rows.map((r) => represent(r, tz)), total: n };
  }

  /**
   * At most `limit` items matching `term` in their name, SKU or description (case-insensitive), those
   * whose name starts with it first, then by name; only those of `currency` or of none, when given.
   */
  async search(q: { term: string; currency?: string; limit: number; scope: ListScope }): Promise<Item[]> {
    const { where, params } = filters({ search: q.term, currency: q.currency, scope: q.scope });
    params.push(startsPattern(q.term), q.limit);
    const rows = await this.ctx.db.query<ItemRow>(
      `select ${COLUMNS} from item_library_items ${where}
        order by (lower(name) like $${params.length - 1}) desc, lower(name), id limit $${params.length}`,
      params,
    );
    const tz = await this.timezone();
    return rows.map((r) => represent(r, tz));
  }

  private async row(id: number, tx?: Tx, lock = false): Promise<ItemRow> {
    const [row] = await (tx ?? this.ctx.db).query<ItemRow>(
      `select ${COLUMNS} from item_library_items where id = $1${lock ? ' for update' : ''}`,
      [id],
    );
    if (!row) throw notFound();
    return row;
  }

  /**
   * The item an imported row is: the one with its SKU when it has one, else the one of its name (case
   * ignored); the oldest when several are. Null for a new item.
   */
  async match(sku: string | null, name: string): Promise<Item | null> {
    const [row] = sku
      ? await this.ctx.db.query<ItemRow>(`select ${COLUMNS} from item_library_items where sku = $1 order by id limit 1`, [sku])
      : await this.ctx.db.query<ItemRow>(`select ${COLUMNS} from item_library_items where lower(name) = lower($1) order by id limit 1`, [
          name,
        ]);
    return row ? represent(row, await this.timezone()) : null;
  }

  async get(id: number): Promise<Item> {
    return represent(await this.row(id), await this.timezone());
  }

  async create(input: Record<string, any>, actor: Actor): Promise<Item> {
    const missing = ['name', 'price'].filter((k) => input[k] === undefined);
    if (missing.length)
      throw new BillingError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, { params: missing });
    const c: Record<string, unknown> = {
      description: '',
      taxable: true,
      currency: null,
      unit: null,
      tax_rate: null,
      sku: null,
      ...columns(input),
    };
    checkTaxable(c);
    const tz = await this.timezone();
    return this.ctx.db.transaction(async (tx) => {
      const [row] = await tx.query<ItemRow>(
        `insert into item_library_items (name, description, price, currency, unit, tax_rate, taxable, sku, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${COLUMNS}`,
        [c.name, c.description, c.price, c.currency, c.unit, c.tax_rate, c.taxable, c.sku, actor.id],
      );
      const item = represent(row!, tz);
      await audit(tx, actor, {
        action: 'item.create',
        objectType: 'item',
        objectId: item.id,
        details: { name: item.name, price: item.price },
      });
      return item;
    });
  }

  /** Changes the fields given; the others stay. */
  async update(id: number, input: Record<string, any>, actor: Actor): Promise<Item> {
    const change = columns(input);
    const tz = await this.timezone();
    return this.ctx.db.transaction(async (tx) => {
      const before = await this.row(id, tx, true);
      const names = Object.keys(change);
      if (!names.length) return represent(before, tz);
      checkTaxable({ ...before, ...change });
      const [row] = await tx.query<ItemRow>(
        `update item_library_items set ${names.map((k, i) => `${k} = $${i + 2}`).join(', ')}, updated_at = now()
          where id = $1 returning ${COLUMNS}`,
        [id, ...names.map((k) => change[k])],
      );
      await audit(tx, actor, { action: 'item.update', objectType: 'item', objectId: id, details: change });
      return represent(row!, tz);
    });
  }

  /** Removes an item; the documents that used it keep their lines (a line is a copy). */
  async delete(id: number, actor: Actor): Promise<Item> {
    const tz = await this.timezone();
    return this.ctx.db.transaction(async (tx) => {
      const [row] = await tx.query<ItemRow>(`delete from item_library_items where id = $1 returning ${COLUMNS}`, [id]);
      if (!row) throw notFound();
      await audit(tx, actor, { action: 'item.delete', objectType: 'item', objectId: id, details: { name: row.name } });
      return represent(row, tz);
    });
  }
}
