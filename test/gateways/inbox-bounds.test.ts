import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { INBOX_BODY_BYTES } from '../../core/payments/gateways/gateway-runtime.ts';
import { useService } from '../../testing/index.ts';
import { gatewayA, gatewayB, gatewayD, gatewayE, pendingCheckout, type Driver } from './drivers.ts';

/**
 * What anonymous callers can make the gateways' webhooks do (issue 20, defect 6): write nothing to the
 * inbox unless a delivery verifies (or, unsigned, names a payment of ours), never make the service call
 * a gateway's API for a body that names none of ours, keep a bounded part of what is stored, forget it
 * in time, and turn away an address whose requests keep being refused. Each "client" is an address in
 * `X-Forwarded-For`, which the service believes from loopback here (`BILLING_TRUST_PROXY`).
 */
const svc = useService({ config: { trustProxy: 'loopback' } });
let k: Kernel;
const d: Record<string, Driver> = {};

beforeAll(async () => {
  k = svc.kernel;
  for (const [name, make] of Object.entries({ A: gatewayA, B: gatewayB, D: gatewayD, E: gatewayE })) {
    d[name] = await make();
    await k.plugins.activate(d[name]!.plugin, CLI);
    await d[name]!.configure(k);
  }
});

// after useService's afterAll: the service stops before the fake gateways
afterAll(async () => {
  for (const x of Object.values(d)) await x.fake.close();
});

