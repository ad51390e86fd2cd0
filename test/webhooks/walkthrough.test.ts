// The newcomer's walkthrough of docs/webhooks.md, step by step with the real `billing` command and the
// REST API: activate the plugin, allow a local endpoint, subscribe it, create and pay an invoice, and
// verify the signed webhooks that arrive with the `standardwebhooks` package.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { RestClient, basic, useService, waitFor } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

// `npm start`: the first start creates the administrator `admin`
const svc = useService();
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});

// after useService's afterAll: the service stops before its receiver
afterAll(() => receiver?.close());

it('activates, subscribes a local endpoint, and receives signed webhooks when an invoice changes', async () => {
  const run = async (...args: string[]) => {
    const r = await billing(svc.databaseUrl, args);
    expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    return r.stdout;
  };
  await run('plugin', 'activate', 'webhooks');
  // the endpoint of this walkthrough is on 127.0.0.1, which the SSRF guard refuses unless told otherwise
  await run('option', 'set', 'webhooks_allow_private_hosts', 'true');
  const { password } = JSON.parse(await run('app-password', 'create', 'admin', '--name', 'webhooks', '--format', 'json'));
  const client = new RestClient(svc.url, basic('admin', password));
  const rest = (method: string, path: string, body?: unknown) => client.request(method, path, body);

  // the running server picks the activation up without a restart
  await waitFor(async () => (await rest('GET', '/webhooks')).status === 200, { what: 'the route to be served' });

  const subscribed = await rest('POST', '/webhooks', { url: receiver.url('/billing-events'), events: ['invoice.created', 'invoice.paid'] });
  expect(subscribed.status).toBe(201);
  const { id, secret } = subscribed.body;
  expect(secret).toMatch(/^whsec_/);

  const created = (
    await rest('POST', '/invoices', {
      items: [{ name: 'Consulting', quantity: 3, price: 120 }],
      customer_name: 'Walk Through',
      status: 'available',
    })
  ).body;
  expect(
    (await rest('POST', `/invoices/${created.id}/payments`, { amount: 360, method: 'bank_transfer', status: 'completed' })).status,
  ).toBe(201);

  await waitFor(() => receiver.received.length === 2, { timeoutMs: 10_000, what: 'the receiver to get two requests' });
  const wh = new Webhook(secret);
  const events = receiver.received.map((r) => {
    expect(r.path).toBe('/billing-events');
    return wh.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { id: number; status: string } };
  });
  expect(events.map((e) => e.type).sort()).toEqual(['invoice.created', 'invoice.paid']);
  expect(events.find((e) => e.type === 'invoice.paid')!.data).toMatchObject({ id: created.id, status: 'paid' });

  const log = (await rest('GET', `/webhooks/${id}/deliveries`)).body;
  expect(log.map((a: { result: string }) => a.result)).toEqual(['delivered', 'delivered']);
});
