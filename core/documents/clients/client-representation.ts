import type { HookRegistry } from '../../hooks/registry.ts';
import { Decimal, isCurrency, Money } from '../../money/index.ts';
import { siteDateTime } from '../../time/site-time.ts';
import type { Client, ClientTotals } from './client-service.ts';

export interface ClientRepresentationContext {
  /** The site currency (option `currency`): the one `totals` is given in. */
  currency: string;
  timezone: string;
  hooks: HookRegistry;
  /** The request, passed to `billing_rest_client`. */
  request?: unknown;
}

/** Rounded to the currency's minor unit, as a JSON number (docs/api.md). */
function amount(value: string, currency: string): number {
  return isCurrency(currency) ? Money.fromDecimal(Decimal.parse(value), currency).toNumber() : Number(value);
}

function totalsJson(t: ClientTotals | undefined, currency: string) {
  return t
    ? { invoiced: amount(t.invoiced, currency), paid: amount(t.paid, currency), due: amount(t.due, currency) }
    : { invoiced: 0, paid: 0, due: 0 };
}

/**
 * Client: `{id, name, email, company, country, vat, address, locale, created}` plus `counts` and `totals`.
 * `totals` covers the documents in the site currency, named by `currency`; `totals_by_currency` gives
 * every currency the client has invoices in (the site's too), since amounts of different currencies
 * cannot be added. Then `billing_model_to_array` and `billing_rest_client` (docs/plugins.md).
 */
export async function clientRepresentation(client: Client, ctx: ClientRepresentationContext): Promise<Record<string, unknown>> {
  const data = {
    id: client.id,
    name: client.name,
    email: client.email,
    company: client.company,
    country: client.country,
    vat: client.vat,
    address: client.address,
    locale: client.locale,
    created: siteDateTime(client.created, ctx.timezone),
    counts: { invoices: client.counts.invoices, quotes: client.counts.quotes },
    currency: ctx.currency,
    totals: totalsJson(client.totals[ctx.currency], ctx.currency),
    totals_by_currency: Object.fromEntries(
      Object.keys(client.totals)
        .sort()
        .map((c) => [c, totalsJson(client.totals[c], c)]),
    ),
  };
  const arrayed = await ctx.hooks.applyFilters('billing_model_to_array', data, client);
  return ctx.hooks.applyFilters('billing_rest_client', arrayed, client, ctx.request);
}
