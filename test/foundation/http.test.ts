import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { createLogger } from '../../core/log.ts';
import { basic, bootKernel, freshDatabase, TestService, useService } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS], plugins: ['hello'] });
let k: Kernel;

beforeAll(() => {
  k = svc.kernel;
});

const big = 'x'.repeat(1024 * 1024 + 10);

describe('the HTTP server', () => {
  it('answers /healthz', async () => {
    const res = await fetch(`${k.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('refuses REST bodies over 1 MiB with 413 in the REST shape', async () => {
    const res = await svc.rest().post('/hello', { name: big });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'rest_payload_too_large', message: expect.any(String), data: { status: 413 } });
  });

  it('refuses admin-ajax and webhook bodies over 1 MiB with 413 in the AJAX shape', async () => {
    const res = await fetch(`${k.url}/wp-admin/admin-ajax.php?action=hello_webhook`, { method: 'POST', body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ success: false, data: { code: 'billing_payload_too_large', message: expect.any(String) } });
    expect(await k.db.query(`select 1 from hello_events where kind = 'webhook'`)).toEqual([]);
  });

  it('answers 400 rest_invalid_json for JSON it cannot read, once the route and the caller are known', async () => {
    const user = await k.identity.users.create({ login: 'jsonuser', email: 'jsonuser@example.com', role: 'administrator' }, CLI);
    const app = await k.identity.appPasswords.create(user, 'json', CLI);
    const post = (authorization: string | null) =>
      svc.rest().as(authorization).post('/invoices', { raw: '{"name":', type: 'application/json' });
    const res = await post(basic('jsonuser', app.password));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
    // without credentials the body is never read: the answer is the route's 401
    expect((await post(null)).body.code).toBe('billing_rest_unauthenticated');
  });

  it('answers 431 itself for headers over 16 KiB', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${k.url}/healthz`, { headers: { 'x-big': 'y'.repeat(17 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
  });

  it('answers rest_no_route for unknown routes and methods, with the discovery Link', async () => {
    for (const [method, path] of [
      ['GET', '/billing/v1/nothing'],
      ['DELETE', '/billing/v1/hello'],
      ['GET', '/other/v9/x'],
    ]) {
      const res = await fetch(`${k.url}/wp-json${path}`, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(res.headers.get('link')).toBe(`<${k.config.baseUrl}/wp-json/>; rel="https://api.w.org/"`);
      expect(await res.json()).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });

  it('lists routes in the public index with WordPress-style keys', async () => {
    const res = await fetch(`${k.url}/wp-json/`);
    const index = await res.json();
    expect(index.namespaces).toContain('billing/v1');
    expect(index.routes['/billing/v1/hello']).toMatchObject({
      namespace: 'billing/v1',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { name: { required: false, type: 'string' } } }],
    });
  });

  it('answers admin-ajax with 0/400 for a missing or unknown action', async () => {
    for (const body of [new URLSearchParams({}), new URLSearchParams({ action: 'nope' })]) {
      const res = await fetch(`${k.url}/wp-admin/admin-ajax.php`, { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('0');
    }
  });
});

describe('logs', () => {
  it('are JSON lines that never carry a query string or a secret', async () => {
    const lines: string[] = [];
    const s4 = await new TestService({
      log: createLogger('info', {
        write: (l: string) => {
          lines.push(l);
        },
      }),
    }).start();
    const k4 = s4.kernel;
    try {
      await fetch(`${k4.url}/healthz?key=secret-access-key`);
      k4.log.info({ password: 'hunter2', user: { token: 'tok-123' } }, 'something happened');
      await new Promise((r) => setTimeout(r, 50));
      const parsed = lines.map((l) => JSON.parse(l));
      expect(parsed).toContainEqual(expect.objectContaining({ msg: 'request', method: 'GET', path: '/healthz', status: 200 }));
      expect(parsed).toContainEqual(
        expect.objectContaining({ msg: 'something happened', password: '[redacted]', user: { token: '[redacted]' } }),
      );
      const all = lines.join('\n');
      for (const secret of ['secret-access-key', 'hunter2', 'tok-123']) expect(all).not.toContain(secret);
    } finally {
      await s4.stop();
    }
  });
});

// These stop the service or drop its database themselves: a kernel on a database of its own, by hand.
describe('graceful shutdown', () => {
  it('finishes the requests under way, then closes', async () => {
    const db2 = await freshDatabase();
    const k2 = await bootKernel(db2.url, { pluginDirs: [FIXTURE_PLUGINS] });
    await k2.plugins.activate('hello', CLI);
    const inFlight = fetch(`${k2.url}/wp-admin/admin-ajax.php?action=hello_webhook&sleep=400`, { method: 'POST', body: 'x' });
    await new Promise((r) => setTimeout(r, 100));
    const stopping = k2.stop();
    const res = await inFlight;
    expect(res.status).toBe(200);
    await stopping;
    await expect(fetch(`${k2.url}/healthz`)).rejects.toThrow();
    await db2.drop();
  });

  it('answers 503 on /healthz when the database does not', async () => {
    const db3 = await freshDatabase();
    const k3 = await bootKernel(db3.url);
    await db3.drop(); // the database goes away under the running service
    const res = await fetch(`${k3.url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable' });
    await k3.stop().catch(() => {});
  });
});
