import { createHash } from 'node:crypto';
import { SYSTEM, type Actor } from '../../audit/audit.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { BillingDocument } from '../../documents/document.ts';
import { BillingError, isBillingError } from '../../errors.ts';
import type { WebhookAction, WebhookAnswer, WebhookRequest } from '../../http/ajax/ajax-action.ts';
import type { JobDefinition } from '../../jobs/scheduler.ts';
import type { Logger } from '../../log.ts';
import { Money, type CurrencyCode } from '../../money/index.ts';
import type { OptionMap } from '../../options/option-map.ts';
import type { OptionsStore } from '../../options/options.ts';
import { OwnedRegistry } from '../../owned-registry.ts';
import type { ContributionSink } from '../../plugins/contributions.ts';
import type { PaymentCommand, PaymentCore, PaymentOutcome, PaymentRef } from '../payment-core.ts';
import type { SavedMethods } from '../saved-methods.ts';
import { isOffline, METHOD_NAME, OFFLINE_METHODS, PAYMENT_COLUMNS, paymentFromRow, type Payment } from '../payment.ts';
import { unreachable, unreadable } from './gateway-helpers.ts';
import type {
  GatewayContext,
  GatewayDelivery,
  GatewayEntry,
  GatewayEvent,
  GatewayPaymentRef,
  GatewayPaymentView,
  GatewayProvider,
} from './gateway-provider.ts';
import { WebhookThrottle } from './webhook-throttle.ts';

/** How long a gateway API call may take before it counts as unreachable. */
const API_TIMEOUT_MS = 15_000;
const DEFAULT_RECONCILE = '*/15 * * * *';
/** Headers kept with an inbox row: what verification read, never cookies or credentials of ours. */
const KEPT_HEADERS = /^(content-type|user-agent|x-|gateway-|webhook-|stripe-|square-)/i;
const KEPT_HEADER_COUNT = 32;
const KEPT_HEADER_CHARS = 1024;
/**
 * The bytes of a delivery's body an inbox row keeps (with the SHA-256 and length of the whole): enough
 * for every event the bundled gateways send, and a bound on what any delivery can write.
 */
export const INBOX_BODY_BYTES = 8 * 1024;
/** Inbox bodies are dropped after this many days, rows (outcomes, digest) after `INBOX_ROW_DAYS`. */
export const INBOX_BODY_DAYS = 7;
export const INBOX_ROW_DAYS = 90;
/** A gateway's pending payment with no money confirmed after this long is cancelled (money arriving later still completes it). */
export const PENDING_EXPIRY_HOURS = 48;
/** Rows the cleanup job touches per kind and run: a backlog is worked off over several runs, none of them long. */
const CLEANUP_BATCH = 1000;
const EXPIRY_BATCH = 200;
const OK: WebhookAnswer = { status: 200, body: { success: true } };

export interface GatewayRuntimeDeps {
  db: Database;
  options: OptionsStore;
  config: Config;
  log: Logger;
  core: PaymentCore;
  saved: SavedMethods;
}

/** One event's outcome, kept in the inbox row. */
interface EventOutcome {
  key: string;
  action: string;
  result: PaymentOutcome['result'] | 'refused' | 'ignored';
  payment: string | null;
  note?: string;
}

/**
 * The core half of every gateway (docs/gateways.md): the registry of active providers (an open set of
 * payment methods), their webhook actions and answers, the inbox, the bound payment origin, checkout
 * for the pay route, and reconciliation. Providers only verify, parse, check out and look up.
 */
export class GatewayRuntime {
  readonly providers = new OwnedRegistry<GatewayProvider>('gateway');
  private readonly d: GatewayRuntimeDeps;
  private readonly throttle = new WebhookThrottle();

  constructor(deps: GatewayRuntimeDeps) {
    this.d = deps;
  }

