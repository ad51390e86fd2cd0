// The bench's trivial plugin: a public admin-ajax action that passes through one filter of its own.
import { definePlugin, filter } from '../../../core/plugins/define-plugin.ts';

declare module 'billing-service' {
  interface FilterMap {
    bench_noop_payload: [payload: Record<string, unknown>];
  }
}

export default definePlugin({
  name: 'bench-noop',
  version: '1.0.0',
  hooks: { filters: ['bench_noop_payload'] },
  listeners: [filter('bench_noop_payload', () => (p) => ({ ...p, filtered: true }))],
  // public (capability null), so the same route can be measured with and without credentials
  rest: [
    {
      namespace: 'bench/v1',
      path: '/noop',
      methods: 'GET',
      capability: null,
      handler: async (req, ctx) => ctx.hooks.applyFilters('bench_noop_payload', { ok: true, user: req.user.id }),
    },
    {
      // the same, plus one indexed single-row query: what one database round trip costs here
      namespace: 'bench/v1',
      path: '/one-query',
      methods: 'GET',
      capability: null,
      handler: async (req, ctx) => {
        await ctx.db.query('select id from billing_users where id = $1', [req.user.id]);
        return ctx.hooks.applyFilters('bench_noop_payload', { ok: true, user: req.user.id });
      },
    },
  ],
  ajax: [
    {
      action: 'bench_noop',
      capability: null,
      nopriv: true,
      handler: async (_req, ctx) => ctx.hooks.applyFilters('bench_noop_payload', { ok: true }),
    },
  ],
});
