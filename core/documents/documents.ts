import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { RestRoute } from '../http/rest/route.ts';
import type { OptionsStore } from '../options/options.ts';
import type { PdfRenderer } from '../pdf/index.ts';
import { clientAjaxActions } from './clients/client-ajax.ts';
import { clientRoutes } from './clients/client-routes.ts';
import { ClientService } from './clients/client-service.ts';
import { invoiceAjaxActions } from './invoice-ajax.ts';
import { documentRoutes } from './document-routes.ts';
import { InvoiceService } from './invoice-service.ts';
import { quoteAjaxActions } from './quote-ajax.ts';
import { QuoteService } from './quote-service.ts';

/** What the document engine's routes and actions are given. */
export interface DocumentsContext {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  pdf: PdfRenderer;
  invoices: InvoiceService;
  quotes: QuoteService;
}

/** The document engine: its services (the in-process API) and what it serves over HTTP. */
export class Documents {
  readonly invoices: InvoiceService;
  readonly quotes: QuoteService;
  readonly clients: ClientService;
  private readonly ctx: DocumentsContext;

  constructor(deps: { db: Database; options: OptionsStore; hooks: HookRegistry; config: Config; pdf: PdfRenderer }) {
    this.invoices = new InvoiceService(deps);
    this.quotes = new QuoteService(deps, this.invoices);
    this.clients = new ClientService(deps);
    this.ctx = { ...deps, invoices: this.invoices, quotes: this.quotes };
  }

  restRoutes(): RestRoute[] {
    const { options, hooks, config, pdf } = this.ctx;
    return [...documentRoutes({ invoices: this.invoices, quotes: this.quotes, options, hooks, pdf, config }), ...clientRoutes({ clients: this.clients, options, hooks })];
  }

  ajaxActions(): AjaxAction[] {
    return [...invoiceAjaxActions(this.ctx), ...quoteAjaxActions(this.ctx), ...clientAjaxActions({ clients: this.clients })];
  }
}