  /** Whether `method` exists now: an offline method, or the method of an active gateway. */
  isMethod = (method: string): boolean => isOffline(method) || this.providers.get(method) !== undefined;

  get(method: string): GatewayProvider | undefined {
    return this.providers.get(method);
  }

  /** The active gateways whose required settings are set: the pay buttons, in a stable order. */
  async available(): Promise<Array<{ method: string; title: string; canSave: boolean }>> {
    const out: Array<{ method: string; title: string; canSave: boolean }> = [];
    for (const p of this.providers.values().sort((a, b) => a.method.localeCompare(b.method))) {
      if (await this.configured(p)) out.push({ method: p.method, title: p.title, canSave: canSave(p) });
    }
    return out;
  }

  /** The origins of the active gateways' APIs (the pay page's form policy admits them). */
  async origins(): Promise<string[]> {
    const out = new Set<string>();
    for (const p of this.providers.values()) {
      if (!p.apiBase) continue;
      const base = String(await this.d.options.get(p.apiBase as keyof OptionMap));
      // a base the service would not call is no place to send a customer either
      if (!this.d.options.apiBaseProblem(base)) out.add(new URL(base).origin);
    }
    return [...out];
  }

  /**
   * Takes the `gateways` units declare: each provider is registered under its unit, and turned into
   * its webhook actions and its reconciliation job for the sinks after this one.
   */
  sink(): ContributionSink {
    return {
      name: 'gateways',
      load: (r) => {
        const webhooks: WebhookAction[] = [];
        const jobs: JobDefinition[] = [];
        for (const p of r.gateways) {
          if (!METHOD_NAME.test(p.method) || isOffline(p.method)) throw new Error(`${r.owner}: "${p.method}" cannot be a gateway's method`);
          // the base is where the provider's secrets go: its option must be checked as one (https: only)
          if (p.apiBase && this.d.options.schemaOf(p.apiBase)?.format !== 'api-base')
            throw new Error(`${r.owner}: the option ${p.apiBase} (${p.method}'s API base) must be declared with format 'api-base'`);
          this.providers.add(r.owner, p.method, p);
          webhooks.push({ action: `billing_${p.method}_webhook`, handler: (req) => this.deliver(p, p, req) });
          for (const relay of p.relays ?? []) webhooks.push({ action: relay.action, handler: (req) => this.deliver(p, relay, req) });
          if (p.lookup) {
            jobs.push({
              hook: p.reconcile?.hook ?? `billing_check_pending_${p.method}_payments`,
              schedule: p.reconcile?.schedule ?? DEFAULT_RECONCILE,
              description: `Looks up every pending ${p.method} payment at the gateway and applies what it reports`,
              run: () => this.reconcile(p),
            });
          }
        }
        return { webhooks, jobs };
      },
      unload: (owner) => this.providers.removeOwner(owner),
    };
  }

  /**
   * A delivery to a gateway's webhook. Answers (docs/gateways.md): 429 to an address whose requests
   * keep being refused, 503 while the gateway is not configured, 401 for a bad or missing signature,
   * then — once stored in the inbox — 400 when unreadable, 503 when the gateway's API or our database
   * cannot be reached (the gateway retries), and 200 for everything else: applied, duplicate,
   * unchanged, under review, ignored, unknown, refused (logged). The 200s all look alike, so nobody
   * learns from them whether a payment exists.
   */
  async deliver(p: GatewayProvider, entry: GatewayEntry, req: WebhookRequest): Promise<WebhookAnswer> {
    try {
      return await this.receive(p, entry, req);
    } catch (err) {
      if (isBillingError(err)) throw err;
      // not ours to judge: the database or the service itself failed, and the gateway will try again
      this.d.log.error({ err, gateway: p.method }, 'webhook not taken: the service failed');
      throw new BillingError('billing_unavailable', 'The service cannot take this notification now; please retry.');
    }
  }

