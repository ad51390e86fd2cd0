// Background work in lanes (docs/security.md, "Background work"): a webhook receiver that never
// answers, with many deliveries queued for it, holds only its own subscription's lane — a second,
// healthy subscription receives every event and a payment's receipt mail goes out while the slow
// deliveries are still outstanding. Real HTTP receivers, a real SMTP server, a real database.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService, waitFor, type MailCatcher, type TestUser } from '../../testing/index.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

/** A receiver that reads each request and never answers; it counts the requests it holds open. */
class HangingReceiver {
  open = 0;
  maxOpen = 0;
  requests = 0;
  private readonly held = new Set<IncomingMessage>();
  private readonly server: Server = createServer((req) => {
    this.requests++;
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    this.held.add(req);
    req.resume();
    req.socket.on('close', () => {
      this.open--;
      this.held.delete(req);
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((res) => this.server.listen(0, '127.0.0.1', res));
    return this;
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((res) => this.server.close(() => res()));
  }
}

const svc = useService({
  mail: true,
  plugins: ['webhooks'],
  options: { company_email: 'office@example.com', webhooks_allow_private_hosts: true },
});
let smtp: MailCatcher;
let k: Kernel;
let admin: TestUser;
let slow: HangingReceiver;
let healthy: WebhookReceiver;

async function subscribe(url: string): Promise<number> {
  const res = await svc.rest(admin).post('/webhooks', { url, events: ['invoice.created'] });
  expect(res.status).toBe(201);
  return (res.body as { id: number }).id;
}

const pendingFor = async (subscription: number) =>
  (
    await k.db.query<{ n: number }>(
      `select count(*)::int as n from billing_outbox where topic = 'webhooks.deliver' and status = 'pending' and payload->>'subscription_id' = $1`,
      [String(subscription)],
    )
  )[0]!.n;

beforeAll(async () => {
  k = svc.kernel;
  smtp = svc.mail;
  admin = await svc.makeUser('boss', 'administrator');
  slow = await new HangingReceiver().start();
  healthy = await new WebhookReceiver().start();
  svc.beforeStop(async () => {
    await k.db.query('update webhooks_subscriptions set active = false');
    // the hanging requests end now (a failed try, retried much later): the worker stops at once
    await slow.close();
  });
});

// after useService's afterAll: the service stops before its receiver
afterAll(() => healthy?.close());

describe('a webhook receiver that hangs', () => {
  it('delays neither another subscription nor a receipt mail: both arrive while its deliveries are outstanding', async () => {
    const slowId = await subscribe(slow.url());
    const healthyId = await subscribe(healthy.url());
    const EVENTS = 20;
    for (let i = 0; i < EVENTS; i++) {
      await k.api.invoices.create({ items: [{ name: 'Hours', quantity: 1, price: '10.00' }], customer_name: `C${i}` } as never, {
        actor: CLI,
        source: 'api',
      });
    }
    // the healthy subscription gets every event, while the slow one has hardly started
    await waitFor(() => healthy.received.length === EVENTS, { timeoutMs: 8000, what: 'every event to reach the healthy receiver' });
    // (each marked done just after its receiver answered)
    await waitFor(async () => (await pendingFor(healthyId)) === 0, { what: 'no delivery pending' });
    expect(slow.requests).toBeGreaterThan(0);
    expect(await pendingFor(slowId)).toBeGreaterThanOrEqual(EVENTS - 2);

    // a payment's receipt mail is not queued behind them either
    const invoice = await k.api.invoices.create(
      { items: [{ name: 'Hours', quantity: 1, price: '10.00' }], customer_name: 'Payer', status: 'available' } as never,
      { actor: CLI, source: 'api' },
    );
    await k.api.payments.record(invoice.id, { amount: '10.00', method: 'cash', status: 'completed' }, CLI);
    const receipt = () =>
      smtp.received.some((m) => m.envelope.to.includes('office@example.com') && m.parsed.text?.includes(invoice.number));
    await waitFor(receipt, { timeoutMs: 8000, what: 'the condition' });
    expect(await pendingFor(slowId)).toBeGreaterThanOrEqual(EVENTS - 2);

    // the bound the outbox enforces: the slow subscription's lane never held more than its two slots
    expect(slow.maxOpen).toBeLessThanOrEqual(2);
    expect(slow.open).toBeGreaterThan(0);
  }, 60000);
});
