import type { Config } from '../config.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { OptionsStore } from '../options/options.ts';
import type { CreditNoteService } from './credit-note-service.ts';
import type { GatewayRuntime } from './gateways/gateway-runtime.ts';
import type { PaymentCore } from './payment-core.ts';
import type { PaymentService } from './payment-service.ts';
import type { SavedMethods } from './saved-methods.ts';

import type { StatementService } from './statement/statement-service.ts';

/** The money module's services. */
export interface PaymentServices {
  /** The one function that applies every change of money (docs/payments.md). */
  core: PaymentCore;
  /** Payments and refunds as an administrator does them (the in-process API `payments`). */
  payments: PaymentService;
  creditNotes: CreditNoteService;
  /** The active gateways: their webhooks, checkout and reconciliation (docs/gateways.md). */
  gateways: GatewayRuntime;
  /** Clients' saved cards and mandates (their tokens never leave it). */
  saved: SavedMethods;
  /** Clients' statements of account. */
  statements: StatementService;
}

/** What the money routes and actions are given. */
export interface PaymentsContext {
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  payments: PaymentService;
  creditNotes: CreditNoteService;
}
