// The e-invoice reader's body limit over HTTP: the largest official EN 16931 example (an invoice carrying
// a PDF, over 3 MB) is read, the route takes up to 20 MiB of its own file types, and every other body
// keeps the 1 MiB limit. The official files are read where they are (shared/, beside the checkout),
// never copied into the project.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { READ_BODY_LIMIT } from '../../plugins/e-invoicing/reader.ts';
import { EN16931_DIR } from '../helpers/en16931.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';

const svc = useService();
let k: Kernel;
let admin: TestUser;

/** The official files beside the checkout; CI always has them, so there a missing folder fails rather than skips. */
const haveExamples = existsSync(EN16931_DIR) || process.env.CI === 'true';

function largestExample(): { path: string; size: number } {
  let best = { path: '', size: 0 };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/examples?\//.test(path) && /\.(xml|pdf)$/i.test(entry.name)) {
        const size = statSync(path).size;
        if (size > best.size) best = { path, size };
      }
    }
  };
  walk(EN16931_DIR);
  return best;
}

function post(path: string, body: Uint8Array<ArrayBuffer> | string, type: string) {
  return svc.rest(admin).post(path, { raw: typeof body === 'string' ? body : Buffer.from(body), type });
}

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('reader', 'administrator');
  await k.plugins.activate('e-invoicing', CLI);
  await waitFor(() => k.plugins.isLoaded('e-invoicing'), { what: 'e-invoicing to load' });
}, 120_000);

// after useService's afterAll: the reader's workers outlive the service
afterAll(() => closeBoundedWorkers());

describe('POST /einvoices/read: its own 20 MiB limit', () => {
  (haveExamples ? it : it.skip)(
    'reads the largest official example (an invoice carrying a PDF) over HTTP',
    async () => {
      const example = largestExample();
      expect(example.size).toBeGreaterThan(3 * 1024 * 1024); // over the 1 MiB every other body has, by far
      const res = await post('/einvoices/read', new Uint8Array(readFileSync(example.path)), 'application/xml');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ format: 'ubl', type: 'invoice', number: expect.any(String) });
      expect(res.body.number).not.toBe('');
      expect(res.body.lines.length).toBeGreaterThan(0);
    },
    60_000,
  );

  it('takes a file up to 20 MiB and refuses one beyond with 413', async () => {
    // a well-formed UBL padded with a comment to just under the limit: read, and refused for its root only
    const head = '<?xml version="1.0"?><Unknown xmlns="urn:example"><!--';
    const tail = '--></Unknown>';
    const fits = head + 'x'.repeat(READ_BODY_LIMIT - head.length - tail.length) + tail;
    const read = await post('/einvoices/read', fits, 'application/xml');
    expect(read).toMatchObject({ status: 400, body: { code: 'billing_einvoice_unreadable' } });
    expect(read.body.message).toMatch(/its root is Unknown/);
    const over = await post('/einvoices/read', `${fits} `, 'application/xml');
    expect(over).toMatchObject({ status: 413, body: { code: 'rest_payload_too_large' } });
  }, 60_000);

  it('holds a large body only for a caller allowed on the route: others get 413 before it is read', async () => {
    const body = `<x>${' '.repeat(2 * 1024 * 1024)}</x>`;
    const anonymous = await svc.rest(null).post('/einvoices/read', { raw: body, type: 'application/xml' });
    expect(anonymous.status).toBe(413);
    const subscriber = await svc.makeUser('reader-sub', 'subscriber');
    const refused = await svc.rest(subscriber).post('/einvoices/read', { raw: body, type: 'application/xml' });
    expect(refused.status).toBe(413);
    // a small body from them is read far enough to be refused for who they are
    const small = await svc.rest(subscriber).post('/einvoices/read', { raw: '<x/>', type: 'application/xml' });
    expect(small.status).toBe(403);
  });

  it('keeps 1 MiB for every other body, and for that route’s other content types', async () => {
    const json = JSON.stringify({ customer_name: 'x'.repeat(1024 * 1024 + 10) });
    expect(await post('/invoices', json, 'application/json')).toMatchObject({ status: 413, body: { code: 'rest_payload_too_large' } });
    expect(await post('/einvoices/read', json, 'application/json')).toMatchObject({ status: 413 });
  });
});
