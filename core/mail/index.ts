import { defineModule } from '../modules/define-module.ts';
import { mailAjaxActions } from './mail-ajax.ts';
import { MAIL_LISTENERS, mailQueues } from './mail-listeners.ts';
import { MailService } from './mail-service.ts';
import { MAIL_MIGRATIONS } from './migrations.ts';

/**
 * E-mail (README.md, docs/ajax.md): mjml templates compiled once, `billing_email`, SMTP or the `.eml` outbox,
 * the delivery log, the Send actions, and the mails that follow events (durable, through the outbox).
 */
export const mailModule = defineModule({
  name: 'mail',
  requires: ['documents', 'pdf', 'i18n'],
  migrations: MAIL_MIGRATIONS,
  services: (ctx) =>
    new MailService({
      db: ctx.db,
      options: ctx.options,
      hooks: ctx.hooks,
      config: ctx.config,
      pdf: ctx.use.pdf,
      translations: ctx.use.i18n,
      log: ctx.log,
      invoices: ctx.use.documents.invoices,
      quotes: ctx.use.documents.quotes,
      attachments: ctx.use.documents.attachments,
    }),
  ajax: (ctx) => mailAjaxActions(ctx.self),
  listeners: MAIL_LISTENERS,
  queues: (ctx) => mailQueues(ctx.self, ctx.options, ctx.use.documents),
  stop: (ctx) => ctx.self.close(),
});
