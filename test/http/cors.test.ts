import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type TestUser, basic } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let viewer: TestUser;

beforeAll(async () => {
  k = svc.kernel;
  viewer = await svc.makeUser('viewer', 'billing_viewer');
});

const get = (path: string, headers: Record<string, string> = {}) => svc.rest().get(path, headers);

function cors(res: { headers: Headers }) {
  return {
    origin: res.headers.get('access-control-allow-origin'),
    credentials: res.headers.get('access-control-allow-credentials'),
    vary: res.headers.get('vary'),
  };
}

describe('CORS on /wp-json', () => {
  it('lets any origin read without credentials, but sends credentials only for the site and the allowed origins', async () => {
    const evil = await get('/invoices', { origin: 'https://evil.example', authorization: viewer.authorization });
    expect(cors(evil)).toEqual({ origin: 'https://evil.example', credentials: null, vary: 'Origin' });

    const own = new URL(k.config.baseUrl).origin;
    expect(cors(await get('/invoices', { origin: own }))).toMatchObject({ origin: own, credentials: 'true' });

    await k.options.set('rest_allowed_origins', ['https://app.example.com'], CLI);
    expect(cors(await get('/invoices', { origin: 'https://app.example.com' }))).toMatchObject({
      origin: 'https://app.example.com',
      credentials: 'true',
    });
    expect(cors(await get('/invoices', { origin: 'https://app.example.com.evil.example' })).credentials).toBeNull();
  });

  it('answers the null origin with no CORS grant at all', async () => {
    const res = await get('/invoices', { origin: 'null' });
    expect(cors(res)).toEqual({ origin: null, credentials: null, vary: 'Origin' });
    const preflight = await svc
      .rest()
      .request('OPTIONS', '/invoices', undefined, { origin: 'null', 'access-control-request-method': 'POST' });
    expect(cors(preflight)).toEqual({ origin: null, credentials: null, vary: 'Origin' });
  });

  it('refuses allowed origins that are not origins: the null origin, a wildcard, a path, another scheme', async () => {
    await k.options.set('rest_allowed_origins', ['https://app.example.com'], CLI);
    for (const bad of [['null'], ['*'], ['https://app.example.com/path'], ['javascript:alert(1)'], 'https://app.example.com']) {
      await expect(k.options.set('rest_allowed_origins', bad as string[], CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    }
    expect(await k.options.get('rest_allowed_origins')).toEqual(['https://app.example.com']);
  });
});

describe('the Basic challenge on a 401', () => {
  const challenge = async (headers: Record<string, string>) => {
    const res = await get('/invoices', headers);
    expect(res.status).toBe(401);
    return res.headers.get('www-authenticate');
  };

  it('is sent to API clients and to whoever sent Basic credentials', async () => {
    expect(await challenge({})).toBe('Basic realm="billing"');
    expect(await challenge({ authorization: basic('viewer', 'abcd efgh ijkl mnop qrst uvwx') })).toBe('Basic realm="billing"');
    expect(await challenge({ origin: 'https://app.example.com', authorization: basic('viewer', 'abcd efgh ijkl mnop qrst uvwx') })).toBe(
      'Basic realm="billing"',
    );
  });

  it("is not sent to a browser's own requests, so no password prompt opens over the page", async () => {
    expect(await challenge({ origin: 'https://app.example.com' })).toBeNull();
    // a typed address, a same-site fetch, the admin's cookie without a nonce
    expect(await challenge({ 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' })).toBeNull();
    expect(await challenge({ 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' })).toBeNull();
    expect(await challenge({ cookie: 'billing_logged_in=x' })).toBeNull();
    // the body is the same 401 either way
    const res = await get('/invoices', { origin: 'https://app.example.com' });
    expect(res.body).toMatchObject({ code: 'billing_rest_unauthenticated', data: { status: 401 } });
  });
});
