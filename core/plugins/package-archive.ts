import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { posix } from 'node:path';
import tarStream from 'tar-stream';
import { BillingError } from '../errors.ts';

/**
 * A plugin package as npm packs it (a gzipped tar whose entries sit under `package/`), read as
 * untrusted input: the archive, its unpacked size and its number of entries are bounded, and only
 * regular files with a plain relative path are kept — no links, devices, absolute paths or `..`, so
 * writing the result under a folder can never reach outside it.
 */
export const ARCHIVE_LIMITS = { gzipBytes: 10 * 1024 * 1024, unpackedBytes: 50 * 1024 * 1024, entries: 2000 };

/** The package's digest as npm writes it in package-lock.json (`sha512-<base64>`). */
export function integrityOf(tarball: Buffer): string {
  return `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
}

function refused(message: string): BillingError {
  return new BillingError('billing_plugin_package_invalid', message);
}

/**
 * The package's files by path relative to its root (`package.json`, `index.js`, …). The tar is read by
 * tar-stream (the reader the export archives use), entry by entry, each bound checked as it comes.
 */
export async function readPackageArchive(tarball: Buffer, limits = ARCHIVE_LIMITS): Promise<Map<string, Buffer>> {
  if (tarball.length > limits.gzipBytes) throw refused(`the package is larger than ${limits.gzipBytes} bytes`);
  let tar: Buffer;
  try {
    tar = gunzipSync(tarball, { maxOutputLength: limits.unpackedBytes + 1024 * 1024 });
  } catch {
    throw refused('the package is not a gzipped tar archive within the size bound');
  }
  const files = new Map<string, Buffer>();
  const extract = tarStream.extract();
  const read = (async () => {
    let entries = 0;
    let total = 0;
    for await (const entry of extract) {
      const { name, type, size = 0 } = entry.header;
      if (++entries > limits.entries) throw refused(`the package has more than ${limits.entries} entries`);
      // folders are implied by their files' paths
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file') throw refused(`${name} is not a regular file (links and devices are refused)`);
      const path = safePath(name);
      total += size;
      if (total > limits.unpackedBytes) throw refused(`the package unpacks to more than ${limits.unpackedBytes} bytes`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(path, Buffer.concat(chunks));
    }
  })();
  extract.end(tar);
  try {
    await read;
  } catch (err) {
    extract.destroy();
    if (err instanceof BillingError) throw err;
    throw refused('the tar archive is corrupt or truncated');
  }
  if (!files.has('package.json')) throw refused('the package has no package.json');
  return files;
}

/** `package/lib/a.js` → `lib/a.js`; anything that could leave the package's folder is refused. */
function safePath(name: string): string {
  const stripped = name.replace(/^[^/]+\//, '');
  const normal = posix.normalize(stripped);
  if (
    !stripped ||
    name.includes('\\') ||
    posix.isAbsolute(stripped) ||
    normal.startsWith('..') ||
    normal !== stripped ||
    stripped.includes('\0')
  ) {
    throw refused(`the entry ${JSON.stringify(name)} has an unsafe path`);
  }
  return normal;
}
