import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { RestRoute } from '../http/rest/route.ts';
import type { OptionsStore } from '../options/options.ts';
import { invoiceRoutes } from './invoice-routes.ts';
import { InvoiceService } from './invoice-service.ts';

/** The document engine: its services (the in-process API) and what it serves over HTTP. */
export class Documents {
  readonly invoices: InvoiceService;
  private readonly deps: { db: Database; options: OptionsStore; hooks: HookRegistry; config: Config };

  constructor(deps: { db: Database; options: OptionsStore; hooks: HookRegistry; config: Config }) {
    this.deps = deps;
    this.invoices = new InvoiceService(deps);
  }

  restRoutes(): RestRoute[] {
    const { options, hooks, config } = this.deps;
    return [...invoiceRoutes({ invoices: this.invoices, options, hooks, baseUrl: config.baseUrl })];
  }
}
