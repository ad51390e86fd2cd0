import { defineModule } from '../modules/define-module.ts';
import { publicRouter } from './public-pages.ts';

/**
 * The customer's pages (docs/documents.md, docs/gateways.md): a document opened with its access key, its PDF, a quote's
 * Accept / Decline forms, and paying an invoice through an active gateway.
 */
export const publicModule = defineModule({
  name: 'public',
  requires: ['documents', 'pdf', 'identity', 'payments', 'i18n'],
  routers: (ctx) => [
    publicRouter({
      db: ctx.db,
      options: ctx.options,
      hooks: ctx.hooks,
      config: ctx.config,
      log: ctx.log,
      pdf: ctx.use.pdf,
      translations: ctx.use.i18n,
      quotes: ctx.use.documents.quotes,
      attachments: ctx.use.documents.attachments,
      auth: ctx.use.identity.auth,
      links: ctx.use.identity,
      gateways: ctx.use.payments.gateways,
    }),
  ],
});
