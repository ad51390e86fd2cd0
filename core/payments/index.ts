import type { Config } from '../config.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { defineModule } from '../modules/define-module.ts';
import type { OptionsStore } from '../options/options.ts';
import { CreditNoteService } from './credit-note-service.ts';
import { gatewayCommands } from './gateways/gateway-commands.ts';
import { GatewayRuntime } from './gateways/gateway-runtime.ts';
import { WEBHOOK_THROTTLE_SETTINGS } from './gateways/webhook-throttle.ts';
import { PAYMENT_MIGRATIONS } from './migrations.ts';
import { PAYMENT_OBJECTS } from './payment-objects.ts';
import { paymentAjaxActions } from './payment-ajax.ts';
import { PaymentCore } from './payment-core.ts';
import { paymentRoutes } from './payment-routes.ts';
import { PaymentService } from './payment-service.ts';
import { SavedMethods } from './saved-methods.ts';
import { savedMethodRoutes } from './saved-method-routes.ts';
import { statementRoutes } from './statement/statement-routes.ts';
import { StatementService } from './statement/statement-service.ts';
import type { PaymentsContext, PaymentServices } from './services.ts';

/**
 * Money (docs/documents.md, docs/gateways.md): the payment core, payments, refunds, credit notes, cancelling, and the core
 * half of every payment gateway — whose `gateways` declarations its sink takes. Schema: ./migrations.ts.
 */
export const paymentsModule = defineModule({
  name: 'payments',
  requires: ['documents', 'pdf', 'i18n', 'mail'],
  settings: WEBHOOK_THROTTLE_SETTINGS,
  migrations: PAYMENT_MIGRATIONS,
  objects: PAYMENT_OBJECTS,
  services: (ctx): PaymentServices => {
    const invoices = ctx.use.documents.invoices;
    // the method registry is the gateway runtime's, which needs the core: a late-bound lookup
    let gateways: GatewayRuntime | null = null;
    const core = new PaymentCore({ db: ctx.db, hooks: ctx.hooks, invoices, methods: (m) => gateways!.isMethod(m) });
    const saved = new SavedMethods(ctx.db);
    gateways = new GatewayRuntime({ db: ctx.db, options: ctx.options, config: ctx.config, log: ctx.log, core, saved });
    return {
      core,
      gateways,
      saved,
      statements: new StatementService({
        db: ctx.db,
        options: ctx.options,
        hooks: ctx.hooks,
        clients: ctx.use.documents.clients,
        pdf: ctx.use.pdf,
        translations: ctx.use.i18n,
        mail: ctx.use.mail,
      }),
      payments: new PaymentService({ db: ctx.db, options: ctx.options, hooks: ctx.hooks, core }),
      creditNotes: new CreditNoteService({
        db: ctx.db,
        options: ctx.options,
        hooks: ctx.hooks,
        pdf: ctx.use.pdf,
        translations: ctx.use.i18n,
        invoices,
      }),
    };
  },
  sinks: (ctx) => [ctx.self.gateways.sink()],
  rest: (ctx) => [
    ...paymentRoutes(context(ctx)),
    ...savedMethodRoutes({ saved: ctx.self.saved, options: ctx.options }),
    ...statementRoutes({ statements: ctx.self.statements }),
  ],
  ajax: (ctx) => paymentAjaxActions(context(ctx)),
  commands: (ctx) => gatewayCommands(ctx.self.gateways),
  jobs: (ctx) => [
    {
      hook: 'billing_gateway_cleanup',
      schedule: '23 * * * *',
      description: 'Drops gateway inbox bodies older than 7 days and rows older than 90, and cancels gateway payments pending for 48 hours',
      run: () => ctx.self.gateways.cleanup(),
    },
  ],
});

function context(ctx: { options: OptionsStore; hooks: HookRegistry; config: Config; self: PaymentServices }): PaymentsContext {
  return { options: ctx.options, hooks: ctx.hooks, config: ctx.config, payments: ctx.self.payments, creditNotes: ctx.self.creditNotes };
}