  /**
   * Anonymous work is bounded here, once for every gateway: an address whose requests keep doing no
   * work is turned away before anything is read; a signed delivery is stored only once it verifies; an
   * unsigned one (an entry with `names`) only once it names a payment of ours — looked up before the
   * gateway's API is asked anything — and reports a change; the inbox keeps at most
   * `INBOX_BODY_BYTES` of a body.
   */
  private async receive(p: GatewayProvider, entry: GatewayEntry, req: WebhookRequest): Promise<WebhookAnswer> {
    const address = req.ip || 'unknown';
    const wait = this.throttle.blocked(address);
    if (wait) {
      throw new BillingError('billing_too_many_attempts', 'Too many refused notifications from this address; try again later.', {
        retry_after: wait,
      });
    }
    const delivery: GatewayDelivery = {
      raw: req.raw,
      headers: lowerCase(req.headers),
      query: req.query,
      receivedAt: new Date(),
    };
    const log = this.d.log.child({ gateway: p.method, action: req.action });
    const ctx = await this.context(p);
    if (!(await this.configured(p, ctx.settings))) {
      throw new BillingError('billing_gateway_not_configured', `${p.title} is not configured.`);
    }
    if (!(await entry.verify(delivery, ctx))) {
      await this.refused(address);
      log.warn({ ip: req.ip, bytes: req.raw.length }, 'webhook refused: bad or missing signature');
      throw new BillingError('billing_invalid_signature', 'The signature of the request is missing or wrong.');
    }
    const unsigned = typeof entry.names === 'function';
    let named: GatewayPaymentRef | null = null;
    if (unsigned) {
      try {
        named = entry.names!(delivery);
      } catch (err) {
        // unreadable, and not stored: nothing vouches for it
        await this.refused(address);
        throw isBillingError(err) && err.code === 'billing_bad_request' ? err : unreadable();
      }
    }
    if (unsigned && !(await this.isOurs(p, named))) {
      // nothing vouches for this body: it gets no row, no call to the gateway, and the answer of an
      // unknown payment (so it learns nothing), and counts against its address
      await this.refused(address);
      log.info({ ip: req.ip, bytes: req.raw.length }, 'webhook dropped: it names no payment of ours');
      return OK;
    }
    let read: { events?: GatewayEvent[]; error?: unknown };
    try {
      read = { events: await entry.parse(delivery, ctx) };
    } catch (error) {
      read = { error };
    }
    // the gateway retrying what is already applied: answered from one key lookup, with no inbox row and
    // no transaction, so that a retry storm costs what a primary-key lookup costs
    if (read.events && (await this.alreadyApplied(p, read.events))) {
      log.debug('webhook duplicate: every event already applied');
      return OK;
    }
    if (unsigned && read.events?.every((e) => e.command.action === 'ignore')) {
      await this.refused(address);
      log.info({ ip: req.ip }, 'webhook dropped: the gateway reports nothing to apply');
      return OK;
    }
    const inboxId = await this.store(p, req.action, delivery);
    return this.apply(p, entry, delivery, ctx, inboxId, log, read);
  }

  /** Counts a request of `address` that did no work (a gateway's retries of what applied are not counted). */
  private async refused(address: string): Promise<void> {
    this.throttle.refused(address, await this.d.options.get('gateway_webhook_max_refusals'));
  }

  /** Whether an unsigned delivery names a payment of this method (one indexed read, no call out). */
  private async isOurs(p: GatewayProvider, named: GatewayPaymentRef | null): Promise<boolean> {
    if (!named) return false;
    const byTransaction = 'transactionId' in named;
    const value: unknown = byTransaction ? named.transactionId : named.reference;
    if (typeof value !== 'string' || !value || value.length > 200) return false;
    const rows = await this.d.db.query(
      `select 1 from billing_payments where method = $1 and ${byTransaction ? 'transaction_id' : 'reference'} = $2 limit 1`,
      [p.method, value],
    );
    return rows.length > 0;
  }

