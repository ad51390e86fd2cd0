import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { InvoiceService } from '../documents/invoice-service.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { RestRoute } from '../http/rest/route.ts';
import type { OptionsStore } from '../options/options.ts';
import type { PdfRenderer } from '../pdf/index.ts';
import { CreditNoteService } from './credit-note-service.ts';
import { paymentAjaxActions } from './payment-ajax.ts';
import { PaymentCore } from './payment-core.ts';
import { paymentRoutes } from './payment-routes.ts';
import { PaymentService } from './payment-service.ts';

/** What the money routes and actions are given. */
export interface PaymentsContext {
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  payments: PaymentService;
  creditNotes: CreditNoteService;
}

export interface PaymentsDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  pdf: PdfRenderer;
  invoices: InvoiceService;
}

/**
 * The money module: the payment core (one function for every source of money), the payment and
 * credit-note services (the in-process API `payments` and `creditNotes`) and what they serve over
 * HTTP. Schema: `./migrations.ts` (owner `payments`).
 */
export class Payments {
  readonly core: PaymentCore;
  readonly payments: PaymentService;
  readonly creditNotes: CreditNoteService;
  private readonly ctx: PaymentsContext;

  constructor(deps: PaymentsDeps) {
    this.core = new PaymentCore(deps);
    this.payments = new PaymentService({ db: deps.db, options: deps.options, core: this.core });
    this.creditNotes = new CreditNoteService(deps);
    this.ctx = { options: deps.options, hooks: deps.hooks, config: deps.config, payments: this.payments, creditNotes: this.creditNotes };
  }

  restRoutes(): RestRoute[] {
    return paymentRoutes(this.ctx);
  }

  ajaxActions(): AjaxAction[] {
    return paymentAjaxActions(this.ctx);
  }
}
