import { countryName, formatDate, formatDecimal, formatMoney } from '../display/format.ts';
import { quantityLabel } from '../units/units.ts';
import { Catalogue, type Messages } from './catalogue.ts';
import { FALLBACK_LOCALE, type ShippedLocale } from './locale-tag.ts';

/** The values a message's placeholders take; amounts and dates arrive already formatted (see `money`, `date`). */
export type MessageValues = Readonly<Record<string, string | number>>;

/**
 * The texts and formats of one language for one render (a PDF, a page, a mail): the site's override
 * of a key, else the shipped text of the language, else the English one. Cheap to make (the compiled
 * messages and Intl formatters live in caches), so each render asks for one.
 */
export class Translator {
  readonly locale: ShippedLocale;
  readonly #catalogue: Catalogue;
  readonly #overrides: Messages;

  constructor(catalogue: Catalogue, locale: ShippedLocale, overrides: Messages = {}) {
    this.#catalogue = catalogue;
    this.locale = locale;
    this.#overrides = overrides;
  }

  /** The text of `key` with its placeholders filled. A key nobody declared is a bug and throws. */
  t(key: string, values: MessageValues = {}): string {
    const text = this.#overrides[key] ?? this.#catalogue.shipped(this.locale, key);
    if (text === undefined) throw new Error(`no text has the key ${key}`);
    if (!text.includes('{') && !text.includes("'")) return text;
    try {
      return String(this.#catalogue.compile(this.locale, text).format(values));
    } catch (err) {
      // a text that cannot be filled (none should pass the checks): the English one rather than nothing
      const english = this.#catalogue.shipped(FALLBACK_LOCALE, key);
      if (english === undefined || english === text) throw err;
      return String(this.#catalogue.compile(FALLBACK_LOCALE, english).format(values));
    }
  }

  /** Whether some text has the key (a plugin's may be inactive). */
  has(key: string): boolean {
    return this.#catalogue.shipped(this.locale, key) !== undefined;
  }

  /** An exact decimal amount in `currency`, as this language writes it (`1.234,50 €`). */
  money(amount: string, currency: string): string {
    return formatMoney(amount, currency, this.locale);
  }

  /** A line's quantity as this language writes it, followed by its unit's short name ("12,5 Std."). */
  quantity(quantity: string, unit?: string | null): string {
    return quantityLabel(formatDecimal(quantity, this.locale), unit ?? undefined, this.locale);
  }

  /** A `Y-m-d` date as this language writes it (`31.01.2026`, `31 Jan 2026`). */
  date(ymd: string): string {
    return formatDate(ymd, this.locale);
  }

  /** A country's name in this language (`DE` → `Deutschland`). */
  country(code: string): string {
    return countryName(code, this.locale);
  }
}

let shippedCatalogue: Catalogue | undefined;

/**
 * A translator of the shipped texts alone (no plugin keys, no site overrides): for what prints outside
 * a site's request — a render worker's warm-up, a sample document, unit tests.
 */
export function shippedTranslator(locale: ShippedLocale = FALLBACK_LOCALE): Translator {
  shippedCatalogue ??= new Catalogue();
  return new Translator(shippedCatalogue, locale);
}
