import { useState } from 'preact/hooks';
import { COMMON_UNITS, unitTitle } from '../../../units/units.ts';
import type { ItemSource, ItemSuggestion } from '../../wire.ts';
import { Field, money } from '../ui.tsx';
import { blankItem, type Item } from './draft.ts';
import { ItemSuggestions } from './item-suggestions.tsx';
import type { Preview } from './preview.ts';

/** A suggestion as the row's fields: what it has replaces what was typed; the quantity stays. */
function filled(hit: ItemSuggestion): Partial<Item> {
  const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    name: hit.name,
    ...(hit.description !== undefined ? { description: hit.description } : {}),
    ...(hit.price !== undefined ? { price: text(hit.price) } : {}),
    ...(hit.unit !== undefined ? { unit: text(hit.unit) } : {}),
    ...(hit.taxable !== undefined ? { taxable: hit.taxable } : {}),
    ...(hit.tax_rate !== undefined ? { tax_rate: text(hit.tax_rate) } : {}),
  };
}

/**
 * The item rows: each with its fields, its amount from the preview (counted among the rows that have a
 * quantity and a price, the rows the preview was asked about), and buttons to move or remove it.
 */
export function ItemRows(p: {
  items: Item[];
  editable: boolean;
  preview: Preview | null;
  cur: string;
  /** The document's currency as typed: suggestions are of it or of none. */
  currency: string;
  /** Where item names find suggestions (the plugins' sources, e.g. the item library). */
  sources: ItemSource[];
  errors: Record<string, string>;
  onChange: (items: Item[]) => void;
}) {
  const { preview, cur } = p;
  // the row whose name is being typed: only it offers suggestions
  const [typing, setTyping] = useState<number | null>(null);
  const e = (k: string) => p.errors[k];
  const setItem = (i: number, patch: Partial<Item>) => p.onChange(p.items.map((it, n) => (n === i ? { ...it, ...patch } : it)));
  const move = (i: number, by: number) => {
    const items = [...p.items];
    const [it] = items.splice(i, 1);
    items.splice(i + by, 0, it!);
    p.onChange(items);
  };
  return (
    <fieldset disabled={!p.editable}>
      <legend>Items</legend>
      {e('items') && <p class="billing-field-error">{e('items')}</p>}
      <ol class="billing-items">
        {p.items.map((it, i) => (
          <li class="billing-item" key={it.key}>
            <div class="billing-item-name">
              <Field id={`b-items-${i}-name`} label={`Item ${i + 1} name`} error={e(`items-${i}-name`)}>
                <input
                  id={`b-items-${i}-name`}
                  value={it.name}
                  autocomplete={p.sources.length ? 'off' : undefined}
                  onInput={(ev) => {
                    setTyping(it.key);
                    setItem(i, { name: (ev.target as HTMLInputElement).value });
                  }}
                />
              </Field>
              {p.editable && typing === it.key && p.sources.length > 0 && (
                <ItemSuggestions
                  sources={p.sources}
                  term={it.name}
                  currency={p.currency}
                  row={i}
                  onChoose={(hit) => {
                    setTyping(null);
                    setItem(i, filled(hit));
                  }}
                />
              )}
            </div>
            <Field id={`b-items-${i}-description`} label={`Item ${i + 1} description`}>
              <input
                id={`b-items-${i}-description`}
                value={it.description}
                onInput={(ev) => setItem(i, { description: (ev.target as HTMLInputElement).value })}
              />
            </Field>
            <Field id={`b-items-${i}-quantity`} label={`Item ${i + 1} quantity`} error={e(`items-${i}-quantity`)}>
              <input
                id={`b-items-${i}-quantity`}
                inputMode="decimal"
                value={it.quantity}
                onInput={(ev) => setItem(i, { quantity: (ev.target as HTMLInputElement).value })}
              />
            </Field>
            <Field id={`b-items-${i}-price`} label={`Item ${i + 1} price`} error={e(`items-${i}-price`)}>
              <input
                id={`b-items-${i}-price`}
                inputMode="decimal"
                value={it.price}
                onInput={(ev) => setItem(i, { price: (ev.target as HTMLInputElement).value })}
              />
            </Field>
            <Field id={`b-items-${i}-unit`} label={`Item ${i + 1} unit`} error={e(`items-${i}-unit`)}>
              <input
                id={`b-items-${i}-unit`}
                list="b-units"
                size={5}
                maxLength={3}
                autocapitalize="characters"
                value={it.unit}
                onInput={(ev) => setItem(i, { unit: (ev.target as HTMLInputElement).value })}
              />
            </Field>
            <Field id={`b-items-${i}-tax_rate`} label={`Item ${i + 1} tax rate (%)`} error={e(`items-${i}-tax_rate`)}>
              <input
                id={`b-items-${i}-tax_rate`}
                inputMode="decimal"
                size={5}
                value={it.tax_rate}
                onInput={(ev) => setItem(i, { tax_rate: (ev.target as HTMLInputElement).value })}
              />
            </Field>
            <div class="billing-item-foot">
              <label class="billing-check">
                <input
                  type="checkbox"
                  checked={it.taxable}
                  onChange={(ev) => setItem(i, { taxable: (ev.target as HTMLInputElement).checked })}
                />{' '}
                Taxable
              </label>
              <output class="billing-amount" aria-label={`Item ${i + 1} amount`}>
                {preview?.items[p.items.slice(0, i).filter((x) => x.quantity.trim() && x.price.trim()).length] &&
                it.quantity.trim() &&
                it.price.trim()
                  ? money(preview.items[p.items.slice(0, i).filter((x) => x.quantity.trim() && x.price.trim()).length]!.amount, cur)
                  : ''}
              </output>
              <div class="billing-item-actions">
                <button type="button" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move item ${i + 1} up`}>
                  ↑
                </button>
                <button type="button" disabled={i === p.items.length - 1} onClick={() => move(i, 1)} aria-label={`Move item ${i + 1} down`}>
                  ↓
                </button>
                <button
                  type="button"
                  disabled={p.items.length === 1}
                  onClick={() => p.onChange(p.items.filter((_, n) => n !== i))}
                  aria-label={`Remove item ${i + 1}`}
                >
                  Remove
                </button>
              </div>
            </div>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => p.onChange([...p.items, blankItem()])}>
        Add item
      </button>
      {/* the units a business bills in, by code with their names; any Recommendation 20 code may be typed */}
      <datalist id="b-units">
        {COMMON_UNITS.map((code) => (
          <option value={code} label={`${code} · ${unitTitle(code)}`} />
        ))}
      </datalist>
    </fieldset>
  );
}