  /** Whether every event of a delivery that changes something has its key stored already. */
  private async alreadyApplied(p: GatewayProvider, events: GatewayEvent[]): Promise<boolean> {
    const keys = events.filter((e) => e.command.action !== 'ignore').map((e) => `${p.method}:${e.key}`);
    if (!keys.length) return false;
    const [row] = await this.d.db.query<{ n: number }>('select count(*)::int as n from billing_payment_events where key = any($1)', [keys]);
    return row!.n === new Set(keys).size;
  }

  /** Applies a stored delivery again (`billing gateway replay <id>`): its keys make a repeat count once. */
  async replay(id: number): Promise<{ id: number; status: number; outcomes: unknown }> {
    const rows = await this.d.db.query<{
      method: string;
      action: string;
      headers: Record<string, string>;
      body: Buffer | null;
      body_bytes: number | null;
      received_at: string;
    }>('select method, action, headers, body, body_bytes, received_at from billing_gateway_deliveries where id = $1', [id]);
    const row = rows[0];
    if (!row) throw new BillingError('billing_rest_not_found', `No gateway delivery has the id ${id}.`);
    if (!row.body)
      throw new BillingError('billing_rest_invalid_state', `Delivery ${id} is older than ${INBOX_BODY_DAYS} days: its body is gone.`);
    if (row.body_bytes !== null && row.body.length < row.body_bytes) {
      throw new BillingError(
        'billing_rest_invalid_state',
        `Delivery ${id} had ${row.body_bytes} bytes; only the first ${row.body.length} were kept, which cannot be read again.`,
      );
    }
    const p = this.providers.get(row.method);
    if (!p) throw new BillingError('billing_rest_invalid_state', `The gateway ${row.method} is not active.`);
    const entry = p.relays?.find((r) => r.action === row.action) ?? p;
    const delivery: GatewayDelivery = {
      raw: Buffer.from(row.body),
      headers: row.headers,
      query: {},
      receivedAt: new Date(row.received_at),
    };
    const answer = await this.apply(p, entry, delivery, await this.context(p), id, this.d.log.child({ gateway: p.method, replay: id }));
    const [stored] = await this.d.db.query<{ outcomes: unknown }>('select outcomes from billing_gateway_deliveries where id = $1', [id]);
    return { id, status: answer.status, outcomes: stored?.outcomes ?? null };
  }

  private async apply(
    p: GatewayProvider,
    entry: Pick<GatewayEntry, 'parse'>,
    delivery: GatewayDelivery,
    ctx: GatewayContext,
    inboxId: number,
    log: Logger,
    read?: { events?: GatewayEvent[]; error?: unknown },
  ): Promise<WebhookAnswer> {
    let events: GatewayEvent[];
    try {
      if (read?.error !== undefined) throw read.error;
      events = read?.events ?? (await entry.parse(delivery, ctx));
    } catch (err) {
      // only a gateway (or database) that cannot be asked is worth a retry; whatever else a provider
      // throws (a missing field read, an amount that is no integer) will throw again on every retry,
      // so it is an unreadable body: 400, kept in the inbox for a person and `billing gateway replay`
      const retry = isBillingError(err) && err.status >= 500;
      await this.mark(inboxId, retry ? 'unavailable' : 'unreadable', null, err);
      if (!retry) {
        log.warn({ err }, 'webhook not applied: the body could not be read');
        throw isBillingError(err) && err.code === 'billing_bad_request' ? err : unreadable();
      }
      log.warn({ err }, 'webhook not applied: the gateway could not be asked');
      throw (err as BillingError).status === 503 ? err : unreachable();
    }
    const outcomes: EventOutcome[] = [];
    try {
      for (const event of events) outcomes.push(await this.applyEvent(p, event, log));
    } catch (err) {
      await this.mark(inboxId, 'failed', outcomes, err).catch(() => {});
      log.error({ err }, 'webhook not applied: the database could not be reached');
      throw new BillingError('billing_unavailable', 'The service cannot take this notification now; please retry.');
    }
    await this.mark(inboxId, 'applied', outcomes, null);
    return { status: 200, body: { success: true } };
  }

