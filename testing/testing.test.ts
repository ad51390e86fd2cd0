// The test kit's own tests: each runs alone (`-t`), on the service `useService` boots for this file.
import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { FakeGateway, RestClient, TestService, useService, waitFor } from './index.ts';

const svc = useService({
  plugins: ['hello'],
  pluginDirs: [resolve(import.meta.dirname, '../test/fixtures/plugins')],
  options: { hello_greeting: 'Grüß Gott' },
  mail: true,
});

const invoice = (email: string) => ({
  customer_name: 'Jane Roe',
  customer_email: email,
  items: [{ name: 'Consulting', quantity: 2, price: 100 }],
});

describe('useService', () => {
  it('boots with the plugins active and the options set', async () => {
    const user = await svc.makeUser('reader-1', 'subscriber');
    const res = await svc.rest(user).get('/hello?name=Ann');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ greeting: 'Grüß Gott, Ann' });
  });

  it('gives REST clients per user: a visitor is 401, a viewer cannot create, an administrator can', async () => {
    const admin = await svc.makeUser('boss-2', 'administrator');
    const viewer = await svc.makeUser('peek-2', 'billing_viewer');
    expect((await svc.rest().get('/invoices')).body.code).toBe('billing_rest_unauthenticated');
    expect((await svc.rest(viewer).post('/invoices', invoice('a@example.com'))).status).toBe(403);
    const created = await svc.rest(admin).post('/invoices', invoice('a@example.com'));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${svc.url}/wp-json/billing/v1/invoices/${created.body.id}`);
  });

  it('sends raw bodies as they are', async () => {
    const admin = await svc.makeUser('boss-3', 'administrator');
    const res = await svc.rest(admin).post('/invoices', { raw: '{"items": [', type: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
  });

  it('signs a user in for admin-ajax, and its mail reaches the catcher', async () => {
    const admin = await svc.makeUser('boss-4', 'administrator', 'boss-4-password');
    const created = await svc.rest(admin).post('/invoices', invoice('customer-4@example.com'));
    const ajax = await svc.ajax('boss-4', 'boss-4-password');
    const sent = await ajax.call('billing_send_invoice_email', { id: String(created.body.id) });
    expect(sent.body.success).toBe(true);
    const mail = await svc.mail.waitFor((m) => m.envelope.to.includes('customer-4@example.com'));
    expect(mail.parsed.subject).toContain(created.body.number);
    expect((await ajax.post({ action: 'billing_send_invoice_email', id: String(created.body.id) })).status).toBe(403); // no nonce
  });

  it('refuses a wrong password at sign-in', async () => {
    await svc.makeUser('boss-5', 'administrator', 'right-password-5');
    await expect(svc.ajax('boss-5', 'wrong')).rejects.toThrow(/not 302/);
  });
});

describe('waitFor', () => {
  it('answers the first truthy value', async () => {
    let n = 0;
    expect(await waitFor(() => (++n >= 3 ? n : 0), { everyMs: 1 })).toBe(3);
  });

  it('throws, naming what it waited for and what it last saw', async () => {
    await expect(waitFor(() => false, { timeoutMs: 30, what: 'the moon' })).rejects.toThrow('waited 30 ms for the moon; last seen: false');
  });
});

describe('FakeGateway', () => {
  it('answers declared routes and records what it was sent', async () => {
    const fake = await new FakeGateway().on('POST /v1/things/:id', (req) => ({ status: 201, body: { got: req.json } })).start();
    try {
      const client = new RestClient(fake.url);
      const res = await client.post(`${fake.url}/v1/things/7`, { a: 1 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ got: { a: 1 } });
      expect(fake.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/things/7']);
      expect((await client.get(`${fake.url}/v1/other`)).status).toBe(404);
    } finally {
      await fake.close();
    }
  });
});

describe("what the project's own tests added", () => {
  it('keeps the bytes of an answer (a PDF), and leaves admin-ajax 0 and -1 as text', async () => {
    const admin = await svc.makeUser('boss-6', 'administrator', 'boss-6-password');
    const created = await svc.rest(admin).post('/invoices', invoice('customer-6@example.com'));
    const pdf = await svc.rest(admin).get(`/invoices/${created.body.id}/pdf`);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const ajax = await svc.ajax('boss-6', 'boss-6-password');
    expect((await ajax.call('billing_no_such_action')).body).toBe('0');
    expect((await ajax.post({ action: 'billing_send_invoice_email', _wpnonce: 'deadbeef00' })).body).toBe('-1');
  });

  it('runs beforeStop checks while the service serves, and stops it even when one throws', async () => {
    const other = await new TestService().start();
    const seen: number[] = [];
    other.beforeStop(async () => {
      seen.push((await fetch(`${other.url}/healthz`)).status);
    });
    other.beforeStop(() => {
      throw new Error('a failed end check');
    });
    await expect(other.stop()).rejects.toThrow('a failed end check');
    expect(seen).toEqual([200]);
    expect(() => other.kernel).toThrow(/not started/);
  });
});
