import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { transformSync } from 'esbuild';
import { ARCHIVE_LIMITS } from '../package-archive.ts';

/**
 * A plugin folder's modules as the sandbox loads them (a plugin of the service's own, run sandboxed when
 * told to): its .js, .ts and .json files under their relative paths, TypeScript made JavaScript (types
 * dropped, nothing bundled), tests and node_modules left out, bounded like a package.
 */
export function folderFiles(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let total = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile() && /\.(m?js|ts|json)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) {
        total += statSync(path).size;
        if (total > ARCHIVE_LIMITS.unpackedBytes || files.size >= ARCHIVE_LIMITS.entries)
          throw new Error(`${root} is larger than a plugin package may be`);
        const text = readFileSync(path, 'utf8');
        const code = e.name.endsWith('.ts') ? transformSync(text, { loader: 'ts', format: 'esm', target: 'es2022' }).code : text;
        files.set(relative(root, path).split('\\').join('/'), Buffer.from(code));
      }
    }
  };
  walk(root);
  return files;
}