  /** One event through the payment core, as this gateway's method: refusals are answered, not thrown. */
  private async applyEvent(p: GatewayProvider, event: GatewayEvent, log: Logger): Promise<EventOutcome> {
    const cmd = event.command;
    const key = `${p.method}:${event.key}`;
    if (cmd.action === 'ignore') {
      log.info({ key, reason: cmd.reason }, 'webhook event ignored');
      return { key, action: 'ignore', result: 'ignored', payment: null, note: cmd.reason };
    }
    // a payment named by the gateway's own id is looked up among this method's payments only
    const ref = (r: GatewayPaymentRef): PaymentRef =>
      'transactionId' in r ? { transactionId: r.transactionId, method: p.method } : { reference: r.reference };
    // what the gateway saved is not the payment core's: it is kept once the completion is known to be true
    const saved = cmd.action === 'complete' ? cmd.saved : undefined;
    const command: PaymentCommand =
      cmd.action === 'record'
        ? { ...cmd, method: p.method, status: 'completed', key }
        : cmd.action === 'refund'
          ? { ...cmd, payment: ref(cmd.payment), reason: cmd.reason ?? '', key }
          : cmd.action === 'complete'
            ? { ...withoutSaved(cmd), payment: ref(cmd.payment), key }
            : { ...cmd, payment: ref(cmd.payment), key };
    try {
      const out = await this.d.core.apply(command, { channel: 'gateway', method: p.method, actor: gatewayActor(p.method) });
      if (out.result !== 'applied' && out.result !== 'duplicate')
        log.info({ key, result: out.result, note: out.note }, 'webhook event not applied');
      // applied, or already complete (a reconcile got there first): saving is an upsert, so either may do it
      if (saved && out.payment?.status === 'completed' && (await this.d.saved.recordFor(out.payment.id, p.method, saved)))
        log.info({ payment: out.payment.reference }, 'payment method saved for the client');
      return {
        key,
        action: cmd.action,
        result: out.result,
        payment: out.payment?.reference ?? null,
        ...(out.note ? { note: out.note } : {}),
      };
    } catch (err) {
      // a refusal will refuse again on every retry: answered 200, logged for a person
      if (!isBillingError(err) || err.status >= 500) throw err;
      log.warn({ key, code: err.code, message: err.message }, 'webhook event refused by the payment core');
      return { key, action: cmd.action, result: 'refused', payment: null, note: `${err.code}: ${err.message}` };
    }
  }

