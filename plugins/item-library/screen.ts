// The Items screen, declared as data: the library with its prices and units, adding, changing and
// removing an item. The core's resource screen draws it (docs/admin.md); the forms come from the
// routes' own schemas.
import { resourceScreen, type ArgSchema } from '../../core/plugin-api.ts';
import { ITEM_FIELDS } from './items.ts';

const VIEW = 'bill_view_invoices';
const CHANGE = 'bill_edit_invoice';

/**
 * The form's fields: the routes' schemas, with the price and the rate kept as typed text (a number box
 * would make "19.90" a float on its way) and a new item taxable unless unticked.
 */
const FORM: Record<string, ArgSchema> = {
  ...ITEM_FIELDS,
  name: { ...ITEM_FIELDS.name!, required: true },
  price: { ...ITEM_FIELDS.price!, type: 'string', required: true },
  tax_rate: { ...ITEM_FIELDS.tax_rate!, type: 'string' },
  taxable: { ...ITEM_FIELDS.taxable!, default: true },
};

export const itemsScreen = resourceScreen({
  slug: 'items.php',
  title: 'Items',
  capability: VIEW,
  order: 25,
  description: 'What you sell, kept once: the invoice and quote builders suggest these as you type an item name.',
  list: {
    route: '/items',
    rowLabel: '{name}',
    empty: 'No items yet. Add what you sell with "Add item".',
    columns: [
      { key: 'name', label: 'Name' },
      { key: 'sku', label: 'SKU' },
      { key: 'price', label: 'Price' },
      { key: 'currency', label: 'Currency' },
      { key: 'unit', label: 'Unit' },
      { key: 'tax_rate', label: 'Tax rate (%)' },
      { key: 'taxable', label: 'Taxable', format: 'yesno' },
    ],
  },
  actions: [
    {
      label: 'Edit',
      method: 'PUT',
      route: '/items/{id}',
      capability: CHANGE,
      fields: FORM,
      submit: 'Save item',
      done: '{name} saved.',
    },
    {
      label: 'Delete',
      method: 'DELETE',
      route: '/items/{id}',
      capability: CHANGE,
      confirm: 'Delete {name} from the library? Documents that use it keep their lines.',
      done: '{name} is deleted.',
    },
  ],
  create: {
    label: 'Add item',
    route: '/items',
    capability: CHANGE,
    fields: FORM,
    submit: 'Save item',
    done: '{name} added to the library.',
  },
});
