import type { Config } from '../config.ts';
import { html } from '../http/html.ts';
import type { Identity } from '../identity/identity.ts';
import type { AdminScreen } from './screens.ts';

/** `/wp-admin/`: the landing screen. Later modules put their summaries in their own screens. */
export function dashboardScreen(identity: Identity, config: Config): AdminScreen {
  return {
    slug: 'index.php',
    title: 'Dashboard',
    order: 0,
    capability: null,
    async render(ctx) {
      const user = await identity.users.byId(ctx.user.id);
      const role = identity.roles.list().find((r) => r.name === user?.role);
      return html`<p>Welcome, ${user?.display_name ?? ctx.user.login}. You are signed in as <strong>${ctx.user.login}</strong> (${role?.label ?? user?.role ?? ''}).</p>
<p>The REST API is at <code>${config.baseUrl}/wp-json/billing/v1/</code>.</p>`;
    },
  };
}