  /**
   * The pay route's work: a pending payment first, then one creation call at the gateway carrying
   * its reference. The pending payment is recorded under the invoice's lock, cancelling the older
   * pending ones of the same invoice and method in the same transaction (money that still arrives for
   * them is recorded all the same, held for review if it is more than is due), so concurrent pays leave
   * one pending checkout and never more than is due is asked. An invoice with nothing left to pay now
   * is `billing_rest_invalid_state`. If the gateway cannot be reached the new payment is cancelled and
   * `billing_gateway_unreachable` thrown.
   */
  async checkout(
    invoice: BillingDocument,
    method: string,
    amount: Money,
    urls: { returnUrl: (reference: string) => string; cancelUrl: (reference: string) => string },
    opts: { saveMethod?: boolean } = {},
  ) {
    const p = this.providers.get(method);
    if (!p || !(await this.configured(p)))
      throw new BillingError('billing_gateway_not_configured', 'This payment method is not available.');
    // saving needs a client to save for and a gateway that can; otherwise this is a plain checkout
    const saveFor = opts.saveMethod && invoice.clientId && canSave(p) ? invoice.clientId : null;
    const origin = { channel: 'gateway' as const, method, actor: gatewayActor(method) };
    const recorded = await this.d.core.apply(
      { action: 'record', invoiceId: invoice.id, amount: amount.toString(), method, status: 'pending', notes: 'checkout', supersede: true },
      origin,
    );
    const payment = recorded.payment!;
    try {
      const request = {
        payment: view(payment),
        invoice: invoiceView(invoice),
        returnUrl: urls.returnUrl(payment.reference),
        cancelUrl: urls.cancelUrl(payment.reference),
      };
      const ctx = await this.context(p);
      let result;
      if (saveFor) {
        await this.d.db.query('update billing_payments set save_for_client = $2 where id = $1', [payment.id, saveFor]);
        const [earlier] = await this.d.saved.usable(saveFor, method);
        result = await p.saveMethod!({ ...request, gatewayCustomer: earlier?.gatewayCustomer ?? null }, ctx);
      } else {
        result = await p.checkout(request, ctx);
      }
      if (result.transactionId) {
        await this.d.db.query('update billing_payments set transaction_id = $2, updated_at = now() where id = $1', [
          payment.id,
          result.transactionId,
        ]);
      }
      return { payment, redirectUrl: result.redirectUrl, ...(result.form ? { form: result.form } : {}) };
    } catch (err) {
      await this.d.core.apply(
        { action: 'cancel', payment: { id: payment.id }, reason: 'the gateway could not create the checkout' },
        origin,
      );
      this.d.log.warn({ err, gateway: method, payment: payment.reference }, 'checkout failed');
      throw isBillingError(err) && err.code === 'billing_gateway_unreachable' ? err : unreachable();
    }
  }

  /**
   * Autopay: charges the client's newest saved method of a gateway that can charge it, off-session, for
   * what `invoice` has due. `key` names this attempt (invoice and attempt number): the pending payment is
   * recorded under it, so a repeated call finds the same payment and asks the gateway again with the
   * same idempotency key (the payment's reference) — one charge per attempt, however often it runs.
   * Nothing here completes the payment: the gateway's verified webhook does, as for any payment.
   * Answers null when there is nothing to charge with (no saved method, its gateway inactive).
   */
  async chargeSaved(invoice: BillingDocument, key: string): Promise<{ payment: Payment; savedMethodId: number } | null> {
    if (!invoice.clientId) return null;
    let chosen: { p: GatewayProvider; m: Awaited<ReturnType<SavedMethods['usable']>>[number] } | null = null;
    for (const m of await this.d.saved.usable(invoice.clientId)) {
      const p = this.providers.get(m.method);
      if (p?.chargeSaved && (await this.configured(p))) {
        chosen = { p, m };
        break;
      }
    }
    if (!chosen) return null;
    const { p, m } = chosen;
    const origin = { channel: 'gateway' as const, method: p.method, actor: gatewayActor(p.method) };
    const due = Money.parse(invoice.totals.due, invoice.currency as CurrencyCode);
    const recorded = await this.d.core.apply(
      { action: 'record', invoiceId: invoice.id, amount: due.toString(), method: p.method, status: 'pending', notes: 'autopay', key },
      origin,
    );
    const payment = recorded.payment;
    if (!payment) return null;
    if (payment.status !== 'pending') return { payment, savedMethodId: m.id };
    const result = await p.chargeSaved!(
      { payment: view(payment), invoice: invoiceView(invoice), saved: { token: m.token, customer: m.gatewayCustomer } },
      await this.context(p),
    );
    if (result.transactionId) {
      await this.d.db.query(
        'update billing_payments set transaction_id = $2, updated_at = now() where id = $1 and transaction_id is null',
        [payment.id, result.transactionId],
      );
    }
    return { payment, savedMethodId: m.id };
  }

