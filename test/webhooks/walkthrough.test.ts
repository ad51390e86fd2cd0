// The newcomer's walkthrough of docs/webhooks.md, step by step with the real `billing` command and the
// REST API: activate the plugin, allow a local endpoint, subscribe it, create and pay an invoice, and
// verify the signed webhooks that arrive with the `standardwebhooks` package.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { Kernel } from '../../core/kernel.ts';
import { billing } from '../helpers/cli.ts';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { bootKernel, eventually } from '../helpers/kernel.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

let db: TestDatabase;
let server: Kernel;
let receiver: WebhookReceiver;

beforeAll(async () => {
  db = await freshDatabase();
  // `npm start`: the first start creates the administrator `admin`
  server = await bootKernel(db.url);
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await db?.drop();
});

it('activates, subscribes a local endpoint, and receives signed webhooks when an invoice changes', async () => {
  const run = async (...args: string[]) => {
    const r = await billing(db.url, args);
    expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    return r.stdout;
  };
  await run('plugin', 'activate', 'webhooks');
  // the endpoint of this walkthrough is on 127.0.0.1, which the SSRF guard refuses unless told otherwise
  await run('option', 'set', 'webhooks_allow_private_hosts', 'true');
  const { password } = JSON.parse(await run('app-password', 'create', 'admin', '--name', 'webhooks', '--format', 'json'));
  const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const rest = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/wp-json/billing/v1${path}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // the running server picks the activation up without a restart
  expect(await eventually(async () => (await rest('GET', '/webhooks')).status === 200)).toBe(true);

  const subscribed = await rest('POST', '/webhooks', { url: receiver.url('/billing-events'), events: ['invoice.created', 'invoice.paid'] });
  expect(subscribed.status).toBe(201);
  const { id, secret } = await subscribed.json();
  expect(secret).toMatch(/^whsec_/);

  const created = await (
    await rest('POST', '/invoices', {
      items: [{ name: 'Consulting', quantity: 3, price: 120 }],
      customer_name: 'Walk Through',
      status: 'available',
    })
  ).json();
  expect(
    (await rest('POST', `/invoices/${created.id}/payments`, { amount: 360, method: 'bank_transfer', status: 'completed' })).status,
  ).toBe(201);

  expect(await eventually(() => receiver.received.length === 2, 10_000)).toBe(true);
  const wh = new Webhook(secret);
  const events = receiver.received.map((r) => {
    expect(r.path).toBe('/billing-events');
    return wh.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { id: number; status: string } };
  });
  expect(events.map((e) => e.type).sort()).toEqual(['invoice.created', 'invoice.paid']);
  expect(events.find((e) => e.type === 'invoice.paid')!.data).toMatchObject({ id: created.id, status: 'paid' });

  const log = await (await rest('GET', `/webhooks/${id}/deliveries`)).json();
  expect(log.map((a: { result: string }) => a.result)).toEqual(['delivered', 'delivered']);
});
