import { defineModule } from '../modules/define-module.ts';
import { adminRouter } from './admin-router.ts';
import { appScreen, CORE_APP_SCREENS } from './app-screens.ts';
import { ensureAdminBuilt } from './build.ts';
import { pluginAjaxActions, pluginRoutes, pluginsScreen, pluginUploadScreen } from './plugins-screen.ts';
import { AdminScreens } from './screens.ts';
import { settingsAjaxActions } from './settings.ts';
import { clientSaveAction } from './client-actions.ts';
import type { AdminServices } from './services.ts';

/**
 * The admin area (docs/identity.md, docs/admin.md): `/wp-login.php`, the `/wp-admin/` shell with the screens every
 * unit declares (its sink takes them), the browser app's screens (Dashboard, Invoices, Quotes, Payments,
 * Clients, Reports, Settings, Audit log) and the Plugins screen.
 */
export const adminModule = defineModule({
  name: 'admin',
  requires: ['identity', 'plugins'],
  services: (): AdminServices => ({ screens: new AdminScreens(), assets: { manifest: null } }),
  sinks: (ctx) => [ctx.self.screens.sink()],
  // a fresh clone, or sources changed since the last build: the bundle is made before anything is served
  init: async (ctx) => {
    ctx.self.assets.manifest = await ensureAdminBuilt();
  },
  routers: (ctx) => [
    adminRouter({
      identity: ctx.use.identity,
      options: ctx.options,
      config: ctx.config,
      screens: ctx.self.screens,
      assets: () => ctx.self.assets.manifest,
    }),
  ],
  screens: (ctx) => [
    ...CORE_APP_SCREENS.map((s) =>
      // a document's builder offers the downloads active plugins declare (the e-invoice formats) and the
      // sources of line suggestions (the item library), asked per page
      s.screen === 'invoice' || s.screen === 'quote'
        ? appScreen(s, ctx.options, async () => ({
            links: await ctx.hooks.applyFilters('billing_admin_document_links', [], s.screen),
            itemSources: await ctx.hooks.applyFilters('billing_admin_item_sources', [], s.screen),
          }))
        : appScreen(s, ctx.options),
    ),
    pluginsScreen(ctx.use.plugins),
    pluginUploadScreen,
  ],
  rest: (ctx) => pluginRoutes(ctx.use.plugins),
  ajax: (ctx) => [
    ...pluginAjaxActions(ctx.use.plugins),
    ...settingsAjaxActions({ options: ctx.options, plugins: ctx.use.plugins, identity: ctx.use.identity, screens: ctx.self.screens }),
    clientSaveAction(ctx.use.identity),
  ],
});
