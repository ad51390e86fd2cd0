import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { defineModule } from '../modules/define-module.ts';
import type { OptionsStore } from '../options/options.ts';
import type { PdfRenderer } from '../pdf/pdf-renderer.ts';
import type { Translations } from '../i18n/translations.ts';
import type { Identity } from '../identity/identity.ts';
import type { DocumentPdfs } from '../modules/service-api.ts';
import { documentPdf } from './document-pdf.ts';
import { clientAjaxActions } from './clients/client-ajax.ts';
import { clientRoutes } from './clients/client-routes.ts';
import { ClientService } from './clients/client-service.ts';
import { attachmentRoutes } from './attachments/attachment-routes.ts';
import { AttachmentService } from './attachments/attachment-service.ts';
import { documentCommands } from './document-commands.ts';
import { DOCUMENT_OBJECTS } from './document-objects.ts';
import { documentRoutes } from './document-routes.ts';
import { previewAjaxActions } from './preview-ajax.ts';
import { invoiceAjaxActions } from './invoice-ajax.ts';
import { InvoiceService } from './invoice-service.ts';
import { DOCUMENT_MIGRATIONS } from './migrations.ts';
import { quoteAjaxActions } from './quote-ajax.ts';
import { QuoteService } from './quote-service.ts';
import type { DocumentServices, DocumentsContext } from './services.ts';

/**
 * The document engine (docs/documents.md, docs/api.md): invoices, quotes and clients — numbering, totals, trash, the
 * REST collections, the builder's AJAX actions, the `invoice`/`quote` commands. Schema: ./migrations.ts.
 */
export const documentsModule = defineModule({
  name: 'documents',
  requires: ['pdf', 'i18n', 'identity'],
  migrations: DOCUMENT_MIGRATIONS,
  objects: DOCUMENT_OBJECTS,
  services: (ctx): DocumentServices => {
    const invoices = new InvoiceService(ctx);
    const deps = { pdf: ctx.use.pdf, options: ctx.options, hooks: ctx.hooks, translations: ctx.use.i18n };
    const pdfs: DocumentPdfs = { render: (doc, o = {}) => documentPdf(doc, deps, o.parent, o.adjust) };
    return {
      invoices,
      quotes: new QuoteService(ctx, invoices),
      clients: new ClientService(ctx),
      pdfs,
      attachments: new AttachmentService(ctx.db as Database),
    };
  },
  rest: (ctx) => [...documentRoutes(context(ctx)), ...clientRoutes(context(ctx)), ...attachmentRoutes(ctx.self.attachments, ctx.config)],
  ajax: (ctx) => [
    ...invoiceAjaxActions(context(ctx)),
    ...quoteAjaxActions(context(ctx)),
    ...clientAjaxActions(ctx.self),
    ...previewAjaxActions(context(ctx)),
  ],
  commands: (ctx) => documentCommands(ctx.self, ctx.config),
});

function context(ctx: {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  use: { pdf: PdfRenderer; i18n: Translations; identity: Identity };
  self: DocumentServices;
}): DocumentsContext {
  return {
    ...ctx.self,
    db: ctx.db,
    options: ctx.options,
    hooks: ctx.hooks,
    config: ctx.config,
    pdf: ctx.use.pdf,
    translations: ctx.use.i18n,
    identity: ctx.use.identity,
  };
}
