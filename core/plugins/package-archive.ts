import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { posix } from 'node:path';
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

/** The package's files by path relative to its root (`package.json`, `index.js`, …). */
export function readPackageArchive(tarball: Buffer, limits = ARCHIVE_LIMITS): Map<string, Buffer> {
  if (tarball.length > limits.gzipBytes) throw refused(`the package is larger than ${limits.gzipBytes} bytes`);
  let tar: Buffer;
  try {
    tar = gunzipSync(tarball, { maxOutputLength: limits.unpackedBytes + 1024 * 1024 });
  } catch {
    throw refused('the package is not a gzipped tar archive within the size bound');
  }
  const files = new Map<string, Buffer>();
  let offset = 0;
  let entries = 0;
  let total = 0;
  let longName: string | null = null;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    if (++entries > limits.entries) throw refused(`the package has more than ${limits.entries} entries`);
    const size = parseInt(text(header, 124, 12) || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw refused('a tar header is corrupt');
    const type = String.fromCharCode(header[156] || 48);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if (body.length !== size) throw refused('the tar archive is truncated');
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0.*$/s, '');
      continue;
    }
    const prefix = text(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    longName = null;
    if (type === '5' || type === 'x' || type === 'g') continue; // folders are implied; pax headers carry nothing we use
    if (type !== '0' && type !== '7') throw refused(`${name} is not a regular file (links and devices are refused)`);
    const path = safePath(name);
    total += size;
    if (total > limits.unpackedBytes) throw refused(`the package unpacks to more than ${limits.unpackedBytes} bytes`);
    files.set(path, Buffer.from(body));
  }
  if (!files.has('package.json')) throw refused('the package has no package.json');
  return files;
}

function text(header: Buffer, start: number, length: number): string {
  return header
    .subarray(start, start + length)
    .toString('utf8')
    .replace(/\0.*$/s, '')
    .trim();
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
