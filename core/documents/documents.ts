import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { RestRoute } from '../http/rest/route.ts';
import type { OptionsStore } from '../options/options.ts';
import { invoiceAjaxActions } from './invoice-ajax.ts';
import { invoiceRoutes } from './invoice-routes.ts';
import { InvoiceService } from './invoice-service.ts';
import { quoteAjaxActions } from './quote-ajax.ts';

/** What the document engine's routes and actions are given. */
export interface DocumentsContext {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  invoices: InvoiceService;
}

/** The document engine: its services (the in-process API) and what it serves over HTTP. */
export class Documents {
  readonly invoices: InvoiceService;
  private readonly ctx: DocumentsContext;

  constructor(deps: { db: Database; options: OptionsStore; hooks: HookRegistry; config: Config }) {
    this.invoices = new InvoiceService(deps);
    this.ctx = { ...deps, invoices: this.invoices };
  }

  restRoutes(): RestRoute[] {
    const { options, hooks, config } = this.ctx;
    return [...invoiceRoutes({ invoices: this.invoices, options, hooks, baseUrl: config.baseUrl })];
  }

  ajaxActions(): AjaxAction[] {
    return [...invoiceAjaxActions(this.ctx), ...quoteAjaxActions(this.ctx)];
  }
}
