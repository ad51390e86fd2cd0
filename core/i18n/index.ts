import { defineModule } from '../modules/define-module.ts';
import type { ContributionSink } from '../plugins/contributions.ts';
import { LOCALE_TAG_SCHEMA } from './locale-tag.ts';
import { translationCommands } from './translation-commands.ts';
import { translationRoutes } from './translation-routes.ts';
import { Translations } from './translations.ts';

/**
 * Documents in the customer's language (docs/languages.md): the shipped texts (`locales/<tag>.json`)
 * merged with the plugins' (`definePlugin({ translations })`), the option `site_locale`, the site's own
 * wording (`billing_translations`, `GET|PUT /translations/{locale}`, `billing translations …`).
 */
export const i18nModule = defineModule({
  name: 'i18n',
  settings: {
    site_locale: {
      ...LOCALE_TAG_SCHEMA,
      default: 'en',
      description: 'The language of documents, pages and mails whose document and client name none (en, de, fr, es, it, nl)',
    },
  },
  migrations: [
    {
      name: '0001_translations',
      up: `
        -- the site's own wording: per shipped language, a text that prints instead of the shipped one
        create table billing_translations (
          locale text not null,
          key text not null,
          text text not null,
          updated_at timestamptz not null default now(),
          primary key (locale, key)
        );
      `,
    },
  ],
  services: (ctx) => new Translations({ db: ctx.db, options: ctx.options }),
  sinks: (ctx): ContributionSink[] => [
    {
      name: 'translations',
      load: (r) => {
        if (r.translations) ctx.self.catalogue.add(r.owner, r.translations);
      },
      unload: (owner) => ctx.self.catalogue.remove(owner),
    },
  ],
  rest: (ctx) => translationRoutes(ctx.self),
  commands: (ctx) => translationCommands(ctx.self),
});
