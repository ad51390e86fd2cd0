import { resolve } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import { packageTarball } from '../../core/plugins/installed-plugins.ts';
import { alternate, measureHttp, type Comparison, type Measure, type Scenario } from '../harness.ts';

const STAMP = resolve(import.meta.dirname, '../../test/fixtures/packages/stamp');
const CALLS = Number(process.env.BENCH_SANDBOX_CALLS ?? 5000);

/**
 * A filter on a hot path, `billing_rest_invoice` on GET /invoices/{id}, run by the `stamp` package in
 * its sandbox, against the same filter function registered in the service's own realm (the plugin
 * trusted); then the cost of one sandboxed filter call (arguments copied in, the answer copied out),
 * as the difference to the same applyFilters with no listener.
 */
export const sandbox: Scenario = {
  name: 'sandbox',
  description: 'billing_rest_invoice on GET /invoices/{id} by a sandboxed plugin vs the same filter trusted; µs per sandboxed call',
  async run(env) {
    const database = await env.database();
    const k = await env.kernel(database.url);
    try {
      const user = await k.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const { password } = await k.identity.appPasswords.create(user, 'bench', CLI);
      const headers = { authorization: `Basic ${Buffer.from(`bench:${password}`).toString('base64')}` };
      const invoice = await k.api.invoices.create(
        { items: [{ name: 'Work', quantity: 3, price: 120.5 }], status: 'available' } as never,
        { actor: CLI, source: 'cli' } as never,
      );
      await k.plugins.install(packageTarball(STAMP), { actor: CLI });
      await k.plugins.activate('stamp', CLI);
      const url = `${k.url}/wp-json/billing/v1/invoices/${invoice.id}`;
      const label = (n: string) => `stamped ${n}`;
      const trusted = (data: Record<string, unknown>) => ({ ...data, stamp: label(String(data.number)) });
      let sandboxed = true;
      const use = async (wantSandboxed: boolean) => {
        if (wantSandboxed === sandboxed) return;
        if (wantSandboxed) {
          k.hooks.removeFilter('billing_rest_invoice', trusted as never);
          await k.plugins.activate('stamp', CLI);
        } else {
          await k.plugins.deactivate('stamp', CLI);
          k.hooks.addFilter('billing_rest_invoice', trusted as never);
        }
        sandboxed = wantSandboxed;
      };
      const stamped = async () => ((await (await fetch(url, { headers })).json()) as { stamp?: string }).stamp;
      const get = async (wantSandboxed: boolean): Promise<Measure> => {
        await use(wantSandboxed);
        if (!(await stamped())) throw new Error('the filter did not run');
        return measureHttp({ url, headers }, env);
      };
      const http = await alternate(
        () => get(true),
        () => get(false),
        env,
      );
      const out: Comparison[] = [
        { scenario: 'GET /invoices/{id}, billing_rest_invoice sandboxed', ...http, baselineName: 'the same filter trusted' },
      ];

      // one filter call, alone: sandboxed, and with no listener at all
      await use(true);
      const model = await k.api.invoices.get(invoice.id);
      const data = await k.api.representations.invoice(model);
      const time = async (): Promise<number> => {
        for (let i = 0; i < 200; i++) await k.hooks.applyFilters('billing_rest_invoice', data as never, model as never, {} as never);
        const t = performance.now();
        for (let i = 0; i < CALLS; i++) await k.hooks.applyFilters('billing_rest_invoice', data as never, model as never, {} as never);
        return ((performance.now() - t) * 1000) / CALLS;
      };
      const inSandbox = await time();
      await k.plugins.deactivate('stamp', CLI);
      const none = await time();
      const perCall = (us: number): Measure => ({ throughput: 1e6 / us, p50: us / 1000, p99: us / 1000, unit: 'calls/s', errors: 0 });
      out.push({
        scenario: 'one billing_rest_invoice call, sandboxed',
        ours: perCall(inSandbox),
        baseline: perCall(none),
        baselineName: 'applyFilters with no listener',
        note: `${(inSandbox - none).toFixed(1)} µs per sandboxed call (${inSandbox.toFixed(1)} µs in all)`,
      });
      return out;
    } finally {
      await k.stop();
      await database.close();
    }
  },
};
