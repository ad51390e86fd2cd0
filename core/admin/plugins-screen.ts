import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { PluginInfo, PluginManager } from '../plugins/plugin-manager.ts';
import { ARCHIVE_LIMITS } from '../plugins/package-archive.ts';
import { PERMISSION_KINDS } from '../plugins/permissions.ts';
import { BillingError } from '../errors.ts';
import { RestResponse, type RestRoute } from '../http/rest/route.ts';
import { html } from '../http/html.ts';
import { uploadScreen } from './resource-screen.ts';
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
<td>${p.description}${p.requires.length ? html`<br><small>Requires: ${p.requires.join(', ')}</small>` : ''}${permissionsBlock(p)}</td>
<td>${p.source}${p.sandboxed ? ' (sandboxed)' : ''}</td>
<td>${p.active ? 'Active' : 'Inactive'}</td>
<td><button type="button" data-billing-ajax="${p.active ? 'billing_deactivate_plugin' : 'billing_activate_plugin'}" data-plugin="${p.name}">${p.active ? 'Deactivate' : 'Activate'}</button></td>
</tr>
`,
      );
      return html`<table class="plugins">
<thead><tr><th>Plugin</th><th>Version</th><th>Description</th><th>Source</th><th>Status</th><th></th></tr></thead>
<tbody>
${list.length ? rows : html`<tr><td colspan="6">No plugins are installed.</td></tr>`}</tbody>
</table>
<p><a href="plugin-install.php">Upload a plugin package (.tgz)</a></p>`;
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

/** What a plugin from a package asks for, shown before anyone activates it. */
function permissionsBlock(p: PluginInfo) {
  if (!p.permissions) return '';
  const perms = p.permissions;
  const rows = PERMISSION_KINDS.map((k) => html`<li>${k}: ${perms[k].length ? perms[k].join(', ') : 'none'}</li>`);
  return html`<details open class="plugin-permissions"><summary>Permissions</summary><ul>${rows}</ul></details>`;
}

const PERMISSIONS_SCHEMA = {
  type: ['object', 'null'],
  properties: Object.fromEntries(PERMISSION_KINDS.map((k) => [k, { type: 'array', items: { type: 'string' } }])),
};

/** A plugin as REST shows it (`GET /plugins`): where it comes from and what it may do. */
const PLUGIN_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'plugin',
  type: 'object',
  properties: {
    name: { type: 'string' },
    version: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    active: { type: 'boolean' },
    compatible: { type: 'boolean' },
    requires: { type: 'array', items: { type: 'string' } },
    source: { type: 'string', enum: ['bundled', 'folder', 'installed'] },
    sandboxed: { type: 'boolean' },
    integrity: { type: ['string', 'null'] },
    permissions: PERMISSIONS_SCHEMA,
  },
};

const INSTALLED_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    version: { type: 'string' },
    integrity: { type: 'string' },
    permissions: PERMISSIONS_SCHEMA,
    // the same, one line per kind, as the upload screen shows it
    asks: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

/** Plugins over REST (administrators): the list with permissions, and installing a package (the raw .tgz). */
export function pluginRoutes(plugins: PluginManager): RestRoute[] {
  return [
    {
      path: '/plugins',
      methods: 'GET',
      capability: MANAGE_PLUGINS,
      description: 'Every plugin: source (bundled, folder, installed), version, digest and declared permissions.',
      response: { schema: { type: 'array', items: PLUGIN_SCHEMA } },
      handler: async () => (await plugins.list()).map(({ path: _path, ...p }) => p),
    },
    {
      path: '/plugins',
      methods: 'POST',
      capability: MANAGE_PLUGINS,
      description: 'Installs a plugin package (the .tgz as the raw body) for every instance; it stays inactive.',
      requestTypes: ['application/gzip', 'application/x-gzip', 'application/octet-stream'],
      bodyLimit: ARCHIVE_LIMITS.gzipBytes,
      response: {
        status: 201,
        schema: INSTALLED_SCHEMA,
        errors: ['billing_plugin_package_invalid', 'billing_plugin_incompatible', 'billing_plugin_integrity'],
      },
      handler: async (req) => {
        if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
          throw new BillingError('billing_plugin_package_invalid', 'Send the .tgz itself as the body, with Content-Type application/gzip.');
        }
        const pkg = await plugins.install(req.body, { actor: req.actor });
        const asks = Object.fromEntries(PERMISSION_KINDS.map((k) => [k, pkg.permissions[k].join(', ') || 'none']));
        return new RestResponse(
          { name: pkg.name, version: pkg.version, integrity: pkg.integrity, permissions: pkg.permissions, asks },
          201,
        );
      },
    },
  ];
}

/** `/wp-admin/plugin-install.php`: upload a package; what it asks for is shown before it is activated. */
export const pluginUploadScreen = uploadScreen({
  slug: 'plugin-install.php',
  title: 'Upload plugin',
  capability: MANAGE_PLUGINS,
  order: 91,
  description:
    'Install a plugin package (.tgz) for every instance. It runs in the sandbox and stays inactive until you activate it on the Plugins screen.',
  route: '/plugins',
  label: 'Plugin package (.tgz)',
  accept: '.tgz,application/gzip',
  types: { '.tgz': 'application/gzip' },
  submit: 'Install',
  heading: 'Installed {name} {version}',
  sections: [
    { title: 'Package', facts: [{ key: 'integrity', label: 'Integrity' }] },
    { title: 'Permissions it asks for', facts: PERMISSION_KINDS.map((k) => ({ key: `asks.${k}`, label: k })) },
  ],
});
