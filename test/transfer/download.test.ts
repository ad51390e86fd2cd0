// The Import & export screen's "Download export": the same archive `billing export` writes, without
// secrets, streamed from a file that is gone once sent; audited; restorable with `billing import`.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestService, useService, waitFor, type TestUser } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { archiveDir, entries } from './support.ts';

const svc = useService({ plugins: ['gateway-a'], options: { company_name: 'Roe & Co' } });
let admin: TestUser;

beforeAll(async () => {
  admin = await svc.makeUser('owner', 'administrator', 'owner-password');
  await svc.setOption('gateway_a_secret_key', 'sk_test_the_archive_must_not_hold');
  const made = await svc
    .rest(admin)
    .post('/invoices', { customer_email: 'c@example.com', status: 'available', items: [{ name: 'Work', quantity: 1, price: '100' }] });
  expect(made.status).toBe(201);
}, 60_000);

describe('GET /export', () => {
  it('answers the archive as a download, without secrets, leaves no file behind and is audited', async () => {
    const res = await svc.rest(admin).get('/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="?billing-export-\d{8}T\d{9}Z\.tar\.gz"?$/);
    const dir = archiveDir();
    const path = join(dir, 'download.tar.gz');
    writeFileSync(path, res.bytes);
    const files = await entries(path);
    const manifest = JSON.parse(files.find((f) => f.name === 'manifest.json')!.bytes.toString());
    expect(manifest).toMatchObject({ format: 'billing-export', format_version: 1 });
    expect(files.map((f) => f.name)).toContain('invoices.ndjson');
    expect(Buffer.concat(files.map((f) => f.bytes)).includes('sk_test_the_archive_must_not_hold')).toBe(false);
    // streamed from the data folder and deleted once sent (just after the last byte left)
    await waitFor(() => readdirSync(join(svc.kernel.config.dataDir, 'exports')).length === 0, { what: 'the sent archive to be deleted' });
    const log = await svc.rest(admin).get('/audit-log?action=export.download');
    expect(log.body.map((e: { action: string; actor: string }) => [e.action, e.actor])).toEqual([['export.download', 'owner']]);

    // and it is what `billing import` restores
    const target = await new TestService().start();
    try {
      const out = await billing(target.databaseUrl, ['import', path]);
      expect(out.code).toBe(0);
      const restored = await target.kernel.db.query<{ number: string }>(`select number from billing_documents where kind = 'invoice'`);
      expect(restored.map((r) => r.number)).toEqual(
        (await svc.kernel.db.query<{ number: string }>(`select number from billing_documents where kind = 'invoice'`)).map((r) => r.number),
      );
    } finally {
      await target.stop();
    }
  }, 180_000);

  it('is not for a role without bill_manage_settings', async () => {
    const editor = await svc.makeUser('clerk', 'editor');
    expect((await svc.rest(editor).get('/export')).status).toBe(403);
  });
});
