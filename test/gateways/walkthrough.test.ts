import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { FakeGateway, bootKernel, useService, waitFor } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';

/**
 * Issue 9's "done when", step by step as a newcomer does it: gateway E switched on and keyed with the
 * CLI, the invoice's public page opened, its pay button pressed, then the `charge.success` the gateway
 * would post, signed and sent by the very `openssl` + `curl` lines of docs/gateways.md — and the invoice
 * is paid. Switching the gateway off then removes its webhook and button on another instance within 5 s.
 */
const SECRET = 'sk_test_walkthrough_0123456789';
// each `billing` command is a process that boots the service: generous on a loaded two-core machine
const SLOW = 180_000;
const svc = useService();
let k: Kernel;
let other: Kernel;
let fake: FakeGateway;

beforeAll(async () => {
  k = svc.kernel;
  fake = await new FakeGateway().start();
  fake.on('POST /transaction/initialize', (req) => ({
    status: 200,
    body: { status: true, data: { authorization_url: `${fake.url}/checkout/abc`, access_code: 'abc', reference: req.json.reference } },
  }));
  other = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => other.stop());
});

// after useService's afterAll: the service stops before the fake gateway
afterAll(() => fake?.close());

const cli = async (...args: string[]) => {
  // the fake gateway is served over http on 127.0.0.1, which an API base may name only with this flag
  const r = await billing(svc.databaseUrl, args, { BASE_URL: k.url, BILLING_GATEWAY_LOOPBACK_HTTP: '1' });
  expect([r.code, r.stderr]).toEqual([0, '']);
  return r.stdout.trim();
};

/** The shell block of docs/gateways.md that signs and sends a `charge.success`. */
function docsSnippet(): string {
  const doc = readFileSync(resolve(import.meta.dirname, '../../docs/gateways.md'), 'utf8');
  const block = /<!-- walkthrough: charge\.success -->\s*```sh\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/gateways.md lost its signed charge.success example');
  return block[1]!;
}

function sh(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((res, rej) =>
    execFile('bash', ['-euo', 'pipefail', '-c', script], { env: { PATH: process.env.PATH, ...env } }, (err, stdout, stderr) =>
      err ? rej(new Error(`${err.message}\n${stderr}`)) : res(stdout),
    ),
  );
}

it(
  'activate E with the CLI, set its key, press the pay button, post a signed charge.success: the invoice is paid',
  async () => {
    expect(await cli('plugin', 'activate', 'gateway-e')).toBe('Plugin gateway-e activated.');
    // the base first: changing it empties the gateway's secrets
    await cli('option', 'set', 'gateway_e_api_base', fake.url);
    await cli('option', 'set', 'gateway_e_secret_key', SECRET);
    const created = await cli(
      'invoice',
      'create',
      JSON.stringify({
        items: [{ name: 'Logo design', quantity: 1, price: '120.00', taxable: false }],
        customer_name: 'Ann Buyer',
        customer_email: 'ann@example.com',
        status: 'available',
      }),
    );
    const id = /\(id (\d+),/.exec(created)![1]!;
    const link = await cli('invoice', 'link', id);
    expect(link.startsWith(`${k.url}/billing/invoice/${id}?key=`)).toBe(true);

    // the running service sees the activation (another process made it) and shows the button
    await waitFor(async () => (await (await fetch(link)).text()).includes('with Gateway E'), {
      timeoutMs: 5000,
      what: 'the running service to show the Gateway E button',
    });
    const page = await (await fetch(link)).text();
    const form = /<form[^>]*action="([^"]*\/pay\?key=[^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
    expect(form).not.toBeNull();
    expect(form![2]).toContain('Pay $120.00 with Gateway E');
    const fields = new URLSearchParams(
      [...form![2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const pressed = await fetch(new URL(form![1]!.replaceAll('&amp;', '&'), k.url), { method: 'POST', body: fields, redirect: 'manual' });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`${fake.url}/checkout/abc`);
    const reference = fake.requests('POST /transaction/initialize').at(-1)!.json.reference as string;

    // the gateway's notification, signed and sent exactly as the docs show
    const answer = await sh(docsSnippet().replaceAll('P000001', reference), { BASE_URL: k.url, GATEWAY_E_SECRET_KEY: SECRET });
    expect(JSON.parse(answer)).toEqual({ success: true });
    const invoice = await k.api.invoices.get(Number(id));
    expect([invoice.status, invoice.totals.paid, invoice.totals.due]).toEqual(['paid', '120.00', '0.00']);
    expect((await (await fetch(link)).text()).toLowerCase()).toContain('paid');
  },
  SLOW,
);

it(
  'deactivating the gateway removes its webhook and pay button on another instance within 5 s',
  async () => {
    // where the first test leaves it (no-ops after it): E active, keyed, against the fake
    await k.plugins.activate('gateway-e', CLI);
    await k.options.set('gateway_e_api_base', fake.url, CLI);
    await k.options.set('gateway_e_secret_key', SECRET, CLI);
    const created = await cli(
      'invoice',
      'create',
      JSON.stringify({
        items: [{ name: 'Hosting', quantity: 1, price: '9.00', taxable: false }],
        customer_name: 'Bo',
        status: 'available',
      }),
    );
    const id = /\(id (\d+),/.exec(created)![1]!;
    const link = (await cli('invoice', 'link', id)).replace(k.url, other.url);
    await waitFor(async () => (await (await fetch(link)).text()).includes('with Gateway E'), {
      timeoutMs: 5000,
      what: 'the other instance to show the Gateway E button',
    });
    await cli('plugin', 'deactivate', 'gateway-e');
    await waitFor(async () => !(await (await fetch(link)).text()).includes('Gateway E'), {
      timeoutMs: 5000,
      what: 'the other instance to drop the Gateway E button',
    });
    const gone = await fetch(`${other.url}/wp-admin/admin-ajax.php?action=billing_gateway_e_webhook`, { method: 'POST', body: '{}' });
    expect([gone.status, await gone.text()]).toEqual([400, '0']);
  },
  SLOW,
);
