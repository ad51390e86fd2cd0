import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Translations } from '../i18n/translations.ts';
import type { Identity } from '../identity/identity.ts';
import type { DocumentPdfs } from '../modules/service-api.ts';
import type { OptionsStore } from '../options/options.ts';
import type { PdfRenderer } from '../pdf/pdf-renderer.ts';
import type { AttachmentService } from './attachments/attachment-service.ts';
import type { ClientService } from './clients/client-service.ts';
import type { InvoiceService } from './invoice-service.ts';
import type { QuoteService } from './quote-service.ts';

/** The document engine's services: the in-process API of invoices, quotes and clients. */
export interface DocumentServices {
  invoices: InvoiceService;
  quotes: QuoteService;
  clients: ClientService;
  pdfs: DocumentPdfs;
  attachments: AttachmentService;
}

/** What the document engine's routes and actions are given. */
export interface DocumentsContext extends DocumentServices {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  pdf: PdfRenderer;
  translations: Translations;
  identity: Identity;
}
