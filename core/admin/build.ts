import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** Where the browser app's sources are, and where its bundle goes (not committed: built on install and start). */
export const APP_DIR = resolve(import.meta.dirname, 'app');
export const DIST_DIR = resolve(import.meta.dirname, 'dist');
const MANIFEST = join(DIST_DIR, 'manifest.json');
/** Core code the bundle includes (the money rules and the unit names run in the browser from the same files). */
const SHARED_DIRS = [
  resolve(import.meta.dirname, '../money'),
  resolve(import.meta.dirname, '../display'),
  resolve(import.meta.dirname, '../units'),
];

export interface AdminManifest {
  /** Hash of every source file the bundle is made from: a different hash means the bundle is stale. */
  source: string;
  /** File names under DIST_DIR, each named by its content hash. */
  js: string;
  css: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx|css)$/.test(e.name) && !e.name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

/** A hash of the sources' names and contents (not times: a fresh clone must not rebuild for nothing). */
export function sourceHash(): string {
  const h = createHash('sha256');
  for (const dir of [APP_DIR, ...SHARED_DIRS]) {
    for (const f of sourceFiles(dir)) {
      h.update(relative(APP_DIR, f));
      h.update(readFileSync(f));
    }
  }
  return h.digest('hex').slice(0, 16);
}

export function readManifest(): AdminManifest | null {
  try {
    const m = JSON.parse(readFileSync(MANIFEST, 'utf8')) as AdminManifest;
    return existsSync(join(DIST_DIR, m.js)) && existsSync(join(DIST_DIR, m.css)) ? m : null;
  } catch {
    return null;
  }
}

/** Bundles the app with esbuild: one script and one stylesheet, minified, each named by its content hash. */
export async function buildAdmin(): Promise<AdminManifest> {
  const source = sourceHash();
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { app: join(APP_DIR, 'main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    // the chart library is a chunk of its own, loaded by the Reports screen only
    splitting: true,
    metafile: true,
    outdir: DIST_DIR,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  mkdirSync(DIST_DIR, { recursive: true });
  const manifest: AdminManifest = { source, js: '', css: '' };
  for (const [path, out] of Object.entries(result.metafile.outputs)) {
    const name = resolve(path).slice(DIST_DIR.length + 1);
    if (out.entryPoint?.endsWith('main.tsx') && name.endsWith('.js')) manifest.js = name;
    if (name.startsWith('app-') && name.endsWith('.css')) manifest.css = name;
  }
  for (const f of result.outputFiles) {
    const name = f.path.slice(DIST_DIR.length + 1);
    // written under a temporary name and renamed: instances building at once never serve half a file
    const tmp = join(DIST_DIR, `.${name}.${process.pid}.tmp`);
    writeFileSync(tmp, f.contents);
    renameSync(tmp, join(DIST_DIR, name));
  }
  const tmp = `${MANIFEST}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, MANIFEST);
  return manifest;
}

/** The current bundle, built first when it is missing or older than its sources. */
export async function ensureAdminBuilt(): Promise<AdminManifest> {
  const m = readManifest();
  if (m && m.source === sourceHash()) return m;
  return buildAdmin();
}

export function assetBytes(name: string): Buffer {
  return readFileSync(join(DIST_DIR, name));
}

export function assetExists(name: string): boolean {
  return /^[A-Za-z0-9_-]+\.(js|css)$/.test(name) && existsSync(join(DIST_DIR, name)) && statSync(join(DIST_DIR, name)).isFile();
}
