import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { PluginManager } from '../plugins/plugin-manager.ts';
import { html } from '../http/html.ts';
import type { AdminScreen } from './screens.ts';

/** Switching plugins is WordPress's `manage_options` (contract: Plugins screen). */
export const MANAGE_PLUGINS = 'manage_options';

/** `/wp-admin/plugins.php`: every installed plugin, with Activate / Deactivate through admin-ajax. */
export function pluginsScreen(plugins: PluginManager): AdminScreen {
  return {
    slug: 'plugins.php',
    title: 'Plugins',
    order: 90,
    capability: MANAGE_PLUGINS,
    async render() {
      const list = await plugins.list();
      const rows = list.map(
        (p) => html`<tr data-plugin="${p.name}">
<td><strong>${p.title}</strong><br><code>${p.name}</code></td>
<td>${p.version}</td>
<td>${p.description}${p.requires.length ? html`<br><small>Requires: ${p.requires.join(', ')}</small>` : ''}</td>
<td>${p.active ? 'Active' : 'Inactive'}</td>
<td><button type="button" data-billing-ajax="${p.active ? 'billing_deactivate_plugin' : 'billing_activate_plugin'}" data-plugin="${p.name}">${p.active ? 'Deactivate' : 'Activate'}</button></td>
</tr>
`,
      );
      return html`<table class="plugins">
<thead><tr><th>Plugin</th><th>Version</th><th>Description</th><th>Status</th><th></th></tr></thead>
<tbody>
${list.length ? rows : html`<tr><td colspan="5">No plugins are installed.</td></tr>`}</tbody>
</table>`;
    },
  };
}

/** The Plugins screen's two AJAX actions (field `plugin`): activation is cluster-wide and audited. */
export function pluginAjaxActions(plugins: PluginManager): AjaxAction[] {
  const name = (params: Record<string, unknown>) => (typeof params.plugin === 'string' ? params.plugin : '');
  return [
    {
      action: 'billing_activate_plugin',
      capability: MANAGE_PLUGINS,
      fields: { plugin: 'the plugin name' },
      handler: async (req) => {
        await plugins.activate(name(req.params), req.actor);
        return { plugin: name(req.params), active: true };
      },
    },
    {
      action: 'billing_deactivate_plugin',
      capability: MANAGE_PLUGINS,
      fields: { plugin: 'the plugin name' },
      handler: async (req) => {
        await plugins.deactivate(name(req.params), req.actor);
        return { plugin: name(req.params), active: false };
      },
    },
  ];
}
