// The webhooks plugin (docs/webhooks.md) over real HTTP, a real PostgreSQL and real local receivers:
// subscriptions and their secrets, signatures checked by the `standardwebhooks` package, the event
// body (the REST representation, no access key), retries keeping the event id, the delivery log, the
// SSRF guard at save and at dispatch, two instances delivering each event once, and a process killed
// between its commits and their deliveries losing nothing.
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, useService, waitFor, type TestUser } from '../../testing/index.ts';
import { WebhookReceiver, type Received } from '../helpers/webhook-receiver.ts';
import { runUntilKilled } from '../helpers/kill-after.ts';

const DIE = resolve(import.meta.dirname, 'fixtures/create-and-die.ts');

// the receivers of these tests listen on 127.0.0.1 (the guard's own tests turn this off)
const svc = useService({ plugins: ['webhooks'], options: { webhooks_allow_private_hosts: true } });
let k: Kernel;
let admin: TestUser;
let editor: TestUser;
const receivers: WebhookReceiver[] = [];

const call = (method: string, path: string, body?: unknown, user: TestUser = admin) => svc.rest(user).request(method, path, body);

async function receiver(): Promise<WebhookReceiver> {
  const r = await new WebhookReceiver().start();
  receivers.push(r);
  return r;
}

async function subscribe(url: string, events: string[]): Promise<{ id: number; secret: string; url: string }> {
  const res = await call('POST', '/webhooks', { url, events });
  expect(res.status).toBe(201);
  return res.body;
}

async function invoice(name = 'Pat', status: 'draft' | 'available' = 'available') {
  return k.api.invoices.create(
    {
      items: [{ name: 'Hours', quantity: 2, price: '150.00', taxable: false }],
      customer_name: name,
      customer_email: 'pat@example.com',
      status,
    },
    { actor: CLI, source: 'api' },
  );
}

/** Verifies a received request as a receiver would, with the published verifier. */
function verified(secret: string, got: Received): any {
  return new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
}

/** Events not yet fanned out, and deliveries to `subscription` not yet made (or given up). */
const pendingDeliveries = async (subscription: number) =>
  Number(
    (
      await k.db.query<{ n: string }>(
        `select count(*) as n from billing_outbox where status = 'pending'
           and (topic = 'webhooks.event' or (topic = 'webhooks.deliver' and payload->>'subscription_id' = $1))`,
        [String(subscription)],
      )
    )[0]!.n,
  );

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  editor = await svc.makeUser('ed', 'editor');
});

afterEach(async () => {
  // each test listens with its own receivers: earlier subscriptions stop receiving
  await k.db.query('update webhooks_subscriptions set active = false');
});

// after useService's afterAll: the service stops before its receivers
afterAll(async () => {
  for (const r of receivers) await r.close();
});

describe('the SSRF guard when a URL is saved', () => {
  afterAll(() => k.options.set('webhooks_allow_private_hosts', true, CLI));

  it('is on by default: loopback, private, link-local and IPv6 local hosts, and names resolving to them, are refused', async () => {
    await k.options.delete('webhooks_allow_private_hosts', CLI);
    expect(await k.options.get('webhooks_allow_private_hosts')).toBe(false);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.0.0.7/hook',
      'http://192.168.0.10/hook',
      'http://172.20.1.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
      'http://[fd00::5]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://2130706433/hook',
      'ftp://example.com/hook',
    ]) {
      const res = await call('POST', '/webhooks', { url, events: ['*'] });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 'billing_webhook_url_forbidden' });
    }
    expect(await k.db.query('select id from webhooks_subscriptions')).toEqual([]);
  });

  it('also guards a URL changed later', async () => {
    await k.options.set('webhooks_allow_private_hosts', true, CLI);
    const sub = await subscribe((await receiver()).url(), ['*']);
    await k.options.set('webhooks_allow_private_hosts', false, CLI);
    const res = await call('PUT', `/webhooks/${sub.id}`, { url: 'http://127.0.0.1:9/other' });
    expect(res.body.code).toBe('billing_webhook_url_forbidden');
    expect((await call('GET', `/webhooks/${sub.id}`)).body.url).toBe(sub.url);
  });
});

