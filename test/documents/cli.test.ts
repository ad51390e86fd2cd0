import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { billing } from '../helpers/cli.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { bootKernel } from '../helpers/kernel.ts';

let db: TestDatabase;
let server: Kernel;
const cli = (...args: string[]) => billing(db.url, args, { BASE_URL: server.config.baseUrl });

beforeAll(async () => {
  db = await freshDatabase();
  server = await bootKernel(db.url);
});

afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

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
    expect(link).toMatch(new RegExp(`^${server.config.baseUrl}/billing/invoice/${inv.id}\\?key=`));
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('INV-0001');
  });

  it('refuse bad input with one line and exit 1, and trash and restore', async () => {
    const bad = await cli('invoice', 'create', JSON.stringify({ items: [] }));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: Invalid parameter\(s\): items\n$/);
    expect((await cli('invoice', 'trash', '1')).stdout).toBe('Invoice INV-0001 moved to the trash.\n');
    expect((await cli('invoice', 'link', '1')).code).toBe(1);
    expect((await cli('invoice', 'restore', '1')).stdout).toBe('Invoice INV-0001 restored (available).\n');
  });
});
