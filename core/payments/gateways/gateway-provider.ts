import type { DecimalInput } from '../../money/index.ts';
import type { Logger } from '../../log.ts';
import type { OptionKey, OptionMap } from '../../options/option-map.ts';

/**
 * The gateway provider contract (docs/gateways.md). A gateway plugin declares one provider per
 * payment method under `gateways: [...]`; the provider only talks to its gateway — it verifies a
 * delivery, says what it means, creates the gateway-side object of a checkout and looks a payment up.
 * The core does everything else once for every gateway: the webhook action and its answers, the raw
 * inbox, idempotency keys (prefixed with the method), the payment origin (bound to this method: a
 * provider can never act as another method or as an administrator), locking, amounts, statuses,
 * audit and events, the pay route and its buttons, and the reconciliation job.
 */
export interface GatewayProvider<K extends OptionKey = OptionKey> {
  /** The payment method, `[a-z][a-z0-9_]*` (`gateway_a`); its webhook is `billing_<method>_webhook`. */
  readonly method: string;
  /** What a person sees: the pay button (`Pay with card`), lists, settings. */
  readonly title: string;
  /**
   * The option keys this provider reads (declared by its plugin's `settings`), handed to it as
   * `ctx.settings` typed by `OptionMap`: name them as the type argument (`GatewayProvider<Setting>`).
   */
  readonly settings: readonly K[];
  /** Options that must be set (non-empty) for the gateway to take payments; until then its webhook answers 503. */
  readonly required: readonly K[];
  /** The option holding the gateway API's base URL (`gateway_<x>_api_base`), for `ctx.api`. */
  readonly apiBase?: K;

  /** Checks a delivery's signature over its raw bytes (constant-time); false is a 401. */
  verify(delivery: GatewayDelivery, ctx: GatewayContext<K>): Promise<boolean> | boolean;
  /**
   * Only for an entry whose deliveries carry no signature (B's webhook, D's legacy relay), where `parse`
   * asks the gateway's API what is true: the payment of ours the body says it concerns, read from the
   * body alone (no call out). The core looks it up among this method's payments first, and a delivery
   * that names none of ours is answered 200 and dropped — not stored, the gateway's API not called, and
   * counted against its client address. Throw `unreadable()` for a body that cannot be read; null: it
   * names no payment.
   */
  names?(delivery: GatewayDelivery): GatewayPaymentRef | null;
  /**
   * What a verified delivery means: one event per change it reports, each with the gateway's own key
   * for it. Whatever it throws is a body that cannot be read (400; `unreadable()` says why), except a
   * gateway that cannot be asked: let `ctx.api` failures propagate, or throw `unreachable()` when the
   * gateway's API refuses us (503: the gateway will retry).
   */
  parse(delivery: GatewayDelivery, ctx: GatewayContext<K>): Promise<GatewayEvent[]>;
  /** Creates the gateway-side object for a pending payment and answers where to send the customer. */
  checkout(request: CheckoutRequest, ctx: GatewayContext<K>): Promise<CheckoutResult>;
  /**
   * Optional, for a gateway that can keep a customer's means of payment (a card for off-session use, a
   * mandate): a checkout like `checkout` that also asks the gateway to save it. Its presence is what
   * "the gateway can save" means to the pay page. The saved method is never taken from this answer or
   * from the browser: the verified event (or look-up) that completes the payment reports it as the
   * `complete` command's `saved`, and the core records it for the invoice's client then.
   */
  saveMethod?(request: SaveMethodRequest, ctx: GatewayContext<K>): Promise<CheckoutResult>;
  /**
   * Optional, with `saveMethod`: charges a saved method off-session for a pending payment the core has
   * just made (autopay), carrying its `reference` and using it as the gateway's idempotency key, so a
   * repeated call charges once. Answers the gateway's id of the charge; whether it succeeded is never
   * read from here — it arrives, as for any payment, by the verified webhook (or reconciliation).
   */
  chargeSaved?(request: ChargeSavedRequest, ctx: GatewayContext<K>): Promise<{ transactionId: string | null }>;
  /**
   * Reconciliation: what the gateway says now of a pending payment (events keyed so that a webhook
   * reporting the same change counts once). Without it, no reconciliation job is scheduled.
   */
  lookup?(payment: GatewayPaymentView, ctx: GatewayContext<K>): Promise<GatewayEvent[]>;
  /** The reconciliation job's schedule (cron, UTC; default every 15 minutes) and name. */
  readonly reconcile?: { schedule?: string; hook?: string };
  /**
   * Further webhook entry points of the same gateway with their own verification and reading (the
   * legacy relay of gateway D: `billing_gateway_d_response`).
   */
  readonly relays?: ReadonlyArray<GatewayEntry<K> & { action: string }>;
}

/** One entry point of a gateway: its webhook, or a relay. */
export type GatewayEntry<K extends OptionKey = OptionKey> = Pick<GatewayProvider<K>, 'verify' | 'parse' | 'names'>;

