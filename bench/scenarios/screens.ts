import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CLI } from '../../core/audit/audit.ts';
import { DIST_DIR, ensureAdminBuilt } from '../../core/admin/build.ts';
import { CORE_APP_SCREENS } from '../../core/admin/app-screens.ts';
import { alternate, measureHttp, type Comparison, type Scenario } from '../harness.ts';

const gz = (file: string) => gzipSync(readFileSync(join(DIST_DIR, file))).length;

/** The bundle files a screen loads: the entry, its static chunks, and (Reports) the chart's dynamic chunk. */
function screenFiles(entry: string, dynamic: boolean): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(DIST_DIR, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*"\.\/([\w-]+\.js)"/g)) walk(m[1]!);
    if (dynamic) for (const m of text.matchAll(/import\("\.\/([\w-]+\.js)"\)/g)) walk(m[1]!);
  };
  walk(entry);
  return [...seen];
}

/**
 * Server time to render each admin screen's HTML shell (session lookup, capability checks, nonces, menu)
 * next to a bare express route sending a static page of the same size; and the script and CSS bytes
 * (gzipped) each screen loads.
 */
export const screens: Scenario = {
  name: 'screens',
  description: 'admin screen HTML vs bare express sending a static page of the same size; JS/CSS gzipped per screen',
  async run(env) {
    const manifest = await ensureAdminBuilt();
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    const bare = express();
    let page = '';
    bare.get('/page', (_req, res) => {
      res.type('html').end(page);
    });
    const server = bare.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
    try {
      await kernel.identity.users.create(
        { login: 'bench', email: 'bench@example.com', role: 'administrator', password: 'bench password 1' },
        CLI,
      );
      const login = await fetch(`${kernel.url}/wp-login.php`, {
        method: 'POST',
        body: new URLSearchParams({ log: 'bench', pwd: 'bench password 1' }),
        redirect: 'manual',
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const out: Comparison[] = [];
      const css = gz(manifest.css);
      for (const s of CORE_APP_SCREENS.filter((x) => !x.hidden || x.slug === 'invoice.php')) {
        const url = `${kernel.url}/wp-admin/${s.slug}`;
        page = await (await fetch(url, { headers: { cookie } })).text();
        const js = screenFiles(manifest.js, s.screen === 'reports').reduce((n, f) => n + gz(f), 0);
        // alternated, medians of BENCH_RUNS: a busy minute of a shared machine falls on both sides
        const measured = await alternate(
          () => measureHttp({ url, headers: { cookie } }, env),
          () => measureHttp({ url: baseUrl }, env),
          env,
        );
        out.push({
          scenario: `GET /wp-admin/${s.slug}`,
          ...measured,
          baselineName: `static ${page.length} B page`,
          note: `JS ${(js / 1024).toFixed(1)} KB gz, CSS ${(css / 1024).toFixed(1)} KB gz`,
        });
      }
      return out;
    } finally {
      server.close();
      await kernel.stop();
      await db.close();
    }
  },
};