  /** Asks the gateway about every pending payment of its method, and applies what it reports. */
  async reconcile(p: GatewayProvider): Promise<{ checked: number; applied: number; unreachable: number }> {
    const rows = await this.d.db.query(
      `select ${PAYMENT_COLUMNS} from billing_payments where method = $1 and status = 'pending' order by id`,
      [p.method],
    );
    const ctx = await this.context(p);
    const log = this.d.log.child({ gateway: p.method, job: 'reconcile' });
    let applied = 0;
    let failed = 0;
    if (!(await this.configured(p, ctx.settings))) return { checked: 0, applied, unreachable: failed };
    for (const payment of rows.map(paymentFromRow)) {
      try {
        for (const event of await p.lookup!(view(payment), ctx)) {
          if ((await this.applyEvent(p, event, log)).result === 'applied') applied++;
        }
      } catch (err) {
        failed++;
        log.warn({ err, payment: payment.reference }, 'reconciliation could not look the payment up');
      }
    }
    return { checked: rows.length, applied, unreachable: failed };
  }

  /**
   * The gateways' housekeeping (job `billing_gateway_cleanup`), each part bounded per run: inbox bodies
   * older than `INBOX_BODY_DAYS` are dropped (the row keeps its outcomes, digest and length), rows older
   * than `INBOX_ROW_DAYS` deleted — idempotency does not depend on them: event keys stay in
   * `billing_payment_events` — and pending gateway payments with no money confirmed after
   * `PENDING_EXPIRY_HOURS` cancelled through the payment core (not those held for review: a person
   * decides those). Money that arrives for a cancelled payment still completes it.
   */
  async cleanup(): Promise<{ bodies_dropped: number; deliveries_deleted: number; payments_expired: number }> {
    const dropped = await this.d.db.query(
      `update billing_gateway_deliveries set body = null, headers = '{}'::jsonb
        where id in (select id from billing_gateway_deliveries
                      where body is not null and received_at < now() - make_interval(days => $1) order by id limit $2)
       returning id`,
      [INBOX_BODY_DAYS, CLEANUP_BATCH],
    );
    const deleted = await this.d.db.query(
      `delete from billing_gateway_deliveries
        where id in (select id from billing_gateway_deliveries where received_at < now() - make_interval(days => $1) order by id limit $2)
       returning id`,
      [INBOX_ROW_DAYS, CLEANUP_BATCH],
    );
    const stale = await this.d.db.query<{ id: string; method: string }>(
      `select id, method from billing_payments
        where status = 'pending' and review is null and method <> all($1) and created_at < now() - make_interval(hours => $2)
        order by created_at limit $3`,
      [OFFLINE_METHODS, PENDING_EXPIRY_HOURS, EXPIRY_BATCH],
    );
    let expired = 0;
    for (const s of stale) {
      const out = await this.d.core.apply(
        { action: 'cancel', payment: { id: Number(s.id) }, reason: `expired: no money confirmed within ${PENDING_EXPIRY_HOURS} hours` },
        { channel: 'gateway', method: s.method, actor: gatewayActor(s.method) },
      );
      if (out.result === 'applied') expired++;
    }
    return { bodies_dropped: dropped.length, deliveries_deleted: deleted.length, payments_expired: expired };
  }

  private async context(p: GatewayProvider): Promise<GatewayContext> {
    // the provider's own keys only (typed for it by its GatewayProvider<K>)
    const settings = (p.settings.length ? await this.d.options.getMany([...p.settings]) : {}) as GatewayContext['settings'];
    const base = p.apiBase ? String(settings[p.apiBase] ?? '') : '';
    const log = this.d.log.child({ gateway: p.method });
    return {
      method: p.method,
      settings,
      log,
      url: (path) => `${this.d.config.baseUrl}${path}`,
      api: async (path, init) => {
        if (!base) throw unreachable();
        // checked again at every call, whatever the option's history: a key goes to https: only
        const problem = this.d.options.apiBaseProblem(base);
        if (problem) {
          log.warn({ option: p.apiBase, problem }, 'gateway API not called: its base is refused');
          throw unreachable();
        }
        let res: Response;
        try {
          res = await fetch(new URL(path, base.endsWith('/') ? base : `${base}/`), {
            ...init,
            signal: AbortSignal.timeout(API_TIMEOUT_MS),
          });
        } catch (err) {
          log.warn({ err: (err as Error).message, path }, 'gateway API unreachable');
          throw unreachable();
        }
        if (res.status >= 500) {
          log.warn({ status: res.status, path }, 'gateway API failed');
          throw unreachable();
        }
        return res;
      },
    };
  }

