import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import type { Database } from '../../core/db/database.ts';
import type { RestClient } from '../../testing/index.ts';

/** A folder of its own for a test's archives. */
export const archiveDir = () => mkdtempSync(join(tmpdir(), 'billing-archives-'));

/** Every entry of an archive, in order, read whole (test archives are small). */
export async function entries(path: string): Promise<Array<{ name: string; bytes: Buffer }>> {
  const out: Array<{ name: string; bytes: Buffer }> = [];
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      out.push({ name: entry.header.name, bytes: Buffer.concat(chunks) });
    }
  })();
  extract.end(gunzipSync(readFileSync(path)));
  await done;
  return out;
}

/** Writes `files` as an archive at `path`, as a tamperer would: a valid tar.gz of changed entries. */
export async function writeEntries(path: string, files: Array<{ name: string; bytes: Buffer }>): Promise<void> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const read = (async () => {
    for await (const c of pack) chunks.push(c as Buffer);
  })();
  for (const f of files)
    await new Promise<void>((res, rej) => pack.entry({ name: f.name, size: f.bytes.length }, f.bytes, (e) => (e ? rej(e) : res())));
  pack.finalize();
  await read;
  writeFileSync(path, gzipSync(Buffer.concat(chunks)));
}

/**
 * What a restore must not have touched when it refuses: the cluster revision (every plugin or option
 * change bumps it), the users and the audit log.
 */
export async function mark(db: Database): Promise<unknown> {
  return db.query(
    `select (select revision from billing_state) as revision,
            (select json_agg(u order by id) from (select id, login, role, password_hash from billing_users) u) as users,
            (select count(*) from billing_audit_log) as audit, (select max(id) from billing_audit_log) as last_audit,
            (select count(*) from billing_documents) as documents, (select count(*) from billing_options) as options,
            (select json_agg(p order by name) from billing_plugins p) as plugins`,
  );
}

/**
 * Every list and representation the REST API gives of what an instance holds (documents, clients,
 * payments, credit notes, the audit log), with the instance's own address taken out of links.
 */
export async function restSnapshot(rest: RestClient, base: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const get = async (path: string) => {
    const a = await rest.get(path);
    out[path] = { status: a.status, total: a.headers.get('x-wp-total'), body: a.body };
    return a.body;
  };
  const invoices = (await get('/invoices?per_page=100')) as Array<{ id: number }>;
  const quotes = (await get('/quotes?per_page=100')) as Array<{ id: number }>;
  await get('/clients?per_page=100');
  const payments = (await get('/payments?per_page=100')) as Array<{ id: number }>;
  await get('/audit-log?per_page=100');
  for (const { id } of invoices) {
    await get(`/invoices/${id}`);
    await get(`/invoices/${id}/payments`);
    for (const cn of (await get(`/invoices/${id}/credit-notes`)) as Array<{ id: number }>) await get(`/credit-notes/${cn.id}`);
  }
  for (const { id } of quotes) await get(`/quotes/${id}`);
  for (const { id } of payments) await get(`/payments/${id}`);
  return JSON.parse(JSON.stringify(out).replaceAll(base, 'BASE'));
}
