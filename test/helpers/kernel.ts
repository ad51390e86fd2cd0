import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig, type Config } from '../../core/config.ts';
import { Kernel } from '../../core/kernel.ts';
import { silentLogger, type Logger } from '../../core/log.ts';

export const FIXTURE_PLUGINS = resolve(import.meta.dirname, '../fixtures/plugins');
export const BUNDLED_PLUGINS = resolve(import.meta.dirname, '../../plugins');

/** Names of the plugin folders under `dir` (a folder with an index.ts): bundled plugins keep being added. */
export function pluginFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'index.ts')))
    .map((e) => e.name);
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface TestKernelOptions {
  serve?: boolean;
  log?: Logger;
  config?: Partial<Config>;
}

/** A kernel on the given database, with the fixture plugins beside the bundled ones, fast polling. */
export async function bootKernel(databaseUrl: string, opts: TestKernelOptions = {}): Promise<Kernel> {
  const port = await freePort();
  const config = loadConfig(
    {},
    {
      port,
      baseUrl: `http://127.0.0.1:${port}`,
      databaseUrl,
      dataDir: mkdtempSync(join(tmpdir(), 'billing-data-')),
      syncIntervalMs: 100,
      pluginDirs: [BUNDLED_PLUGINS, FIXTURE_PLUGINS],
      // the fake gateways are served on 127.0.0.1 over http
      gatewayLoopbackHttp: true,
      ...opts.config,
    },
  );
  return Kernel.boot(config, { serve: opts.serve ?? true, log: opts.log ?? silentLogger(), announce: () => {} });
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