/**
 * Which payment of ours an event concerns: our `reference` (what every gateway-side object carries), or
 * — for money the gateway's success events recorded without one (A's `billing_invoice_id`) — the
 * gateway's own id, kept as the payment's `transaction_id`. The core looks either up among this
 * method's payments only.
 */
export type GatewayPaymentRef = { reference: string } | { transactionId: string };

/** One delivery to a gateway's webhook, as it arrived. */
export interface GatewayDelivery {
  /** The bytes as they arrived: signatures are computed over these, never over re-serialised JSON. */
  readonly raw: Buffer;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly receivedAt: Date;
}

/** What the core hands a provider for each call. */
export interface GatewayContext<K extends OptionKey = OptionKey> {
  readonly method: string;
  /** The provider's options (`settings`), read for this call, typed by `OptionMap`. Secrets: never log them. */
  readonly settings: Readonly<Pick<OptionMap, K>>;
  readonly log: Logger;
  /**
   * `fetch` against the gateway's API (`apiBase` option), with a timeout. A network failure, a
   * timeout or a 5xx answer throws `billing_gateway_unreachable` (503 for a webhook, a clear page for
   * a customer); other answers are returned as they are.
   */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** The absolute URL of a path of this service (BASE_URL). */
  url(path: string): string;
}

/**
 * A change of a payment as the provider reads it. The core prefixes `key` with the method and stores
 * it in the transaction that applies the command: the same key applied twice, even at once, counts once.
 */
export interface GatewayEvent {
  key: string;
  command: GatewayCommand;
}

/**
 * The closed set of things a gateway can report. The method is never named: it is the provider's.
 * Amounts are decimal text or numbers in the currency's major unit (`Money.fromMinor(n, cur).toString()`
 * for gateways that send minor units); `amount`/`currency` given with `complete` must match the
 * pending payment, or it is marked for review and nothing completes.
 */
export type GatewayCommand =
  | {
      action: 'complete';
      payment: GatewayPaymentRef;
      amount?: DecimalInput;
      currency?: string;
      transactionId?: string | null;
      date?: Date;
      /** The means of payment the gateway saved with this payment (read from its verified answer), see `saveMethod`. */
      saved?: SavedMethodReport;
    }
  | { action: 'fail'; payment: GatewayPaymentRef; reason?: string }
  | { action: 'refund'; payment: GatewayPaymentRef; amount: DecimalInput; reason?: string }
  | { action: 'refund_to'; payment: GatewayPaymentRef; refundedTotal: DecimalInput; reason?: string }
  /** Money confirmed for an invoice with no payment of ours (gateway A's `billing_invoice_id`): recorded as completed. */
  | { action: 'record'; invoiceId: number; amount: DecimalInput; currency?: string; transactionId?: string | null; date?: Date }
  /** Nothing to do (an event type we do not handle); answered 200 and logged. */
  | { action: 'ignore'; reason: string };

/** A pending payment to create at the gateway. */
export interface CheckoutRequest {
  payment: GatewayPaymentView;
  invoice: { id: number; number: string; title: string; customer: { name: string; email: string } };
  /** Where the gateway sends the customer back (carries no access key). */
  returnUrl: string;
  /** Where the customer goes when they give up at the gateway. */
  cancelUrl: string;
}

/** A checkout that also saves the means of payment: the customer the gateway keeps it for. */
export interface SaveMethodRequest extends CheckoutRequest {
  /** The gateway's customer of an earlier saved method of this client, when there is one (reused, not made again). */
  gatewayCustomer: string | null;
}

/**
 * A saved means of payment as the gateway's verified answer reports it. `token` is what `chargeSaved`
 * needs (A: the customer and its payment method; B: the customer and its mandate), opaque to the core
 * and never shown; `label` is what a person sees ("Visa •••• 4242", "SEPA mandate NL•• 4300").
 */
export interface SavedMethodReport {
  token: string;
  /** The gateway's customer it belongs to (reused by the client's next `saveMethod`). */
  customer: string | null;
  label: string;
}

/** An off-session charge of a saved method for a pending payment. */
export interface ChargeSavedRequest {
  payment: GatewayPaymentView;
  invoice: CheckoutRequest['invoice'];
  saved: { token: string; customer: string | null };
}

/** A payment as a provider sees it. `minor` is the amount in the currency's minor units. */
export interface GatewayPaymentView {
  id: number;
  reference: string;
  invoiceId: number;
  amount: string;
  minor: bigint;
  currency: string;
  status: string;
  transactionId: string | null;
  createdAt: Date;
}

export interface CheckoutResult {
  /** The gateway's hosted page; the customer is sent there with a 303. */
  redirectUrl: string;
  /** The gateway's id of what was created, kept on the payment. */
  transactionId?: string | null;
  /**
   * Fields the hosted page must receive by POST rather than in its URL (gateway D's token): the pay
   * route then answers a page whose one button posts them to `redirectUrl`, instead of a 303.
   */
  form?: Readonly<Record<string, string>>;
}
