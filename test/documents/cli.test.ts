import { describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { useService } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';

const svc = useService();
const cli = (...args: string[]) => billing(svc.databaseUrl, args, { BASE_URL: svc.kernel.config.baseUrl });

describe('billing invoice / quote commands', () => {
  it('create an invoice through the service, list it, and print its working public link', async () => {
    const created = await cli(
      'invoice',
      'create',
      JSON.stringify({ items: [{ name: 'Audit', quantity: 1, price: 900 }], customer_name: 'Kim', status: 'available' }),
      '--format',
      'json',
    );
    expect(created.stderr).toBe('');
    const inv = JSON.parse(created.stdout);
    expect(inv).toEqual({ id: expect.any(Number), number: 'INV-0001', status: 'available', total: '900.00' });
    const list = JSON.parse((await cli('invoice', 'list', '--search', 'kim', '--format', 'json')).stdout);
    expect(list).toMatchObject({ total: 1, invoices: [{ number: 'INV-0001', customer: 'Kim', due: '900.00' }] });
    const link = (await cli('invoice', 'link', String(inv.id))).stdout.trim();
    expect(link).toMatch(new RegExp(`^${svc.kernel.config.baseUrl}/billing/invoice/${inv.id}\\?key=`));
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('INV-0001');
  });

  it('refuse bad input with one line and exit 1, and trash and restore', async () => {
    const bad = await cli('invoice', 'create', JSON.stringify({ items: [] }));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: Invalid parameter\(s\): items\n$/);
    const inv = await svc.kernel.api.invoices.create(
      { items: [{ name: 'Audit', quantity: 1, price: 900 }], status: 'available' },
      { actor: CLI, source: 'api' },
    );
    const id = String(inv.id);
    expect((await cli('invoice', 'trash', id)).stdout).toBe(`Invoice ${inv.number} moved to the trash.\n`);
    expect((await cli('invoice', 'link', id)).code).toBe(1);
    expect((await cli('invoice', 'restore', id)).stdout).toBe(`Invoice ${inv.number} restored (available).\n`);
  });
});
