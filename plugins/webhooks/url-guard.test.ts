import { beforeAll, describe, expect, it } from '@jest/globals';
import { declareErrors } from '../../core/errors.ts';
import webhooks from './index.ts';
import { checkUrl, isPublicAddress, type Resolver } from './url-guard.ts';

// the plugin's error codes, as the service declares them when it finds the plugin
beforeAll(() => declareErrors(webhooks.name, webhooks.errors ?? {}));

const names =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const refused = async (url: string, resolve?: Resolver) => {
  const err = await checkUrl(url, { allowPrivate: false, resolve }).then(
    () => null,
    (e) => e,
  );
  expect(err).toMatchObject({ code: 'billing_webhook_url_forbidden', status: 400 });
  return err as Error;
};

describe('which addresses a webhook may reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even public'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['2002:7f00:1::1', '6to4 of a loopback'],
    ['not an address', 'not an address'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('the URL guard', () => {
  it('takes only http and https, without credentials', async () => {
    await refused('ftp://example.com/hook', names({ 'example.com': ['93.184.216.34'] }));
    await refused('file:///etc/passwd');
    await refused('gopher://example.com/');
    await refused('not a url');
    await refused('https://user:pw@example.com/hook', names({ 'example.com': ['93.184.216.34'] }));
  });

  it('refuses literal non-public hosts in every spelling the URL parser accepts', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://017700000001/',
      'http://127.1/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/',
      'http://0.0.0.0/',
    ]) {
      await refused(url);
    }
  });

  it('refuses a name that resolves to a non-public address, and one bad answer among good ones', async () => {
    const dns = names({
      'evil.example': ['127.0.0.1'],
      'mixed.example': ['93.184.216.34', '10.0.0.1'],
      'six.example': ['2606:4700:4700::1111', '::1'],
      'meta.example': ['169.254.169.254'],
    });
    expect((await refused('https://evil.example/hook', dns)).message).toContain('127.0.0.1');
    expect((await refused('https://mixed.example/hook', dns)).message).toContain('10.0.0.1');
    await refused('https://six.example/hook', dns);
    await refused('https://meta.example/hook', dns);
    await refused('https://nowhere.example/hook', dns);
  });

  it('refuses localhost through the system resolver', async () => {
    expect((await refused('http://localhost:9/hook')).message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
  });

  it('answers the checked address for a public name, which the delivery connects to', async () => {
    const target = await checkUrl('https://hooks.example/in?x=1', {
      allowPrivate: false,
      resolve: names({ 'hooks.example': ['93.184.216.34'] }),
    });
    expect(target).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(target.url.href).toBe('https://hooks.example/in?x=1');
  });

  it('lets loopback and private hosts through only when allowPrivate is set (development and tests)', async () => {
    await expect(checkUrl('http://127.0.0.1:9/', { allowPrivate: true })).resolves.toMatchObject({ address: '127.0.0.1' });
    await refused('http://127.0.0.1:9/');
    // still only http(s), even then
    await expect(checkUrl('file:///etc/passwd', { allowPrivate: true })).rejects.toMatchObject({ code: 'billing_webhook_url_forbidden' });
  });
});
