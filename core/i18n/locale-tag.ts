// Locale tags as the service takes them (BCP 47): checked and made canonical where they come in, and
// matched to a shipped language where text is printed.

/** The languages the service ships text for; `en` is the fallback of every other. */
export const SHIPPED_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const;
export type ShippedLocale = (typeof SHIPPED_LOCALES)[number];

export const FALLBACK_LOCALE: ShippedLocale = 'en';

/** A tag's longest form: enough for `zh-Hant-TW-u-nu-hanidec`, far below what a row should hold. */
export const LOCALE_TAG_MAX = 35;

/** The JSON schema of a locale field: the pattern keeps obvious garbage out; `canonicalLocale` checks the rest. */
export const LOCALE_TAG_SCHEMA = {
  type: 'string',
  maxLength: LOCALE_TAG_MAX,
  format: 'locale',
  description: 'A BCP 47 language tag, e.g. `de` or `fr-CH`; one the service does not ship falls back to English',
} as const;

/**
 * The canonical form of a well-formed BCP 47 tag (`PT-br` → `pt-BR`), or null when it is malformed
 * (`en_US`, `x`, `de--1`). A well-formed tag that is not shipped is accepted as it is: it prints in English.
 */
export function canonicalLocale(tag: unknown): string | null {
  if (typeof tag !== 'string' || !tag || tag.length > LOCALE_TAG_MAX) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical ?? null;
  } catch {
    return null;
  }
}

/** The shipped language a tag prints in: its own (`de-AT` → `de`), or English. */
export function shippedLocale(tag: string | null | undefined): ShippedLocale {
  if (!tag) return FALLBACK_LOCALE;
  const language = tag.split('-')[0]!.toLowerCase();
  return (SHIPPED_LOCALES as readonly string[]).includes(language) ? (language as ShippedLocale) : FALLBACK_LOCALE;
}

/** Whether `tag` names a shipped language exactly (the overrides are kept per shipped language). */
export function isShippedLocale(tag: string): tag is ShippedLocale {
  return (SHIPPED_LOCALES as readonly string[]).includes(tag);
}
