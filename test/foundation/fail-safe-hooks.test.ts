import { beforeAll, describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

// The fail-safe hook contracts (docs/plugins.md, "When a listener fails") hold the same for a plugin in
// the service's realm and for the same plugin in the sandbox: priorities, values passed along, an action
// listener's failure isolated after commit, a filter's failure failing the call closed.
const OUTSIDE = resolve(import.meta.dirname, '../fixtures/outside');

for (const sandboxed of [false, true]) {
  const svc = useService({ pluginDirs: [OUTSIDE], plugins: ['failsafe'], config: { sandboxedPlugins: sandboxed ? ['failsafe'] : [] } });
  let admin: TestUser;
  const mode = (m: 'calm' | 'actions' | 'filters') =>
    svc.kernel.options.set('failsafe_mode' as never, m as never, { id: null, name: 'test' });
  const create = async () => {
    const res = await svc
      .rest(admin)
      .request('POST', '/invoices', { items: [{ name: 'Work', quantity: 1, price: 10 }], status: 'available' });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const seen = async (id: number) => (await svc.kernel.db.query('select 1 from failsafe_seen where invoice_id = $1', [id])).length === 1;

  beforeAll(async () => {
    admin = await svc.makeUser('boss', 'administrator');
  });

  describe(`hook contracts, plugin ${sandboxed ? 'sandboxed' : 'trusted'}`, () => {
    it(`runs ${sandboxed ? 'in the sandbox' : 'in the service'}`, async () => {
      expect((await svc.kernel.plugins.list()).find((p) => p.name === 'failsafe')!.sandboxed).toBe(sandboxed);
    });

    it('runs filters lower priority first, each given the value of the one before', async () => {
      await mode('calm');
      const id = await create();
      expect((await svc.rest(admin).request('GET', `/invoices/${id}`)).body.trail).toEqual(['early', 'late']);
      await waitFor(() => seen(id), { what: 'the action listener to record the invoice' });
    });

    it('logs a throwing action listener after commit and runs the others; the change stays', async () => {
      await mode('actions');
      const id = await create();
      await waitFor(() => seen(id), { what: 'the later listener to run despite the earlier one failing' });
      expect((await svc.kernel.api.invoices.get(id)).id).toBe(id);
    });

    it('fails the call closed when a filter throws, naming no internals', async () => {
      await mode('calm');
      const id = await create();
      await mode('filters');
      const res = await svc.rest(admin).request('GET', `/invoices/${id}`);
      expect([res.status, res.body.code]).toEqual([500, 'billing_hook_failed']);
      expect(JSON.stringify(res.body)).not.toContain('the late filter broke');
      await mode('calm');
      expect((await svc.rest(admin).request('GET', `/invoices/${id}`)).body.trail).toEqual(['early', 'late']);
    });
  });
}