async function post(action: string, body: string, from: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${k.url}/wp-admin/admin-ajax.php?action=${action}`, {
    method: 'POST',
    headers: { 'x-forwarded-for': from, ...headers },
    body,
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
}

async function inbox() {
  const [row] = await k.db.query<{ rows: string; bytes: string }>(
    'select count(*) as rows, coalesce(sum(octet_length(body)), 0) as bytes from billing_gateway_deliveries',
  );
  return { rows: Number(row!.rows), bytes: Number(row!.bytes) };
}

const count = async (table: string) => Number((await k.db.query<{ n: string }>(`select count(*) n from ${table}`))[0]!.n);

/** B's API answering about a payment (the look-up each unsigned B delivery used to cost). */
const bLookups = () => d.B!.fake.seen.filter((r) => r.method === 'GET' && r.path.startsWith('/v2/payments/')).length;
const dLookups = () => d.D!.fake.seen.filter((r) => r.json?.getTransactionDetailsRequest).length;

/** An issued invoice with a pending checkout at the gateway of `method`. */
const pending = (method: string, total?: string) =>
  pendingCheckout(
    k,
    Object.values(d).find((x) => x.method === method)!,
    total,
  );

/** The junk an anonymous caller can send: what it costs the service is what this test bounds. */
function junk(i: number): { action: string; body: string; headers?: Record<string, string> } {
  const padding = 'x'.repeat(100 * 1024);
  switch (i % 6) {
    case 0: // B: a payment id the gateway may know, but no payment of ours has
      return { action: 'billing_gateway_b_webhook', body: `id=tr_junk${i}` };
    case 1: // B, as JSON, carrying 100 KiB besides
      return {
        action: 'billing_gateway_b_webhook',
        body: JSON.stringify({ payment_id: `tr_big${i}`, padding }),
        headers: { 'content-type': 'application/json' },
      };
    case 2: // B: nothing readable
      return { action: 'billing_gateway_b_webhook', body: padding };
    case 3: // D's legacy relay without MD5: an approval for an invoice number that is none of ours
      return {
        action: 'billing_gateway_d_response',
        body: new URLSearchParams({
          x_response_code: '1',
          x_trans_id: String(7_000_000 + i),
          x_amount: '1.00',
          x_invoice_num: `P9${i}`,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
    case 4: // D's relay carrying 100 KiB
      return { action: 'billing_gateway_d_response', body: `x_trans_id=${i}&x_invoice_num=none&pad=${padding}` };
    default: // a signed gateway, unsigned
      return { action: 'billing_gateway_a_webhook', body: JSON.stringify({ id: `evt_${i}`, type: 'payment_intent.succeeded', padding }) };
  }
}

describe('the inbox under anonymous junk', () => {
  it('1 000 junk requests from as many addresses store nothing and never reach the gateways’ APIs', async () => {
    await pending('gateway_b'); // the gateways have payments of ours; the junk names none of them
    await pending('gateway_d');
    const before = { inbox: await inbox(), b: bLookups(), d: dLookups(), events: await count('billing_payment_events') };
    const statuses = new Map<number, number>();
    for (let start = 0; start < 1000; start += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, j) => {
          const i = start + j;
          const { action, body, headers } = junk(i);
          return post(action, body, `10.${(i >> 8) & 255}.${i & 255}.7`, headers);
        }),
      );
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    }
    // every answer is one a gateway understands, none says more than "received" or "unreadable"
    expect([...statuses.keys()].sort()).toEqual([200, 400, 401]);
    expect(await inbox()).toEqual(before.inbox);
    expect([bLookups(), dLookups(), await count('billing_payment_events')]).toEqual([before.b, before.d, before.events]);
  }, 120_000);

  it('turns away an address whose requests keep being refused (429, Retry-After) while other addresses are served', async () => {
    const from = '198.51.100.7';
    const limit = await k.options.get('gateway_webhook_max_refusals');
    expect(limit).toBe(20);
    const answers: number[] = [];
    for (let i = 0; i < limit + 10; i++) answers.push((await post('billing_gateway_b_webhook', `id=tr_probe${i}`, from)).status);
    expect(answers.slice(0, limit + 1)).toEqual(Array(limit + 1).fill(200));
    expect(answers.slice(limit + 1)).toEqual(Array(9).fill(429));
    const turned = await post('billing_gateway_e_webhook', '{}', from);
    expect(turned).toMatchObject({ status: 429, body: { success: false, data: { code: 'billing_too_many_attempts' } } });
    expect(Number(turned.retryAfter)).toBeGreaterThan(0);
    // the gateway's own delivery, from its own address, is applied
    const { doc, reference } = await pending('gateway_b', '20.00');
    expect(await post('billing_gateway_b_webhook', d.B!.paid(reference), '198.51.100.8')).toMatchObject({ status: 200 });
    expect((await k.api.invoices.get(doc.id)).status).toBe('paid');
  });

  it('a verified delivery is stored with its first 8 KiB and the length and SHA-256 of the whole', async () => {
    const { doc, reference } = await pending('gateway_e', '30.00');
    const event = JSON.parse(d.E!.paid(reference));
    event.data.metadata = { note: 'y'.repeat(40 * 1024) };
    const body = JSON.stringify(event);
    expect((await post('billing_gateway_e_webhook', body, '192.0.2.10', d.E!.headers(body))).status).toBe(200);
    expect((await k.api.invoices.get(doc.id)).status).toBe('paid');
    const [row] = await k.db.query<{ id: string; kept: number; body_bytes: number; body_sha256: string; status: string }>(
      `select id, octet_length(body) as kept, body_bytes, body_sha256, status from billing_gateway_deliveries order by id desc limit 1`,
    );
    expect(row).toMatchObject({
      kept: INBOX_BODY_BYTES,
      body_bytes: Buffer.byteLength(body),
      body_sha256: createHash('sha256').update(body).digest('hex'),
      status: 'applied',
    });
    // what was cut cannot be applied again from the inbox
    await expect(k.payments.gateways.replay(Number(row!.id))).rejects.toMatchObject({ code: 'billing_rest_invalid_state' });
  });
});

describe('the cleanup job billing_gateway_cleanup', () => {
  it('drops bodies after 7 days and rows after 90; a repeated delivery is still counted once', async () => {
    const { doc, reference } = await pending('gateway_e', '15.00');
    const body = d.E!.paid(reference);
    expect((await post('billing_gateway_e_webhook', body, '192.0.2.20', d.E!.headers(body))).status).toBe(200);
    const id = (await k.db.query<{ id: string }>('select max(id) as id from billing_gateway_deliveries'))[0]!.id;
    await k.db.query(`update billing_gateway_deliveries set received_at = now() - interval '8 days' where id = $1`, [id]);
    expect(await k.jobs.runNow('billing_gateway_cleanup')).toMatchObject({ ran: true, status: 'succeeded' });
    const [kept] = await k.db.query<{ body: Buffer | null; outcomes: unknown; body_sha256: string }>(
      'select body, outcomes, body_sha256 from billing_gateway_deliveries where id = $1',
      [id],
    );
    expect(kept).toMatchObject({ body: null, body_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(kept!.outcomes).toEqual([expect.objectContaining({ result: 'applied', payment: reference })]);
    await expect(k.payments.gateways.replay(Number(id))).rejects.toMatchObject({ code: 'billing_rest_invalid_state' });
    await k.db.query(`update billing_gateway_deliveries set received_at = now() - interval '91 days' where id = $1`, [id]);
    await k.jobs.runNow('billing_gateway_cleanup');
    expect(await k.db.query('select 1 from billing_gateway_deliveries where id = $1', [id])).toEqual([]);
    // the event's key outlives the row: the gateway retrying it changes nothing and writes no row
    const rows = await inbox();
    expect((await post('billing_gateway_e_webhook', body, '192.0.2.20', d.E!.headers(body))).status).toBe(200);
    expect(await inbox()).toEqual(rows);
    expect((await k.api.invoices.get(doc.id)).totals.paid).toBe('15.00');
  });

  it('cancels gateway payments pending for 48 hours, but not one held for review, nor offline ones', async () => {
    const stale = await pending('gateway_e', '11.00');
    const fresh = await pending('gateway_e', '12.00');
    const held = await pending('gateway_e', '13.00');
    const cheque = await k.api.payments.record(
      (await pending('gateway_e', '14.00')).doc.id,
      { amount: 1, method: 'cheque', status: 'pending' },
      CLI,
    );
    await k.db.query(`update billing_payments set review = 'a person looks' where reference = $1`, [held.reference]);
    await k.db.query(`update billing_payments set created_at = now() - interval '49 hours' where reference = any($1)`, [
      [stale.reference, held.reference, cheque.payment.reference],
    ]);
    await k.jobs.runNow('billing_gateway_cleanup');
    const status = async (reference: string) =>
      (await k.db.query<{ status: string }>('select status from billing_payments where reference = $1', [reference]))[0]!.status;
    expect([
      await status(stale.reference),
      await status(fresh.reference),
      await status(held.reference),
      await status(cheque.payment.reference),
    ]).toEqual(['cancelled', 'pending', 'pending', 'pending']);
    // money that arrives for the expired checkout after all is recorded
    const late = d.E!.paid(stale.reference);
    expect((await post('billing_gateway_e_webhook', late, '192.0.2.30', d.E!.headers(late))).status).toBe(200);
    expect(await status(stale.reference)).toBe('completed');
    expect((await k.api.invoices.get(stale.doc.id)).status).toBe('paid');
  });
});
