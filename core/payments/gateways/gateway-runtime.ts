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
import type { PaymentCommand, PaymentCore, PaymentOutcome } from '../payment-core.ts';
import { isOffline, METHOD_NAME, PAYMENT_COLUMNS, paymentFromRow, type Payment } from '../payment.ts';
import type { GatewayContext, GatewayDelivery, GatewayEvent, GatewayPaymentView, GatewayProvider } from './gateway-provider.ts';

/** How long a gateway API call may take before it counts as unreachable. */
const API_TIMEOUT_MS = 15_000;
const DEFAULT_RECONCILE = '*/15 * * * *';
/** Headers kept with an inbox row: what verification read, never cookies or credentials of ours. */
const KEPT_HEADERS = /^(content-type|user-agent|x-|gateway-|webhook-|stripe-|square-)/i;

export interface GatewayRuntimeDeps {
  db: Database;
  options: OptionsStore;
  config: Config;
  log: Logger;
  core: PaymentCore;
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

  constructor(deps: GatewayRuntimeDeps) {
    this.d = deps;
  }

  /** Whether `method` exists now: an offline method, or the method of an active gateway. */
  isMethod = (method: string): boolean => isOffline(method) || this.providers.get(method) !== undefined;

  get(method: string): GatewayProvider | undefined {
    return this.providers.get(method);
  }

  /** The active gateways whose required settings are set: the pay buttons, in a stable order. */
  async available(): Promise<Array<{ method: string; title: string }>> {
    const out: Array<{ method: string; title: string }> = [];
    for (const p of this.providers.values().sort((a, b) => a.method.localeCompare(b.method))) {
      if (await this.configured(p)) out.push({ method: p.method, title: p.title });
    }
    return out;
  }

