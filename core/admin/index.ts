import { defineModule } from '../modules/define-module.ts';
import { adminRouter } from './admin-router.ts';
import { dashboardScreen } from './dashboard-screen.ts';
import { pluginAjaxActions, pluginsScreen } from './plugins-screen.ts';
import { AdminScreens } from './screens.ts';

export interface AdminServices {
  /** Every loaded unit's screens (they declare them as `screens`). */
  screens: AdminScreens;
}

/**
 * The admin area (contract §3, §10): `/wp-login.php`, the `/wp-admin/` shell with the screens every
 * unit declares (its sink takes them), the Dashboard and the Plugins screen.
 */
export const adminModule = defineModule({
  name: 'admin',
  requires: ['identity', 'plugins'],
  services: (): AdminServices => ({ screens: new AdminScreens() }),
  sinks: (ctx) => [ctx.self.screens.sink()],
  routers: (ctx) => [adminRouter({ identity: ctx.use.identity, options: ctx.options, config: ctx.config, screens: ctx.self.screens })],
  screens: (ctx) => [dashboardScreen(ctx.use.identity, ctx.config), pluginsScreen(ctx.use.plugins)],
  ajax: (ctx) => pluginAjaxActions(ctx.use.plugins),
});
