import type { Actor } from '../audit/audit.ts';
import type { Database } from '../db/database.ts';
import type { OptionsStore } from '../options/options.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import { Catalogue, placeholders } from './catalogue.ts';
import { isShippedLocale, SHIPPED_LOCALES, shippedLocale, type ShippedLocale } from './locale-tag.ts';
import { TranslationOverrides } from './overrides.ts';
import { Translator } from './translator.ts';

/** The longest override: a paragraph of a mail, not a document. */
export const OVERRIDE_MAX_CHARS = 2000;

/** One key as `GET /translations/{locale}` lists it. */
export interface TranslationEntry {
  key: string;
  /** The shipped text in this language (English where the language has none). */
  text: string;
  /** The site's own wording, or null. */
  override: string | null;
}

declare module '../options/option-map.ts' {
  interface OptionMap {
    site_locale: string;
  }
}

/**
 * Customer-facing text (docs/languages.md): which language a document prints in, the translator of a
 * render, and the site's own wording.
 *
 * A document prints in its own `locale`, which defaults to its client's when it is made; without one,
 * in the option `site_locale`. A tag the service does not ship (`pt`) prints in English.
 */
export class Translations {
  readonly catalogue = new Catalogue();
  readonly overrides: TranslationOverrides;
  readonly #options: OptionsStore;

  constructor(deps: { db: Database; options: OptionsStore }) {
    this.overrides = new TranslationOverrides(deps.db);
    this.#options = deps.options;
  }

  /** The translator of `tag`, or of `site_locale` when the tag is empty. */
  async translator(tag?: string | null): Promise<Translator> {
    const locale = shippedLocale(tag || (await this.#options.get('site_locale')));
    return new Translator(this.catalogue, locale, await this.overrides.of(locale));
  }

  /** Every key of a shipped language with its shipped text and the site's override. */
  async entries(locale: ShippedLocale): Promise<TranslationEntry[]> {
    const overrides = await this.overrides.of(locale);
    return this.catalogue.keys().map((key) => ({ key, text: this.catalogue.shipped(locale, key)!, override: overrides[key] ?? null }));
  }

  /**
   * Sets (`text`) or clears (`null`) the site's wording of some keys of a shipped language. All or
   * nothing: an unknown key, a text that is no message, or one that drops or adds a placeholder of the
   * shipped text (`{number}`) is a 400 and nothing changes.
   */
  async update(locale: string, changes: Readonly<Record<string, unknown>>, actor: Actor): Promise<void> {
    const lang = shippedTag(locale);
    const checked: Record<string, string | null> = {};
    for (const [key, text] of Object.entries(changes)) {
      const shipped = this.catalogue.shipped(lang, key);
      if (shipped === undefined) throw invalidParam(key, `There is no text with the key ${key}.`, 'unknown_key');
      if (text === null) {
        checked[key] = null;
        continue;
      }
      if (typeof text !== 'string' || !text.trim()) throw invalidParam(key, `${key} must be a text or null.`, 'type');
      if (text.length > OVERRIDE_MAX_CHARS) throw invalidParam(key, `${key} is longer than ${OVERRIDE_MAX_CHARS} characters.`, 'too_long');
      let used: string[];
      try {
        used = placeholders(text);
        this.catalogue.compile(lang, text);
      } catch {
        throw invalidParam(key, `${key} is not a message: check its braces.`, 'syntax');
      }
      const wanted = placeholders(shipped);
      if (used.join() !== wanted.join()) {
        const list = wanted.length ? wanted.map((p) => `{${p}}`).join(', ') : 'none';
        throw invalidParam(key, `${key} must use exactly the placeholders of its shipped text: ${list}.`, 'placeholders');
      }
      checked[key] = text;
    }
    if (Object.keys(checked).length) await this.overrides.set(lang, checked, actor);
  }
}

/** A language the site may word its own way: a shipped one, named by its tag. */
export function shippedTag(locale: string): ShippedLocale {
  if (!isShippedLocale(locale))
    throw invalidParam('locale', `locale must be one of the shipped languages (${SHIPPED_LOCALES.join(', ')}).`, 'locale');
  return locale;
}
