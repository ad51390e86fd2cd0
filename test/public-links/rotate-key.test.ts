import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, useService, type RestClient, type TestUser } from '../../testing/index.ts';

const svc = useService();
let k: Kernel;
let k2: Kernel;
let api: RestClient;
let admin: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  k = svc.kernel;
  k2 = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => k2.stop());
  api = svc.rest();
  admin = await svc.makeUser('boss', 'administrator');
  viewer = await svc.makeUser('peek', 'billing_viewer');
});

/** The page a link opens on the second instance: its status. */
async function opens(link: string): Promise<number> {
  const url = new URL(link);
  return (await fetch(`${k2.url}${url.pathname}${url.search}`)).status;
}

describe('rotate-key', () => {
  for (const kind of ['invoice', 'quote'] as const) {
    it(`revokes ${kind === 'invoice' ? 'an' : 'a'} ${kind}'s public link at once on another instance; the answer carries no key`, async () => {
      const service = kind === 'invoice' ? k.api.invoices : k.api.quotes;
      const doc = await service.create(
        { items: [{ name: 'Work', quantity: 1, price: '100.00' }], customer_name: 'Ada', status: 'available' } as never,
        {
          actor: CLI,
          source: 'api',
        },
      );
      const old = `${k.url}/billing/${kind}/${doc.id}?key=${encodeURIComponent(await service.accessKey(doc.id))}`;
      expect(await opens(old)).toBe(200);

      const refused = await api.as(viewer.authorization).post(`/${kind}s/${doc.id}/rotate-key`, {});
      expect(refused.status).toBe(403);
      expect(await opens(old)).toBe(200);

      const res = await api.as(admin.authorization).post(`/${kind}s/${doc.id}/rotate-key`, {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ rotated: true });
      // the new link is the one the service sends from now on
      const fresh = `${k.url}/billing/${kind}/${doc.id}?key=${encodeURIComponent(await service.accessKey(doc.id))}`;
      expect(fresh).not.toBe(old);
      expect(await opens(old)).toBe(404);
      expect(await opens(fresh)).toBe(200);
      const audit = await k.db.query<{ action: string }>(
        `select action from billing_audit_log where object_type = $1 and object_id = $2 and action like '%rotate%'`,
        [kind, String(doc.id)],
      );
      expect(audit).toEqual([{ action: `${kind}.rotate_key` }]);
    });
  }

  it('is 404 for a document that is not there', async () => {
    expect((await api.as(admin.authorization).post('/invoices/999999/rotate-key', {})).status).toBe(404);
  });
});