  private async configured(p: GatewayProvider, settings?: Readonly<Record<string, unknown>>): Promise<boolean> {
    const s = settings ?? (p.required.length ? await this.d.options.getMany(p.required as Array<keyof OptionMap>) : {});
    return p.required.every((k) => {
      const v = (s as Record<string, unknown>)[k];
      return v !== undefined && v !== null && String(v).trim() !== '';
    });
  }

  private async store(p: GatewayProvider, action: string, delivery: GatewayDelivery): Promise<number> {
    const headers = Object.fromEntries(
      Object.entries(delivery.headers)
        .filter(([k, v]) => KEPT_HEADERS.test(k) && v !== undefined)
        .slice(0, KEPT_HEADER_COUNT)
        .map(([k, v]) => [k, (Array.isArray(v) ? v.join(', ') : String(v)).slice(0, KEPT_HEADER_CHARS)]),
    );
    const raw = delivery.raw;
    const body = raw.length > INBOX_BODY_BYTES ? raw.subarray(0, INBOX_BODY_BYTES) : raw;
    const sha256 = createHash('sha256').update(raw).digest('hex');
    try {
      const [row] = await this.d.db.query<{ id: string }>(
        `insert into billing_gateway_deliveries (method, action, headers, body, body_bytes, body_sha256, received_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [p.method, action, JSON.stringify(headers), body, raw.length, sha256, delivery.receivedAt],
      );
      return Number(row!.id);
    } catch (err) {
      this.d.log.error({ err, gateway: p.method }, 'webhook not stored: the database could not be reached');
      throw new BillingError('billing_unavailable', 'The service cannot take this notification now; please retry.');
    }
  }

  private async mark(id: number, status: string, outcomes: EventOutcome[] | null, err: unknown): Promise<void> {
    await this.d.db.query(
      `update billing_gateway_deliveries set status = $2, outcomes = $3, error = $4,
              applied_at = case when $2 = 'applied' then now() else applied_at end where id = $1`,
      [id, status, outcomes ? JSON.stringify(outcomes) : null, err ? String((err as Error).message ?? err).slice(0, 2000) : null],
    );
  }
}

function view(p: Payment): GatewayPaymentView {
  return {
    id: p.id,
    reference: p.reference,
    invoiceId: p.invoiceId,
    amount: p.amount,
    minor: Money.parse(p.amount, p.currency as CurrencyCode).minor,
    currency: p.currency,
    status: p.status,
    transactionId: p.transactionId,
    createdAt: p.createdAt,
  };
}

function withoutSaved<T extends { saved?: unknown }>({ saved: _saved, ...rest }: T): Omit<T, 'saved'> {
  return rest;
}

function invoiceView(invoice: BillingDocument) {
  return {
    id: invoice.id,
    number: invoice.number,
    title: invoice.title,
    customer: { name: invoice.customer.name, email: invoice.customer.email },
  };
}

/** Whether a gateway can save a means of payment and charge it later (both halves, or neither counts). */
const canSave = (p: GatewayProvider): boolean => typeof p.saveMethod === 'function' && typeof p.chargeSaved === 'function';

function gatewayActor(method: string): Actor {
  return { ...SYSTEM, name: method };
}

function lowerCase(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
