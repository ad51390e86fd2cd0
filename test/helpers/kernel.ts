import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../../core/config.ts';
import type { Kernel } from '../../core/kernel.ts';
import type { Logger } from '../../core/log.ts';
import { bootKernel as bootTestKernel } from '../../testing/service.ts';

export const FIXTURE_PLUGINS = resolve(import.meta.dirname, '../fixtures/plugins');

/** Names of the plugin folders under `dir` (a folder with an index.ts): bundled plugins keep being added. */
export function pluginFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'index.ts')))
    .map((e) => e.name);
}

export interface TestKernelOptions {
  serve?: boolean;
  log?: Logger;
  config?: Partial<Config>;
}

/** A kernel on the given database, with the fixture plugins beside the bundled ones, fast polling. */
export function bootKernel(databaseUrl: string, opts: TestKernelOptions = {}): Promise<Kernel> {
  return bootTestKernel(databaseUrl, { ...opts, pluginDirs: [FIXTURE_PLUGINS] });
}

/** Polls `check` until it holds or `ms` pass; answers whether it held. */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 5000, every = 50): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, every));
  }
}
