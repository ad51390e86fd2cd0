import type { Router } from 'express';
import { AjaxText, type AjaxAction } from '../http/ajax/ajax-action.ts';
import { NONCE_REST } from '../identity/nonces.ts';
import type { Kernel } from '../kernel.ts';
import { adminRouter } from './admin-router.ts';
import { dashboardScreen } from './dashboard-screen.ts';
import { pluginAjaxActions, pluginsScreen } from './plugins-screen.ts';
import { AdminScreens } from './screens.ts';

/**
 * The admin area: the login page, the `/wp-admin/` shell with its screens, and the AJAX actions the
 * core's screens call. Later modules add their screens with `kernel.admin.screens.add(owner, screen)`.
 */
export class Admin {
  readonly screens = new AdminScreens();
  private readonly kernel: Kernel;

  constructor(kernel: Kernel) {
    this.kernel = kernel;
    this.screens.add('core', dashboardScreen);
    this.screens.add('core', pluginsScreen);
  }

  router(): Router {
    return adminRouter(this.kernel, this.screens);
  }

  ajaxActions(): AjaxAction[] {
    const identity = this.kernel.identity;
    return [
      {
        // WordPress's own: a fresh `wp_rest` nonce, as text, for a signed-in user (contract §3)
        action: 'rest-nonce',
        capability: null,
        nonce: false,
        handler: async (req) => new AjaxText(identity.createNonce(NONCE_REST, req.user)),
      },
      ...pluginAjaxActions(this.kernel),
    ];
  }
}
