import { useEffect, useState } from 'preact/hooks';
import { ajax } from '../api.ts';
import type { ItemSource, ItemSuggestion } from '../../wire.ts';

/** What each source answered for the term, with the source's name. */
interface Found {
  source: ItemSource;
  hits: ItemSuggestion[];
}

const price = (h: ItemSuggestion) => (h.price === undefined || h.price === null ? '' : ` · ${h.price}`);

/**
 * The suggestions of the plugins' sources (the item library) for what is typed in an item's name,
 * asked 200 ms after the last keystroke; each offered as a button that fills the row.
 */
export function ItemSuggestions(p: {
  sources: ItemSource[];
  term: string;
  currency: string;
  row: number;
  onChoose: (hit: ItemSuggestion) => void;
}) {
  const [found, setFound] = useState<Found[]>([]);
  useEffect(() => {
    const term = p.term.trim();
    if (!term) return setFound([]);
    let current = true;
    const t = setTimeout(async () => {
      const answers = await Promise.all(
        p.sources.map(async (source) => {
          try {
            // the document's currency once it is one (a half-typed code asks for items of any)
            const currency = /^[A-Za-z]{3}$/.test(p.currency.trim()) ? { currency: p.currency.trim().toUpperCase() } : {};
            return { source, hits: await ajax<ItemSuggestion[]>(source.action, { term: term.slice(0, 200), ...currency }) };
          } catch {
            return { source, hits: [] };
          }
        }),
      );
      if (current) setFound(answers.filter((a) => a.hits.length));
    }, 200);
    return () => {
      current = false;
      clearTimeout(t);
    };
  }, [p.term, p.currency]);
  if (!found.length) return null;
  return (
    <div class="billing-item-suggestions">
      {found.map(({ source, hits }) => (
        <ul class="billing-client-results" aria-label={`${source.label}: suggestions for item ${p.row + 1}`}>
          {hits.map((h) => (
            <li>
              <button type="button" onClick={() => p.onChoose(h)}>
                Use {h.name}
                {h.sku ? ` (${h.sku})` : ''}
                {price(h)}
              </button>
            </li>
          ))}
        </ul>
      ))}
    </div>
  );
}
