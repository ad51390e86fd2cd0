import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS] });
let k: Kernel;
let auditor: TestUser;
let subscriber: TestUser;

beforeAll(async () => {
  k = svc.kernel;
  auditor = await svc.makeUser('auditor', 'billing_viewer');
  subscriber = await svc.makeUser('reader', 'subscriber');
  await k.options.set('company_name', 'Audited Ltd', CLI);
  await k.plugins.activate('hello', CLI);
  await k.api.invoices.create(
    { items: [{ name: 'x', quantity: 1, price: 1 }] },
    { actor: { id: auditor.id, name: 'auditor', ip: '10.0.0.9' }, source: 'api' },
  );
});

const get = (user: TestUser, query = '') => svc.rest(user).get(`/audit-log${query}`);

describe('GET /audit-log', () => {
  it('lists who did what, newest first, with paging headers', async () => {
    const res = await get(auditor, '?per_page=100');
    expect(res.status).toBe(200);
    const entries = res.body;
    expect(Number(res.headers.get('x-wp-total'))).toBe(entries.length);
    const actions = entries.map((e: { action: string }) => e.action);
    expect(actions.indexOf('invoice.create')).toBeLessThan(actions.indexOf('plugin.activate'));
    expect(entries.find((e: { action: string }) => e.action === 'invoice.create')).toMatchObject({
      actor: 'auditor',
      actor_id: auditor.id,
      object_type: 'invoice',
      ip: '10.0.0.9',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
  });

  it('filters by object and action', async () => {
    const entries = (await get(auditor, '?object_type=option&object_id=company_name')).body;
    expect(entries).toEqual([
      expect.objectContaining({ action: 'option.set', actor: 'cli', details: { old: 'My Company', new: 'Audited Ltd' } }),
    ]);
    expect((await get(auditor, '?action=plugin.activate')).body).toHaveLength(1);
  });

  it('needs bill_view_audit_log', async () => {
    const res = await get(subscriber);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('billing_rest_forbidden');
  });
});
