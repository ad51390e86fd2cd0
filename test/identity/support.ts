import { resolve } from 'node:path';
import type { Config } from '../../core/config.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel } from '../../testing/service.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

/** The HTTP tests' own fixture plugins (the `widgets` collection), beside the shared fixtures. */
export const HTTP_FIXTURE_PLUGINS = resolve(import.meta.dirname, '../http/fixtures/plugins');

export interface QuietKernel {
  kernel: Kernel;
  /** What the first start printed (the one-time admin credentials), instead of stdout. */
  announced: string[];
}

/** Like test/helpers bootKernel, but keeps the first start's announcement and adds the HTTP fixtures. */
export async function bootIdentityKernel(databaseUrl: string, config: Partial<Config> = {}): Promise<QuietKernel> {
  const announced: string[] = [];
  const kernel = await bootKernel(databaseUrl, {
    pluginDirs: [FIXTURE_PLUGINS, HTTP_FIXTURE_PLUGINS],
    config,
    announce: (t) => announced.push(t),
  });
  return { kernel, announced };
}

export { basic, makeUser, type TestUser } from '../../testing/service.ts';

export { Session as Browser, meta } from '../../testing/session.ts';
import type { Session as Browser } from '../../testing/session.ts';

export function ajax(b: Browser, fields: Record<string, string>): Promise<Response> {
  return b.fetch('/wp-admin/admin-ajax.php', { method: 'POST', body: new URLSearchParams(fields) });
}
