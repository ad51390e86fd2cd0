import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { discoverPlugins } from '../../core/plugins/discovery.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

const DEFINE = resolve(import.meta.dirname, '../../core/plugins/define-plugin.ts');

/** A project folder with node_modules holding the given packages. */
function project(packages: Record<string, { pkg: object; main?: string }>): string {
  const root = mkdtempSync(join(tmpdir(), 'billing-discovery-'));
  for (const [name, { pkg, main }] of Object.entries(packages)) {
    const dir = join(root, 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...pkg }));
    if (main) writeFileSync(join(dir, 'index.js'), main);
  }
  return root;
}

const pluginModule = (name: string) =>
  `import { definePlugin } from ${JSON.stringify(DEFINE)};\nexport default definePlugin({ name: ${JSON.stringify(name)}, version: '2.0.0' });\n`;

describe('plugin discovery', () => {
  it('finds folder plugins and npm packages marked as billing plugins, and nothing else', async () => {
    const root = project({
      'billing-plugin-shipping': { pkg: { type: 'module', main: 'index.js', billing: { plugin: true } }, main: pluginModule('shipping') },
      '@acme/billing-vat-moss': {
        pkg: { type: 'module', exports: { '.': './index.js' }, billing: { plugin: true } },
        main: pluginModule('vat-moss'),
      },
      'left-pad': { pkg: { main: 'index.js' }, main: 'export default 1;\n' },
      'not-quite': { pkg: { type: 'module', main: 'index.js', billing: { plugin: false } }, main: pluginModule('not-quite') },
    });
    const found = await discoverPlugins([FIXTURE_PLUGINS], root);
    const names = found.map((p) => p.definition.name);
    expect(names).toEqual(expect.arrayContaining(['hello', 'hello-addon', 'shipping', 'vat-moss']));
    expect(names).not.toContain('not-quite');
    expect(names).toHaveLength(new Set(names).size);
    expect(found.find((p) => p.definition.name === 'vat-moss')!.source).toBe(join(root, 'node_modules', '@acme/billing-vat-moss'));
  });

  it('refuses two plugins of the same name', async () => {
    const root = project({
      'hello-again': { pkg: { type: 'module', main: 'index.js', billing: { plugin: true } }, main: pluginModule('hello') },
    });
    await expect(discoverPlugins([FIXTURE_PLUGINS], root)).rejects.toThrow(/plugin hello is found twice/);
  });

  it('refuses a module that exports no definition', async () => {
    const root = project({
      'broken-plugin': { pkg: { type: 'module', main: 'index.js', billing: { plugin: true } }, main: 'export const x = 1;\n' },
    });
    await expect(discoverPlugins([], root)).rejects.toThrow(/does not export a plugin definition/);
  });
});

describe('definePlugin', () => {
  it('checks a declaration when it is made', async () => {
    const { definePlugin } = await import('../../core/plugins/define-plugin.ts');
    expect(() => definePlugin({ name: 'Bad Name', version: '1.0.0' })).toThrow(/kebab-case/);
    expect(() => definePlugin({ name: 'ok', version: 'one' })).toThrow(/semver/);
    expect(() => definePlugin({ name: 'ok', version: '1.0.0', settings: { x: { type: 'string' } as never } })).toThrow(/needs a default/);
    expect(() => definePlugin({ name: 'ok', version: '1.0.0', jobs: [{ hook: 'j', schedule: 'soon', run: async () => null }] })).toThrow(
      /invalid schedule/,
    );
    expect(() =>
      definePlugin({
        name: 'ok',
        version: '1.0.0',
        migrations: [
          { name: 'a', up: '' },
          { name: 'a', up: '' },
        ],
      }),
    ).toThrow(/repeat/);
  });
});