  /** The origins of the active gateways' APIs (the pay page's form policy admits them). */
  async origins(): Promise<string[]> {
    const out = new Set<string>();
    for (const p of this.providers.values()) {
      if (!p.apiBase) continue;
      const base = String(await this.d.options.get(p.apiBase as keyof OptionMap));
      try {
        out.add(new URL(base).origin);
      } catch {
        // not a URL: the gateway is not configured, and shows no button
      }
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
   * A delivery to a gateway's webhook. Answers (contract §7): 503 while the gateway is not configured,
   * 401 for a bad or missing signature, then — once stored in the inbox — 400 when unreadable, 503 when
   * the gateway's API or our database cannot be reached (the gateway retries), and 200 for everything
   * else: applied, duplicate, unchanged, under review, ignored, unknown, refused (logged). The 200s all
   * look alike, so nobody learns from them whether a payment exists.
   */
  async deliver(p: GatewayProvider, entry: Pick<GatewayProvider, 'verify' | 'parse'>, req: WebhookRequest): Promise<WebhookAnswer> {
    try {
      return await this.receive(p, entry, req);
    } catch (err) {
      if (isBillingError(err)) throw err;
      // not ours to judge: the database or the service itself failed, and the gateway will try again
      this.d.log.error({ err, gateway: p.method }, 'webhook not taken: the service failed');
      throw new BillingError('billing_unavailable', 'The service cannot take this notification now; please retry.');
    }
  }

  private async receive(p: GatewayProvider, entry: Pick<GatewayProvider, 'verify' | 'parse'>, req: WebhookRequest): Promise<WebhookAnswer> {
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
      log.warn({ ip: req.ip, bytes: req.raw.length }, 'webhook refused: bad or missing signature');
      throw new BillingError('billing_invalid_signature', 'The signature of the request is missing or wrong.');
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
      return { status: 200, body: { success: true } };
    }
    const inboxId = await this.store(p, req.action, delivery);
    return this.apply(p, entry, delivery, ctx, inboxId, log, read);
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
      body: Buffer;
      received_at: string;
    }>('select method, action, headers, body, received_at from billing_gateway_deliveries where id = $1', [id]);
    const row = rows[0];
    if (!row) throw new BillingError('billing_rest_not_found', `No gateway delivery has the id ${id}.`);
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
    entry: Pick<GatewayProvider, 'parse'>,
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
      const unreadable = isBillingError(err) && err.status === 400;
      await this.mark(inboxId, unreadable ? 'unreadable' : 'unavailable', null, err);
      if (unreadable) throw err;
      log.warn({ err }, 'webhook not applied: the gateway could not be asked');
      throw isBillingError(err) && err.status === 503 ? err : unreachable();
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
    const command: PaymentCommand =
      cmd.action === 'record'
        ? { ...cmd, method: p.method, status: 'completed', key }
        : cmd.action === 'refund'
          ? { ...cmd, reason: cmd.reason ?? '', key }
          : { ...cmd, key };
    try {
      const out = await this.d.core.apply(command, { channel: 'gateway', method: p.method, actor: gatewayActor(p.method) });
      if (out.result !== 'applied' && out.result !== 'duplicate')
        log.info({ key, result: out.result, note: out.note }, 'webhook event not applied');
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
   * its reference. A newer checkout of the same invoice and method cancels the older pending ones (money
   * that still arrives for them completes them all the same), so retries never double a payment. If
   * the gateway cannot be reached the new payment is cancelled and `billing_gateway_unreachable` thrown.
   */
  async checkout(
    invoice: BillingDocument,
    method: string,
    amount: Money,
    urls: { returnUrl: (reference: string) => string; cancelUrl: (reference: string) => string },
  ) {
    const p = this.providers.get(method);
    if (!p || !(await this.configured(p)))
      throw new BillingError('billing_gateway_not_configured', 'This payment method is not available.');
    const origin = { channel: 'gateway' as const, method, actor: gatewayActor(method) };
    const older = await this.d.db.query<{ reference: string }>(
      `select reference from billing_payments where invoice_id = $1 and method = $2 and status = 'pending'`,
      [invoice.id, method],
    );
    for (const o of older)
      await this.d.core.apply({ action: 'cancel', payment: { reference: o.reference }, reason: 'replaced by a newer checkout' }, origin);
    const recorded = await this.d.core.apply(
      { action: 'record', invoiceId: invoice.id, amount: amount.toString(), method, status: 'pending', notes: 'checkout' },
      origin,
    );
    const payment = recorded.payment!;
    try {
      const result = await p.checkout(
        {
          payment: view(payment),
          invoice: {
            id: invoice.id,
            number: invoice.number,
            title: invoice.title,
            customer: { name: invoice.customer.name, email: invoice.customer.email },
          },
          returnUrl: urls.returnUrl(payment.reference),
          cancelUrl: urls.cancelUrl(payment.reference),
        },
        await this.context(p),
      );
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

  private async context(p: GatewayProvider): Promise<GatewayContext> {
    const settings = p.settings.length ? await this.d.options.getMany(p.settings as Array<keyof OptionMap>) : {};
    const base = p.apiBase ? String((settings as Record<string, unknown>)[p.apiBase] ?? '') : '';
    const log = this.d.log.child({ gateway: p.method });
    return {
      method: p.method,
      settings,
      log,
      url: (path) => `${this.d.config.baseUrl}${path}`,
      api: async (path, init) => {
        if (!base) throw unreachable();
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
    const headers = Object.fromEntries(Object.entries(delivery.headers).filter(([k]) => KEPT_HEADERS.test(k)));
    try {
      const [row] = await this.d.db.query<{ id: string }>(
        `insert into billing_gateway_deliveries (method, action, headers, body, received_at) values ($1, $2, $3, $4, $5) returning id`,
        [p.method, action, JSON.stringify(headers), delivery.raw, delivery.receivedAt],
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

function gatewayActor(method: string): Actor {
  return { ...SYSTEM, name: method };
}

function unreachable(): BillingError {
  return new BillingError(
    'billing_gateway_unreachable',
    'The payment gateway cannot be reached right now. Please try again in a few minutes.',
  );
}

function lowerCase(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
