// The library's items from a CSV (`POST /imports?resource=items`): the generic columns are the item's own
// fields. Importing the same file again changes nothing: a row is the item with its SKU, else the one of
// its name; an item the row describes differently is updated to what the file says.
import {
  BillingError,
  Decimal,
  ImportRowError,
  isCurrency,
  isUnitCode,
  type ImportResource,
  type ImportWriteResult,
} from '../../core/plugin-api.ts';
import type { Item, ItemStore } from './items.ts';

/** An item as a row gives it: the fields the store takes. */
export type ItemRecord = Omit<Item, 'id' | 'created' | 'modified'>;

const LIMITS = { name: 500, description: 5000, sku: 100 } as const;

/** Whether `item` already says what `r` says (decimals compared as numbers: "120.00" is "120"). */
function same(item: Item, r: ItemRecord): boolean {
  const eq = (a: string | null, b: string | null) => (a === null || b === null ? a === b : Decimal.parse(a).compare(b) === 0);
  return (
    item.name === r.name &&
    item.description === r.description &&
    eq(item.price, r.price) &&
    item.currency === r.currency &&
    item.unit === r.unit &&
    eq(item.tax_rate, r.tax_rate) &&
    item.taxable === r.taxable &&
    item.sku === r.sku
  );
}

export function itemsImport(store: ItemStore): ImportResource<ItemRecord> {
  return {
    name: 'items',
    label: 'Library items',
    fields: [
      { name: 'name', label: 'Name', synonyms: ['Item', 'Item Name', 'Product', 'Product Name', 'Service'] },
      { name: 'description', label: 'Description', synonyms: ['Notes', 'Details'] },
      { name: 'price', label: 'Price', synonyms: ['Unit Price', 'Rate', 'Cost'] },
      { name: 'currency', label: 'Currency' },
      { name: 'unit', label: 'Unit', synonyms: ['Unit Code'] },
      { name: 'tax_rate', label: 'Tax rate (%)', synonyms: ['Tax', 'Tax Rate', 'VAT', 'VAT Rate'] },
      { name: 'taxable', label: 'Taxable' },
      { name: 'sku', label: 'SKU', synonyms: ['Item Code', 'Product Code', 'Article Number', 'Code'] },
    ],
    prepare(rows, env) {
      const v = rows[0]!.values;
      const text = (field: keyof typeof LIMITS) => {
        const t = (v[field] ?? '').trim();
        if (t.length > LIMITS[field]) throw new ImportRowError(`${field}: at most ${LIMITS[field]} characters.`, field);
        return t;
      };
      const name = text('name');
      if (!name) throw new ImportRowError('name: an item needs a name.', 'name');
      if (!v.price?.trim()) throw new ImportRowError('price: an item needs a price.', 'price');
      const price = env.read.amount(v.price, 'price');
      if (price.startsWith('-')) throw new ImportRowError(`price: ${v.price} is negative.`, 'price');
      const currency = (v.currency ?? '').trim().toUpperCase() || null;
      if (currency && !isCurrency(currency)) throw new ImportRowError(`currency: ${v.currency} is not an ISO 4217 code.`, 'currency');
      const unit = (v.unit ?? '').trim().toUpperCase() || null;
      if (unit && !isUnitCode(unit)) throw new ImportRowError(`unit: ${v.unit} is not a UN/ECE Recommendation 20 code.`, 'unit');
      const rate = (v.tax_rate ?? '').trim().replace(/%$/, '').trim();
      const tax_rate = rate ? env.read.amount(rate, 'tax_rate') : null;
      const taxable = env.read.bool(v.taxable ?? '', 'taxable', true);
      if (!taxable && tax_rate !== null) throw new ImportRowError('tax_rate: set on an item that is not taxable.', 'tax_rate');
      return { name, description: text('description'), price, currency, unit, tax_rate, taxable, sku: text('sku') || null };
    },
    async write(records, env) {
      const out: ImportWriteResult[] = [];
      for (const r of records) {
        try {
          const found = await store.match(r.sku, r.name);
          if (!found) {
            await store.create(r, env.actor);
            out.push('created');
          } else if (same(found, r)) {
            out.push('skipped');
          } else {
            await store.update(found.id, r, env.actor);
            out.push('updated');
          }
        } catch (err) {
          out.push({ failed: err instanceof BillingError ? err.message : 'The item could not be saved.' });
        }
      }
      return out;
    },
  };
}
