import { readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import { FALLBACK_LOCALE, SHIPPED_LOCALES, type ShippedLocale } from './locale-tag.ts';

/** One language's texts: `{key: ICU message}`. */
export type Messages = Readonly<Record<string, string>>;

/** What a plugin adds to the catalogue: its keys per shipped language (English is required, it is the fallback). */
export type TranslationsDeclaration = Partial<Record<ShippedLocale, Messages>> & { en: Messages };

/** Compiled messages kept at most: the shipped texts of six languages and the site's overrides, many times over. */
const COMPILED_MAX = 20_000;

function shippedFile(locale: ShippedLocale): Messages {
  return JSON.parse(readFileSync(new URL(`./locales/${locale}.json`, import.meta.url), 'utf8')) as Messages;
}

/**
 * Every customer-facing text: the core's shipped files (`locales/<tag>.json`, data), merged with what
 * active plugins contribute (`definePlugin({ translations })`). Keys are the English file's and the
 * plugins' English keys; any language may lack a key and then prints the English text, never the key.
 * Messages are ICU MessageFormat (`{number}`, plurals), compiled once and kept.
 */
export class Catalogue {
  readonly #core: Record<ShippedLocale, Messages>;
  readonly #plugins = new Map<string, TranslationsDeclaration>();
  #merged: Map<ShippedLocale, Messages> | null = null;
  readonly #compiled = new Map<string, IntlMessageFormat>();

  constructor(core?: Record<ShippedLocale, Messages>) {
    this.#core = core ?? (Object.fromEntries(SHIPPED_LOCALES.map((l) => [l, shippedFile(l)])) as Record<ShippedLocale, Messages>);
  }

  /** Adds a unit's keys; a key the core or another unit already has is refused (one home for each text). */
  add(owner: string, declaration: TranslationsDeclaration): void {
    const taken = new Set(this.keys());
    for (const key of Object.keys(declaration.en)) {
      if (taken.has(key)) throw new Error(`translation key ${key} of ${owner} is already declared`);
    }
    for (const [locale, messages] of Object.entries(declaration)) {
      for (const key of Object.keys(messages ?? {}))
        if (!(key in declaration.en)) throw new Error(`translation key ${key} (${locale}) of ${owner} has no English text`);
    }
    this.#plugins.set(owner, declaration);
    this.#merged = null;
  }

  remove(owner: string): void {
    if (this.#plugins.delete(owner)) this.#merged = null;
  }

  /** Every key, in the order of the English texts (the core's first, then each unit's). */
  keys(): string[] {
    return Object.keys(this.messages(FALLBACK_LOCALE));
  }

  /** A language's shipped texts (the core's and the plugins'), without the English fallback filled in. */
  messages(locale: ShippedLocale): Messages {
    this.#merged ??= new Map(
      SHIPPED_LOCALES.map((l) => [l, Object.assign({}, this.#core[l], ...[...this.#plugins.values()].map((p) => p[l] ?? {}))]),
    );
    return this.#merged.get(locale)!;
  }

  /** The shipped text of `key` in `locale`, or the English one; undefined for a key nobody declared. */
  shipped(locale: ShippedLocale, key: string): string | undefined {
    return this.messages(locale)[key] ?? this.messages(FALLBACK_LOCALE)[key];
  }

  /** A message compiled for `locale`, from the cache. Throws on a text that is no ICU message. */
  compile(locale: ShippedLocale, text: string): IntlMessageFormat {
    const id = `${locale}\u0000${text}`;
    let message = this.#compiled.get(id);
    if (!message) {
      if (this.#compiled.size >= COMPILED_MAX) this.#compiled.clear();
      message = new IntlMessageFormat(text, locale, undefined, { ignoreTag: true });
      this.#compiled.set(id, message);
    }
    return message;
  }
}

/** The argument names a message uses (`{number}`, `{count, plural, …}`), sorted: overrides must keep them. */
export function placeholders(text: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: ReturnType<IntlMessageFormat['getAst']>): void => {
    for (const node of nodes) {
      if (node.type !== 0 && 'value' in node && typeof node.value === 'string') names.add(node.value);
      if ('options' in node) for (const option of Object.values(node.options)) walk(option.value);
      if ('children' in node) walk(node.children);
    }
  };
  walk(new IntlMessageFormat(text, 'en', undefined, { ignoreTag: true }).getAst());
  return [...names].sort();
}