describe('subscriptions', () => {
  it('show their secret once, at creation, and never again', async () => {
    const r = await receiver();
    const created = await call('POST', '/webhooks', { url: r.url(), events: ['invoice.created', 'invoice.paid'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${k.url}/wp-json/billing/v1/webhooks/${created.body.id}`);
    expect(created.body).toMatchObject({
      url: r.url(),
      events: ['invoice.created', 'invoice.paid'],
      active: true,
      created: expect.any(String),
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const secret: string = created.body.secret;
    const id = created.body.id;
    for (const res of [
      await call('GET', `/webhooks/${id}`),
      await call('GET', '/webhooks?per_page=100'),
      await call('PUT', `/webhooks/${id}`, { events: ['*'], active: false }),
      await call('GET', `/webhooks/${id}/deliveries`),
    ]) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain(secret.slice(6));
    }
    expect((await call('GET', `/webhooks/${id}`)).body).toMatchObject({ events: ['*'], active: false });
    const audit = await k.db.query<{ action: string }>(
      `select action from billing_audit_log where object_type = 'webhook' and object_id = $1 order by id`,
      [String(id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['webhook.create', 'webhook.update']);
  });

  it('are checked: known events only, a URL required, bill_manage_settings required', async () => {
    const r = await receiver();
    expect((await call('POST', '/webhooks', { url: r.url(), events: ['invoice.exploded'] })).body.code).toBe('rest_invalid_param');
    expect((await call('POST', '/webhooks', { url: r.url(), events: [] })).body.code).toBe('rest_invalid_param');
    expect((await call('POST', '/webhooks', { events: ['*'] })).body.code).toBe('rest_missing_callback_param');
    expect((await call('GET', '/webhooks', undefined, editor)).status).toBe(403);
    expect((await call('POST', '/webhooks', { url: r.url(), events: ['*'] }, editor)).status).toBe(403);
    expect((await call('GET', '/webhooks/999999')).body.code).toBe('billing_rest_not_found');
  });

  it('can be deleted', async () => {
    const sub = await subscribe((await receiver()).url(), ['*']);
    const res = await call('DELETE', `/webhooks/${sub.id}`);
    expect(res.body).toMatchObject({ deleted: true, previous: { id: sub.id } });
    expect((await call('GET', `/webhooks/${sub.id}`)).status).toBe(404);
    expect((await call('DELETE', `/webhooks/${sub.id}`)).status).toBe(404);
  });

  it('answer a test event at once, signed', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url(), ['*']);
    const res = await call('POST', `/webhooks/${sub.id}/test`);
    expect(res.body).toMatchObject({ type: 'webhook.test', attempt: 1, status: 200, error: null, result: 'delivered' });
    expect(verified(sub.secret, r.received[0]!)).toMatchObject({ type: 'webhook.test', data: { subscription_id: sub.id } });
  });
});

describe('an event', () => {
  it('reaches the subscriber after the change, signed as Standard Webhooks verifies, with the REST representation', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url(), ['invoice.created']);
    const doc = await invoice('Signed Ltd');
    await waitFor(() => r.received.length === 1, { what: 'the receiver to get one request' });
    const got = r.received[0]!;
    const event = verified(sub.secret, got);
    expect(event).toMatchObject({
      type: 'invoice.created',
      id: got.headers['webhook-id'],
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(got.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(got.headers['content-type']).toBe('application/json');
    expect(event.data).toEqual((await call('GET', `/invoices/${doc.id}`)).body);
    // a wrong secret does not verify
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(got.body, got.headers as Record<string, string>),
    ).toThrow();
    const [{ access_key }] = (await k.db.query<{ access_key: string }>('select access_key from billing_documents where id = $1', [
      doc.id,
    ])) as [{ access_key: string }];
    expect(got.body).not.toContain(access_key);
    const log = await call('GET', `/webhooks/${sub.id}/deliveries`);
    expect(log.body).toEqual([
      expect.objectContaining({
        event_id: event.id,
        type: 'invoice.created',
        attempt: 1,
        status: 200,
        error: null,
        result: 'delivered',
        duration_ms: expect.any(Number),
      }),
    ]);
  });

  it('is written in the transaction of its change: a rollback leaves none', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url(), ['*']);
    const doc = await invoice('Rollback');
    await waitFor(async () => r.received.length >= 1 && (await pendingDeliveries(sub.id)) === 0, { what: 'the delivery to be made' });
    const before = r.received.length;
    const outboxBefore = await k.db.query('select id from billing_outbox');
    await expect(
      k.db.transaction(async (tx) => {
        await k.hooks.fire(tx, 'billing_invoice_updated', doc.id, doc);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await k.outbox.drain();
    expect(r.received.length).toBe(before);
    expect((await k.db.query('select id from billing_outbox')).length).toBe(outboxBefore.length);
  });

  it('goes only to subscriptions that asked for it; invoice.paid, payment and credit-note events carry their own representations', async () => {
    const all = await receiver();
    const paidOnly = await receiver();
    const quotes = await receiver();
    const subAll = await subscribe(all.url(), ['*']);
    const subPaid = await subscribe(paidOnly.url(), ['invoice.paid']);
    await subscribe(quotes.url(), ['quote.created']);
    const doc = await invoice('Events');
    const { payment } = await k.api.payments.record(doc.id, { amount: '300.00', method: 'cash', status: 'completed' }, CLI);
    const { creditNote } = await k.api.creditNotes.create(doc.id, { amount: '10.00', reason: 'Goodwill' }, CLI);
    await k.outbox.drain();
    await waitFor(async () => (await pendingDeliveries(subAll.id)) === 0 && (await pendingDeliveries(subPaid.id)) === 0, {
      what: 'no delivery pending for either subscription',
    });
    const types = all.received.map((g) => verified(subAll.secret, g).type);
    expect(types).toEqual(
      expect.arrayContaining(['invoice.created', 'invoice.status_changed', 'invoice.paid', 'payment.completed', 'credit_note.created']),
    );
    expect(paidOnly.received.map((g) => verified(subPaid.secret, g).type)).toEqual(['invoice.paid']);
    expect(verified(subPaid.secret, paidOnly.received[0]!).data).toMatchObject({ id: doc.id, status: 'paid' });
    expect(quotes.received).toEqual([]);
    const byType = Object.fromEntries(all.received.map((g) => [verified(subAll.secret, g).type, verified(subAll.secret, g).data]));
    expect(byType['payment.completed']).toEqual((await call('GET', `/payments/${payment.id}`)).body);
    expect(byType['credit_note.created']).toMatchObject({ id: creditNote.id, invoice_id: doc.id, amount: 10, reason: 'Goodwill' });
    // one event id per event
    expect(new Set(all.ids()).size).toBe(all.received.length);
  });
});

describe('a receiver that fails', () => {
  it('gets the same event again, same id, with growing delays, until it answers 2xx; every try is in the log', async () => {
    const r = await receiver();
    r.answer = (n) => ({ status: n < 2 ? 503 : 200 });
    const sub = await subscribe(r.url(), ['invoice.created']);
    const doc = await invoice('Flaky');
    await k.outbox.drain();
    await waitFor(() => r.received.length === 1, { what: 'the receiver to get one request' });
    const item = async () =>
      (
        await k.db.query<{ id: string; status: string; attempts: number; wait: number }>(
          `select id, status, attempts, extract(epoch from run_after - now()) as wait from billing_outbox where topic = 'webhooks.deliver' and payload->>'subscription_id' = $1`,
          [String(sub.id)],
        )
      )[0]!;
    await waitFor(async () => (await item()).attempts === 1 && (await item()).status === 'pending', {
      what: 'try 1 to be logged, the delivery pending again',
    });
    const first = await item();
    expect(Number(first.wait)).toBeGreaterThan(20);
    expect(Number(first.wait)).toBeLessThanOrEqual(30);
    // time passes: the retry is due
    await k.db.query('update billing_outbox set run_after = now() where id = $1', [first.id]);
    await k.outbox.drain();
    await waitFor(async () => (await item()).attempts === 2 && (await item()).status === 'pending', {
      what: 'try 2 to be logged, the delivery pending again',
    });
    const second = await item();
    expect(Number(second.wait)).toBeGreaterThan(100);
    expect(Number(second.wait)).toBeLessThanOrEqual(120);
    await k.db.query('update billing_outbox set run_after = now() where id = $1', [second.id]);
    await k.outbox.drain();
    await waitFor(async () => (await item()).status === 'done', { what: 'the delivery to be done' });

    expect(r.received).toHaveLength(3);
    expect(new Set(r.ids()).size).toBe(1);
    const bodies = r.received.map((g) => verified(sub.secret, g));
    expect(bodies.every((b) => b.id === r.ids()[0] && b.data.id === doc.id)).toBe(true);
    expect(new Set(r.received.map((g) => g.body)).size).toBe(1);
    const log = (await call('GET', `/webhooks/${sub.id}/deliveries`)).body.reverse();
    expect(log.map((a: any) => [a.attempt, a.status, a.result])).toEqual([
      [1, 503, 'retrying'],
      [2, 503, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    expect(log[0].error).toBe('HTTP 503');
  });

  it('is given up after the last try, and the delivery is marked failed', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 500 });
    const sub = await subscribe(r.url(), ['invoice.created']);
    await invoice('Gone');
    await k.outbox.drain();
    await waitFor(async () => (await k.db.query(`select 1 from webhooks_attempts where subscription_id = $1`, [sub.id])).length === 1, {
      what: 'one attempt to be logged',
    });
    // the last try is due
    await k.db.query(
      `update billing_outbox set attempts = 7, run_after = now() where topic = 'webhooks.deliver' and payload->>'subscription_id' = $1`,
      [String(sub.id)],
    );
    await k.outbox.drain();
    await waitFor(async () => (await k.db.query(`select 1 from webhooks_attempts where subscription_id = $1`, [sub.id])).length === 2, {
      what: 'two attempts to be logged',
    });
    const log = (await call('GET', `/webhooks/${sub.id}/deliveries`)).body;
    expect(log[0]).toMatchObject({ attempt: 8, result: 'failed' });
    const [row] = await k.db.query<{ status: string }>(
      `select status from billing_outbox where topic = 'webhooks.deliver' and payload->>'subscription_id' = $1`,
      [String(sub.id)],
    );
    expect(row!.status).toBe('failed');
  });

  it('that redirects is not followed', async () => {
    const r = await receiver();
    const elsewhere = await receiver();
    r.answer = () => ({ status: 302, headers: { location: elsewhere.url('/stolen') } });
    const sub = await subscribe(r.url(), ['invoice.created']);
    await invoice('Redirect');
    await waitFor(() => r.received.length === 1, { what: 'the receiver to get one request' });
    await waitFor(async () => (await k.db.query(`select 1 from webhooks_attempts where subscription_id = $1`, [sub.id])).length === 1, {
      what: 'one attempt to be logged',
    });
    const [attempt] = (await call('GET', `/webhooks/${sub.id}/deliveries`)).body;
    expect(attempt).toMatchObject({ status: 302, result: 'retrying', error: expect.stringContaining('not followed') });
    expect(elsewhere.received).toEqual([]);
  });
});

describe('the SSRF guard at dispatch', () => {
  it('refuses a delivery whose host has become non-public, for good, without connecting', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url(), ['invoice.created']);
    await k.options.set('webhooks_allow_private_hosts', false, CLI);
    try {
      await invoice('Private now');
      await k.outbox.drain();
      await waitFor(async () => (await k.db.query(`select 1 from webhooks_attempts where subscription_id = $1`, [sub.id])).length === 1, {
        what: 'one attempt to be logged',
      });
      expect(r.received).toEqual([]);
      const [attempt] = (await call('GET', `/webhooks/${sub.id}/deliveries`)).body;
      expect(attempt).toMatchObject({ status: null, result: 'failed', error: expect.stringContaining('not a public address') });
      // done, not waiting for another try
      await waitFor(async () => (await pendingDeliveries(sub.id)) === 0, { what: 'no delivery pending' });
      // the test route is guarded too
      expect((await call('POST', `/webhooks/${sub.id}/test`)).body.code).toBe('billing_webhook_url_forbidden');
    } finally {
      await k.options.set('webhooks_allow_private_hosts', true, CLI);
    }
  });
});

describe('several instances', () => {
  it('deliver every event once between them', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url(), ['invoice.created']);
    const b = await bootKernel(svc.databaseUrl);
    try {
      const docs = await Promise.all(Array.from({ length: 30 }, (_, i) => invoice(`Twin ${i}`)));
      await waitFor(() => r.received.length >= 30, { timeoutMs: 30_000, what: 'every event to be received' });
      await waitFor(async () => (await pendingDeliveries(sub.id)) === 0, { timeoutMs: 10_000, what: 'no delivery pending' });
      await new Promise((res) => setTimeout(res, 1500));
      expect(r.received).toHaveLength(30);
      expect(new Set(r.ids()).size).toBe(30);
      expect(new Set(r.received.map((g) => verified(sub.secret, g).data.id))).toEqual(new Set(docs.map((d) => d.id)));
      // one try each: no instance took a delivery another was making
      const tries = await k.db.query<{ attempt: number }>('select attempt from webhooks_attempts where subscription_id = $1', [sub.id]);
      expect(tries.map((t) => t.attempt)).toEqual(Array(30).fill(1));
    } finally {
      await b.stop();
    }
  });
});

describe('a process killed between its commits and their deliveries', () => {
  it('loses no event: the instances after it deliver each exactly once', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url(), ['invoice.created']);
    // this instance's worker stays off while the other process runs, so nothing is sent before the kill
    await k.outbox.stop();
    const done = await runUntilKilled(DIE, [svc.databaseUrl], 20);
    expect(done.length).toBeGreaterThanOrEqual(20);
    expect(r.received).toEqual([]);
    const committed = (await k.db.query<{ id: string }>(`select id from billing_documents where customer_name = 'Killed'`)).map((x) =>
      Number(x.id),
    );
    expect(committed.length).toBeGreaterThanOrEqual(done.length);
    expect(committed).toEqual(expect.arrayContaining(done));

    const b = await bootKernel(svc.databaseUrl);
    k.outbox.start();
    try {
      await waitFor(() => r.received.length >= committed.length, { timeoutMs: 30_000, what: 'every event to be received' });
      await waitFor(async () => (await pendingDeliveries(sub.id)) === 0, { timeoutMs: 10_000, what: 'no delivery pending' });
      const ids = r.received.map((g) => verified(sub.secret, g).data.id as number);
      expect(ids.sort((x, y) => x - y)).toEqual(committed.sort((x, y) => x - y));
      expect(new Set(r.ids()).size).toBe(committed.length);
    } finally {
      await b.stop();
    }
  });
});

describe('deactivated', () => {
  it('writes no events and sends nothing, and keeps its subscriptions', async () => {
    const r = await receiver();
    const sub = await subscribe(r.url(), ['*']);
    await k.plugins.deactivate('webhooks', CLI);
    try {
      const before = (await k.db.query(`select id from billing_outbox where topic = 'webhooks.event'`)).length;
      await invoice('Off');
      await k.outbox.drain();
      expect((await k.db.query(`select id from billing_outbox where topic = 'webhooks.event'`)).length).toBe(before);
      expect(r.received).toEqual([]);
      expect(await k.db.query('select id from webhooks_subscriptions where id = $1', [sub.id])).toHaveLength(1);
    } finally {
      await k.plugins.activate('webhooks', CLI);
    }
  });
});
