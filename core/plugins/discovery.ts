import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition } from './define-plugin.ts';
import type { PluginPermissions } from './permissions.ts';

export interface DiscoveredPlugin {
  definition: PluginDefinition;
  /** Where it came from: a bundled folder, another folder, an npm package, or DATA_DIR for an installed one. */
  source: string;
  /** `bundled` (plugins/ of the service), `folder` (another plugin folder or node_modules), `installed` (a package in the database). */
  origin?: PluginOrigin;
  /** An installed package's digest (`sha512-…`). */
  integrity?: string;
  /** What an installed package declared it needs (docs/sandbox.md). */
  permissions?: PluginPermissions;
  /** Runs in a sandbox (every installed plugin; a bundled one when told to, see `sandboxed`). */
  sandboxed?: boolean;
}

export type PluginOrigin = 'bundled' | 'folder' | 'installed';

/**
 * Finds plugins: every folder with an `index.ts` (or `index.js`) under the plugin directories, and
 * every installed npm package whose package.json says `"billing": {"plugin": true}`. Importing a
 * plugin has no side effects by contract: it only returns its definition.
 */
export async function discoverPlugins(pluginDirs: string[], packageRoot: string): Promise<DiscoveredPlugin[]> {
  const found: DiscoveredPlugin[] = [];
  for (const dir of pluginDirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const file = ['index.ts', 'index.js'].map((f) => join(dir, entry.name, f)).find(existsSync);
      const origin = resolve(dir) === resolve(packageRoot, 'plugins') ? 'bundled' : 'folder';
      if (file) found.push({ definition: await load(file), source: join(dir, entry.name), origin });
    }
  }
  for (const pkgDir of installedPackages(join(packageRoot, 'node_modules'))) {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    if (pkg?.billing?.plugin !== true) continue;
    const main = join(pkgDir, pkg.exports?.['.'] ?? pkg.main ?? 'index.js');
    found.push({ definition: await load(main), source: pkgDir, origin: 'folder' });
  }
  const seen = new Map<string, string>();
  for (const p of found) {
    const prior = seen.get(p.definition.name);
    if (prior) throw new Error(`plugin ${p.definition.name} is found twice: ${prior} and ${p.source}`);
    seen.set(p.definition.name, p.source);
  }
  return found;
}

async function load(file: string): Promise<PluginDefinition> {
  const mod = await import(pathToFileURL(file).href);
  const def = mod.default ?? mod.plugin;
  if (!def?.name || !def?.version) throw new Error(`${file} does not export a plugin definition (export default definePlugin({...}))`);
  return def as PluginDefinition;
}

function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const dirs: string[] = [];
  for (const e of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    if (e.name.startsWith('@')) {
      for (const s of readdirSync(join(nodeModules, e.name), { withFileTypes: true })) {
        if (s.isDirectory()) dirs.push(join(nodeModules, e.name, s.name));
      }
    } else {
      dirs.push(join(nodeModules, e.name));
    }
  }
  return dirs.filter((d) => existsSync(join(d, 'package.json')));
}
