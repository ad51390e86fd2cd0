import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import { bootKernel, RestClient, TestService, useService, type TestUser } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { archiveDir, entries, mark, restSnapshot, writeEntries } from './support.ts';

// the source: a business with history, two plugins holding data of their own
const svc = useService({ plugins: ['recurring', 'team-roles'], options: { company_name: 'Roe & Co', allow_partial_payments: true } });
const dir = archiveDir();
const archive = join(dir, 'source.tar.gz');
let admin: TestUser;
let restored: Awaited<ReturnType<typeof bootKernel>> | null = null;
const targets: TestService[] = [];

const cli = (databaseUrl: string, ...args: string[]) => billing(databaseUrl, args);
/** A fresh, freshly migrated instance (its first-start administrator exists), stopped after the file. */
async function freshTarget(): Promise<TestService> {
  const t = await new TestService().start();
  targets.push(t);
  return t;
}

let attachmentId: number;

beforeAll(async () => {
  admin = await svc.makeUser('boss', 'administrator', 'boss-password');
  const rest = svc.rest(admin);
  const acme = await svc.makeUser('acme', 'billing_client');
  await svc.makeUser('globex', 'billing_client');
  const post = async (path: string, body: unknown) => {
    const a = await rest.post(path, body);
    expect([200, 201]).toContain(a.status);
    return a.body;
  };
  const inv = await post('/invoices', {
    client_id: acme.id,
    status: 'available',
    items: [
      { name: 'Design', quantity: 3, price: '120.50', taxable: true, tax_rate: 20 },
      { name: 'Books', quantity: 2, price: '19.99', taxable: true, tax_rate: 5.5 },
      { name: 'Postage', quantity: 1, price: '4.10', taxable: false },
    ],
    discount: { type: 'percent', value: 10 },
  });
  await post('/invoices', { customer_name: 'Draft Ltd', items: [{ name: 'Later', quantity: 1, price: 10 }] });
  const gone = await post('/invoices', {
    customer_name: 'Trashed Ltd',
    status: 'available',
    items: [{ name: 'X', quantity: 1, price: 1 }],
  });
  expect((await rest.delete(`/invoices/${gone.id}`)).status).toBe(200);
  const pay = await post(`/invoices/${inv.id}/payments`, { amount: 100, method: 'cheque', status: 'completed', notes: 'first half' });
  await post(`/payments/${pay.id}/refund`, { amount: '12.34', reason: 'overcharged postage' });
  await post(`/invoices/${inv.id}/credit-notes`, { amount: 20, reason: 'goodwill' });
  // a file attached to the invoice travels bytes and all
  const attached = await rest.post(
    `/invoices/${inv.id}/attachments`,
    { raw: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 254, 255]), type: 'image/png' },
    { 'content-disposition': 'attachment; filename="stamp.png"' },
  );
  expect(attached.status).toBe(201);
  attachmentId = attached.body.id;
  // a quote accepted on its page becomes an invoice: the quote names it, it names the quote
  const quote = await post('/quotes', { client_id: acme.id, status: 'available', items: [{ name: 'Audit', quantity: 1, price: 900 }] });
  const token = await svc.kernel.api.quotes.mintToken(quote.id);
  await svc.kernel.api.quotes.accept(quote.id, { token });
  await post('/quotes', { customer_name: 'Maybe Inc', items: [{ name: 'Idea', quantity: 1, price: 5 }] });
  const profile = await post('/recurring', {
    template: { customer_name: 'Monthly', items: [{ name: 'Hosting', quantity: 1, price: 25 }] },
    frequency: 'monthly',
    start_date: new Date().toISOString().slice(0, 10),
  });
  expect(profile.id).toEqual(expect.any(Number));
  expect((await svc.kernel.jobs.runNow('billing_generate_recurring_invoices')).status).toBe('succeeded');
});

afterAll(async () => {
  await restored?.stop();
  for (const t of targets) await t.stop();
});

