import { BillingError } from '../errors.ts';
import type { RestRoute } from '../http/rest/route.ts';
import { SHIPPED_LOCALES } from './locale-tag.ts';
import { shippedTag, type Translations } from './translations.ts';

/** Keys one `PUT` may change: every key of the catalogue several times over, far below a body's limit. */
export const MAX_KEYS_PER_UPDATE = 2000;

const LOCALE_ARG = {
  locale: { type: 'string', enum: [...SHIPPED_LOCALES], required: true, description: 'A shipped language: en, de, fr, es, it or nl.' },
};

export const TRANSLATIONS_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'translations',
  type: 'object',
  properties: {
    locale: { type: 'string' },
    keys: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          key: { type: 'string' },
          text: { type: 'string', description: 'The shipped text in this language (English where it has none).' },
          override: { type: ['string', 'null'], description: "The site's own wording, or null." },
        },
        required: ['key', 'text', 'override'],
      },
    },
  },
  required: ['locale', 'keys'],
};

/** `GET|PUT /translations/{locale}` (docs/languages.md): every customer-facing key, and the site's own wording. */
export function translationRoutes(translations: Translations): RestRoute[] {
  const path = '/translations/(?P<locale>[^/]+)';
  const unscoped = { locale: "a shipped language: the site's wording is one for the whole site, not anyone's object" };
  const listing = async (locale: string) => {
    const lang = shippedTag(locale);
    return { locale: lang, keys: await translations.entries(lang) };
  };
  return [
    {
      path,
      methods: 'GET',
      capability: 'bill_manage_settings',
      unscoped,
      args: LOCALE_ARG,
      schema: TRANSLATIONS_SCHEMA,
      description: "Every customer-facing text of a language: its shipped text and the site's override.",
      response: { schema: TRANSLATIONS_SCHEMA },
      handler: async (req) => listing(req.params.locale),
    },
    {
      path,
      methods: 'PUT',
      capability: 'bill_manage_settings',
      unscoped,
      args: LOCALE_ARG,
      description:
        "Sets the site's own wording: a JSON object {key: text} (null clears an override). Each text keeps the placeholders of the shipped one.",
      response: { schema: TRANSLATIONS_SCHEMA, errors: ['rest_invalid_param'] },
      handler: async (req) => {
        const body = req.body;
        if (!body || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body))
          throw new BillingError('rest_invalid_param', 'The body must be a JSON object {key: text or null}.', {
            params: { body: 'not an object' },
          });
        const changes = Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([k]) => k !== 'locale'));
        if (Object.keys(changes).length > MAX_KEYS_PER_UPDATE)
          throw new BillingError('rest_invalid_param', `At most ${MAX_KEYS_PER_UPDATE} keys at once.`, {
            params: { body: 'too many keys' },
          });
        await translations.update(req.params.locale, changes, req.actor);
        return listing(req.params.locale);
      },
    },
  ];
}
