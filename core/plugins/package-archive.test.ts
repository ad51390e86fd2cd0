import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { integrityOf, readPackageArchive } from './package-archive.ts';

/** A tar entry as npm writes one: a 512-byte ustar header, then the body padded to 512. */
function entry(name: string, body = '', type = '0', link = ''): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write(body.length.toString(8).padStart(11, '0') + '\0', 124);
  header.write(type, 156);
  header.write(link, 157, 100, 'utf8');
  header.write('ustar\0', 257);
  // the header's checksum: its bytes summed with the checksum field read as spaces
  header.write('        ', 148);
  header.write(
    header
      .reduce((sum, b) => sum + b, 0)
      .toString(8)
      .padStart(6, '0') + '\0 ',
    148,
  );
  const data = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  data.write(body);
  return Buffer.concat([header, data]);
}

const tgz = (...entries: Buffer[]) => gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
const pkg = entry('package/package.json', '{"name":"x"}');

describe('reading a plugin package', () => {
  it('answers its regular files by path inside the package', async () => {
    const files = await readPackageArchive(tgz(pkg, entry('package/lib/', '', '5'), entry('package/lib/a.js', 'export const a = 1;')));
    expect([...files.keys()]).toEqual(['package.json', 'lib/a.js']);
    expect(files.get('lib/a.js')!.toString()).toBe('export const a = 1;');
  });

  it.each([
    ['a path leaving the package', entry('package/../../etc/cron.d/x', 'boom')],
    ['an absolute path', entry('/etc/passwd', 'boom')],
    ['a path with ..', entry('package/lib/../../x.js', 'boom')],
    ['a symbolic link', entry('package/link', '', '2', '/etc/passwd')],
    ['a hard link', entry('package/link', '', '1', '../../outside')],
    ['a device', entry('package/dev', '', '3')],
  ])('refuses %s', async (_what, bad) => {
    await expect(readPackageArchive(tgz(pkg, bad))).rejects.toThrow(expect.objectContaining({ code: 'billing_plugin_package_invalid' }));
  });

  it('refuses what is not a gzipped tar, or has no package.json', async () => {
    await expect(readPackageArchive(Buffer.from('not a tarball'))).rejects.toThrow(/gzipped tar/);
    await expect(readPackageArchive(tgz(entry('package/index.js', '1')))).rejects.toThrow(/no package.json/);
  });

  it('bounds the packed size, the unpacked size and the number of entries', async () => {
    const limits = { gzipBytes: 10_000, unpackedBytes: 4_000, entries: 3 };
    await expect(readPackageArchive(Buffer.alloc(10_001), limits)).rejects.toThrow(/larger than 10000 bytes/);
    await expect(readPackageArchive(tgz(pkg, entry('package/big.js', 'x'.repeat(5000))), limits)).rejects.toThrow(/unpacks to more than/);
    const many = [1, 2, 3].map((i) => entry(`package/${i}.js`, '1'));
    await expect(readPackageArchive(tgz(pkg, ...many), limits)).rejects.toThrow(/more than 3 entries/);
    // a gzip bomb: a small archive that inflates past the bound is stopped while inflating
    const bomb = gzipSync(Buffer.concat([pkg, entry('package/zeros.js', '\0'.repeat(60 * 1024 * 1024))]));
    expect(bomb.length).toBeLessThan(200_000);
    await expect(readPackageArchive(bomb)).rejects.toThrow(expect.objectContaining({ code: 'billing_plugin_package_invalid' }));
  });

  it("names the package's digest as npm does", () => {
    expect(integrityOf(Buffer.from('abc'))).toBe(
      'sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==',
    );
  });
});