describe('billing export and billing import <archive>', () => {
  it('restores every document, client, payment, credit note and audit entry as it was, links and numbers included', async () => {
    const out = await cli(svc.databaseUrl, 'export', '--output', archive, '--include-secrets', '--format', 'json');
    expect(out.code).toBe(0);
    // not a terminal: progress is plain lines on stderr
    expect(out.stderr).toMatch(/^exporting invoices\.ndjson: \d+\/\d+ rows$/m);
    const written = JSON.parse(out.stdout);
    expect(written).toMatchObject({ path: archive, files: expect.any(Number), rows: expect.any(Number) });

    const names = (await entries(archive)).map((e) => e.name);
    expect(names[names.length - 1]).toBe('manifest.json');
    expect(names).toEqual(
      expect.arrayContaining(['users.ndjson', 'clients.ndjson', 'invoices.ndjson', 'quotes.ndjson', 'credit_notes.ndjson']),
    );
    expect(names).toEqual(expect.arrayContaining(['payments.ndjson', 'options.ndjson', 'audit_log.ndjson', 'recurring/profiles.ndjson']));
    expect(names).toEqual(expect.arrayContaining(['recurring/periods.ndjson', 'team-roles/caps.ndjson']));
    expect(names.some((n) => n.startsWith('webhooks/'))).toBe(false); // not active: nothing of it
    const manifest = JSON.parse((await entries(archive)).find((e) => e.name === 'manifest.json')!.bytes.toString());
    expect(manifest).toMatchObject({ format: 'billing-export', format_version: 1, includes_secrets: true });
    expect(manifest.plugins.map((p: { name: string }) => p.name)).toEqual(['recurring', 'team-roles']);
    expect(manifest.files['invoices.ndjson']).toMatchObject({ rows: 5, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(manifest.schema.documents).toContain('0001_documents');

    const target = await freshTarget();
    const load = await cli(target.databaseUrl, 'import', archive, '--format', 'json');
    expect(load.stderr).toMatch(/^restoring invoices\.ndjson: 0\/5 rows$/m);
    expect(load.code).toBe(0);
    expect(JSON.parse(load.stdout)).toMatchObject({ activated: ['recurring', 'team-roles'], skipped: [], includes_secrets: true });

    // a server started on the restored data (the secret it keys passwords with came with the archive)
    restored = await bootKernel(target.databaseUrl);
    const before = await restSnapshot(svc.rest(admin), svc.kernel.config.baseUrl);
    const after = await restSnapshot(new RestClient(restored.url, admin.authorization), restored.config.baseUrl);
    expect(Object.keys(after).length).toBeGreaterThan(20);
    expect(after).toEqual(before);

    const mine = new RestClient(restored.url, admin.authorization);
    const file = await mine.get(`/attachments/${attachmentId}`);
    expect(file.status).toBe(200);
    expect(file.bytes.equals((await svc.rest(admin).get(`/attachments/${attachmentId}`)).bytes)).toBe(true);
    expect((await mine.get(`/attachments/${attachmentId}`)).headers.get('content-disposition')).toMatch(/filename="stamp\.png"/);
    expect((await mine.get('/recurring')).body).toEqual((await svc.rest(admin).get('/recurring')).body);

    // public links: the same access key opens the same page
    for (const id of (before['/invoices?per_page=100'] as { body: Array<{ id: number }> }).body.map((i) => i.id)) {
      const a = (await cli(svc.databaseUrl, 'invoice', 'link', String(id))).stdout.trim();
      const b = (await cli(target.databaseUrl, 'invoice', 'link', String(id))).stdout.trim();
      expect(new URL(b).search).toBe(new URL(a).search);
      const page = await fetch(new URL(new URL(b).pathname + new URL(b).search, restored.url));
      expect(page.status).toBe(200);
    }

    // the next number of each kind continues after the highest restored one, on both sides alike
    const next = { items: [{ name: 'Next', quantity: 1, price: 1 }], customer_name: 'Next Ltd', status: 'available' };
    const there = await mine.post('/invoices', next);
    const here = await svc.rest(admin).post('/invoices', next);
    expect(there.body.number).toBe(here.body.number);
    expect((await mine.post('/quotes', next)).body.number).toBe((await svc.rest(admin).post('/quotes', next)).body.number);
    expect(there.body.id).toBe(here.body.id);
  }, 240_000); // the export and the restore are CLI processes, each booting the service

  it('refuses to restore into an instance that holds documents: exit 1, nothing written', async () => {
    await ensureArchive();
    const target = await freshTarget();
    await target.kernel.api.invoices.create(
      { items: [{ name: 'Mine', quantity: 1, price: 1 }], customer_name: 'Here' },
      { actor: CLI, source: 'api' },
    );
    const before = await mark(target.kernel.db);
    const r = await cli(target.databaseUrl, 'import', archive);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: this instance already holds documents: an archive is restored only into an empty instance\n');
    expect(await mark(target.kernel.db)).toEqual(before);
  });

  it('refuses a flipped byte, a tampered file, an unknown format_version and a truncated archive, writing nothing', async () => {
    await ensureArchive();
    const target = await freshTarget();
    const before = await mark(target.kernel.db);
    const bytes = readFileSync(archive);
    const files = await entries(archive);
    const variant = async (name: string, make: () => Promise<void> | void) => {
      await make();
      const r = await cli(target.databaseUrl, 'import', join(dir, name));
      expect(r.code).toBe(1);
      expect(await mark(target.kernel.db)).toEqual(before);
      return r.stderr;
    };

    // a byte flipped in the compressed archive
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x01;
    expect(await variant('flipped.tar.gz', () => writeFileSync(join(dir, 'flipped.tar.gz'), flipped))).toMatch(
      // where the flip lands decides which check sees it first: the gzip stream, a row cut short, or the checksum
      /^Error: (the archive is corrupt or truncated|"[^"]+" does not match its checksum|"[^"]+" ends in the middle of a row)/,
    );

    // a well-formed archive with one byte of one row changed: its checksum no longer matches
    const tampered = files.map((f) => {
      if (f.name !== 'invoices.ndjson') return f;
      const text = f.bytes.toString().replace('"Design"', '"Desigm"');
      return { name: f.name, bytes: Buffer.from(text) };
    });
    expect(await variant('tampered.tar.gz', () => writeEntries(join(dir, 'tampered.tar.gz'), tampered))).toBe(
      'Error: "invoices.ndjson" does not match its checksum in the manifest\n',
    );

    const later = files.map((f) => {
      if (f.name !== 'manifest.json') return f;
      return { name: f.name, bytes: Buffer.from(JSON.stringify({ ...JSON.parse(f.bytes.toString()), format_version: 2 })) };
    });
    expect(await variant('v2.tar.gz', () => writeEntries(join(dir, 'v2.tar.gz'), later))).toBe(
      "Error: the archive's format_version is 2; this service reads version 1\n",
    );

    expect(
      await variant('cut.tar.gz', () => writeFileSync(join(dir, 'cut.tar.gz'), bytes.subarray(0, Math.floor(bytes.length * 0.6)))),
    ).toMatch(/^Error: the archive is corrupt or truncated/);

    // a manifest cut off (the archive ends before its last entry)
    expect(await variant('headless.tar.gz', () => writeEntries(join(dir, 'headless.tar.gz'), files.slice(0, -1)))).toBe(
      'Error: the archive has no manifest.json (it is truncated, or not a billing export)\n',
    );
    // a file added that the manifest does not list
    expect(
      await variant('extra.tar.gz', () =>
        writeEntries(join(dir, 'extra.tar.gz'), [{ name: 'evil.ndjson', bytes: Buffer.from('{}\n') }, ...files]),
      ),
    ).toBe('Error: "evil.ndjson" is not listed in the manifest\n');
    // a path that climbs out
    expect(
      await variant('climb.tar.gz', () =>
        writeEntries(join(dir, 'climb.tar.gz'), [{ name: '../../etc/passwd', bytes: Buffer.from('x') }, ...files]),
      ),
    ).toBe('Error: the archive holds "../../etc/passwd", which no billing export has\n');
  }, 240_000);
});

/** The source's archive, written by the first test or here when a test runs alone. */
async function ensureArchive(): Promise<void> {
  try {
    readFileSync(archive);
  } catch {
    expect((await cli(svc.databaseUrl, 'export', '--output', archive, '--include-secrets')).code).toBe(0);
  }
}
