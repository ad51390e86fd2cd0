import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { newEventId, newSecret, signature } from '../../plugins/webhooks/signature.ts';
import { measureHttp, type BenchEnv, type Comparison, type Measure, type Scenario } from '../harness.ts';

/** Events delivered per measurement. */
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 400);
/** The outbox's concurrency per instance: the baseline sends as many at once. */
const CONCURRENCY = 4;

/** A receiver that answers 200 to everything and counts what it got. */
function receiver(): Promise<{ server: Server; url: string; count: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(200).end('ok');
    });
  });
  return new Promise((res) =>
    server.listen(0, '127.0.0.1', () =>
      res({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => n }),
    ),
  );
}

/**
 * The baseline: the same number of signed POSTs of a body of the same size to the same receiver, with
 * the same concurrency and a fresh connection each (as the delivery does), but no database at all:
 * no event row, no fan-out, no claim, no delivery log.
 */
async function bareDeliveries(url: string, body: string, count: number): Promise<Measure> {
  const secret = newSecret();
  let next = 0;
  const latencies: number[] = [];
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const id = newEventId();
      const ts = Math.floor(Date.now() / 1000);
      const req = request(
        url,
        {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(ts),
            'webhook-signature': signature(secret, id, ts, body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) {
        const t = performance.now();
        await one();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    throughput: count / seconds,
    p50: latencies[Math.floor(latencies.length / 2)]!,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
    unit: 'del/s',
    errors: 0,
  };
}

async function invoices(kernel: Kernel, n: number, name: string): Promise<void> {
  let left = n;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (left-- > 0) {
        await kernel.api.invoices.create(
          {
            items: [{ name: 'Work', quantity: 1, price: '100.00', taxable: false }],
            customer_name: name,
            customer_email: 'bench@example.com',
          },
          { actor: CLI, source: 'api' },
        );
      }
    }),
  );
}

export const webhooks: Scenario = {
  name: 'webhooks',
  description:
    'signed deliveries per second from the outbox to a local receiver vs bare signed POSTs; POST /invoices with webhooks active (the event row) vs inactive',
  async run(env: BenchEnv): Promise<Comparison[]> {
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    const r = await receiver();
    try {
      const user = await kernel.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const { password } = await kernel.identity.appPasswords.create(user, 'bench', CLI);
      const headers = { authorization: `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`, 'content-type': 'application/json' };
      const api = `${kernel.url}/wp-json/billing/v1`;
      await kernel.plugins.activate('webhooks', CLI);
      await kernel.options.set('webhooks_allow_private_hosts', true, CLI);
      const created = await fetch(`${api}/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: r.url, events: ['invoice.created'] }),
      });
      if (created.status !== 201) throw new Error(`subscribing answered ${created.status}`);
      const out: Comparison[] = [];

      // deliveries: the events are committed with the worker paused, then it drains them all
      await kernel.outbox.stop();
      await invoices(kernel, 20, 'Warm');
      await kernel.outbox.drain();
      await invoices(kernel, EVENTS, 'Bench');
      const before = r.count();
      const t0 = performance.now();
      await kernel.outbox.drain();
      const seconds = (performance.now() - t0) / 1000;
      const delivered = r.count() - before;
      const [sample] = await kernel.db.query<{ body: string }>('select body from webhooks_events order by created_at desc limit 1');
      const [latency] = await kernel.db.query<{ p50: number; p99: number }>(
        `select percentile_cont(0.5) within group (order by duration_ms) as p50, percentile_cont(0.99) within group (order by duration_ms) as p99
           from webhooks_attempts`,
      );
      const ours: Measure = {
        throughput: delivered / seconds,
        p50: Number(latency!.p50),
        p99: Number(latency!.p99),
        unit: 'del/s',
        errors: EVENTS - delivered,
      };
      out.push({
        scenario: `deliveries, ${EVENTS} events, ${CONCURRENCY} at once`,
        ours,
        baseline: await bareDeliveries(r.url, sample!.body, EVENTS),
        baselineName: 'bare signed POSTs',
        note: `(p99 of ours: the POST itself, from the delivery log)`,
      });

      // the request that causes an event: with the plugin active it also writes the event row; the
      // worker stays paused so both sides measure the request alone, not the deliveries beside it
      const body = JSON.stringify({ items: [{ name: 'Work', quantity: 1, price: 100 }], customer_name: 'Bench' });
      const post = () => measureHttp({ url: `${api}/invoices`, method: 'POST', headers, body, connections: 10 }, env);
      await kernel.plugins.deactivate('webhooks', CLI);
      const inactive = await post();
      await kernel.plugins.activate('webhooks', CLI);
      // measured second, on the larger table: any bias is against the plugin
      const active = await post();
      out.push({
        scenario: 'POST /invoices, 10 clients, webhooks active',
        ours: active,
        baseline: inactive,
        baselineName: 'webhooks inactive',
        note: `p50 ${active.p50.toFixed(1)} vs ${inactive.p50.toFixed(1)} ms: the added latency is one outbox insert`,
      });
      return out;
    } finally {
      r.server.close();
      await kernel.stop();
      await db.close();
    }
  },
};
