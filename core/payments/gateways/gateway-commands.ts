import { table, type Command } from '../../cli/command.ts';
import { BillingError } from '../../errors.ts';
import type { GatewayRuntime } from './gateway-runtime.ts';

/** `billing gateway …`: the active gateways, and replaying a stored delivery (docs/gateways.md). */
export function gatewayCommands(gateways: GatewayRuntime): Command[] {
  return [
    {
      words: ['gateway', 'list'],
      usage: 'billing gateway list',
      run: async () => {
        const ready = new Set((await gateways.available()).map((g) => g.method));
        return gateways.providers.entriesWithOwner().map(({ item: p, owner }) => ({
          method: p.method,
          title: p.title,
          plugin: owner,
          configured: ready.has(p.method),
          webhook: `billing_${p.method}_webhook`,
        }));
      },
      text: (rows) => table(rows, ['method', 'title', 'plugin', 'configured', 'webhook']),
    },
    {
      words: ['gateway', 'replay'],
      usage: 'billing gateway replay <delivery id>',
      arity: 1,
      run: async ({ args }) => {
        const id = Number(args[0]);
        if (!Number.isSafeInteger(id) || id < 1) throw new BillingError('billing_invalid_argument', `not a delivery id: ${args[0]}`);
        return gateways.replay(id);
      },
      text: (r) => `Delivery ${r.id} applied again (${r.status}): ${JSON.stringify(r.outcomes)}`,
    },
  ];
}
