import { BILL_CAPABILITIES, WP_CAPABILITIES } from '../identity/capabilities.ts';
import { html, raw, type Html } from '../http/html.ts';
import type { OptionsStore } from '../options/options.ts';
import type { AdminScreen, ScreenContext } from './screens.ts';

/** What every app screen hands the browser bundle: which screen to mount and what the user may do. */
export interface AppProps {
  screen: string;
  /** The capabilities (of those the screens ask about) the signed-in user holds. */
  caps: string[];
  /** The site's currency: the default of new documents and reports. */
  currency: string;
  query: Record<string, string>;
  [extra: string]: unknown;
}

/** The capabilities screens ask about: the core's plus any a plugin's screen names. */
const ASKED = [...BILL_CAPABILITIES, ...WP_CAPABILITIES];

export interface AppScreenSpec {
  slug: string;
  title: string;
  order: number;
  capability: string | null;
  /** The component of the bundle that mounts here (core/admin/app/main.tsx). */
  screen: string;
  hidden?: boolean;
  parent?: string;
}

/**
 * A screen rendered by the browser app: the server sends the shell with a mount point and the screen's
 * props as JSON data (not script: the Content-Security-Policy forbids inline script); the bundle draws
 * the rest from the REST routes and AJAX actions, with the page's nonces.
 */
export function appScreen(
  spec: AppScreenSpec,
  options: OptionsStore | null,
  extra: Record<string, unknown> | ((ctx: ScreenContext) => Promise<Record<string, unknown>>) = {},
): AdminScreen {
  return {
    slug: spec.slug,
    title: spec.title,
    order: spec.order,
    capability: spec.capability,
    hidden: spec.hidden,
    parent: spec.parent,
    async render(ctx: ScreenContext): Promise<Html> {
      const caps = await ctx.capabilities(ASKED);
      const query: Record<string, string> = {};
      for (const [k, v] of Object.entries(ctx.query)) if (typeof v === 'string' && k.length < 40) query[k] = v.slice(0, 200);
      const currency = options ? await options.get('currency') : '';
      const more = typeof extra === 'function' ? await extra(ctx) : extra;
      return appMount({ ...more, screen: spec.screen, caps, currency, query });
    },
  };
}

/** A settings screen of a plugin, declared as data (see docs/admin.md). */
export interface OptionsScreenDeclaration {
  /** `/wp-admin/<slug>`, e.g. `webhooks.php`. */
  slug: string;
  /** The menu link and the page title. */
  title: string;
  /** Who sees the link and may read and change these options. */
  capability: string;
  /** The options it edits (the plugin's own, declared in its `settings`), in this order. */
  options: readonly string[];
  order?: number;
  /** A line under the title. */
  description?: string;
}

/**
 * A screen made of data: the generic settings form for `options`, drawn from their schemas (secrets
 * write-only), under the plugin's capability. A plugin lists it in `screens` like any other; the core
 * adds and removes it with the plugin, on every instance.
 */
export function optionsScreen(d: OptionsScreenDeclaration): AdminScreen {
  const screen = appScreen({ slug: d.slug, title: d.title, order: d.order ?? 70, capability: d.capability, screen: 'options' }, null, {
    slug: d.slug,
    description: d.description ?? '',
  });
  return { ...screen, options: [...d.options] };
}

/** JSON inside `<script type="application/json">`: `<` escaped so no text can close the element. */
export function appMount(props: AppProps): Html {
  const json = JSON.stringify(props).replace(/</g, '\\u003c');
  return html`<div id="billing-app" data-screen="${props.screen}"><p class="billing-loading" role="status">Loading…</p><noscript><p>This screen needs JavaScript.</p></noscript></div>
<script type="application/json" id="billing-props">${raw(json)}</script>`;
}

/** The core's screens of docs/admin.md (Dashboard and Plugins are their own files). */
export const CORE_APP_SCREENS: AppScreenSpec[] = [
  { slug: 'index.php', title: 'Dashboard', order: 0, capability: null, screen: 'dashboard' },
  { slug: 'invoices.php', title: 'Invoices', order: 10, capability: 'bill_view_invoices', screen: 'invoices' },
  {
    slug: 'invoice.php',
    title: 'Invoice',
    order: 11,
    capability: 'bill_view_invoices',
    screen: 'invoice',
    hidden: true,
    parent: 'invoices.php',
  },
  { slug: 'quotes.php', title: 'Quotes', order: 20, capability: 'bill_view_quotes', screen: 'quotes' },
  { slug: 'quote.php', title: 'Quote', order: 21, capability: 'bill_view_quotes', screen: 'quote', hidden: true, parent: 'quotes.php' },
  { slug: 'payments.php', title: 'Payments', order: 30, capability: 'bill_view_payments', screen: 'payments' },
  { slug: 'clients.php', title: 'Clients', order: 40, capability: 'bill_view_clients', screen: 'clients' },
  { slug: 'reports.php', title: 'Reports', order: 50, capability: 'bill_view_reports', screen: 'reports' },
  { slug: 'settings.php', title: 'Settings', order: 80, capability: 'bill_manage_settings', screen: 'settings' },
  { slug: 'audit-log.php', title: 'Audit log', order: 95, capability: 'bill_view_audit_log', screen: 'audit' },
];
