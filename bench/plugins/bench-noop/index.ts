// The bench's trivial plugin: a public admin-ajax action that passes through one filter of its own.
import { definePlugin, filter } from '../../../core/plugins/define-plugin.ts';

declare module '../../../core/hooks/hook-map.ts' {
  interface FilterMap { bench_noop_payload: [payload: Record<string, unknown>] }
}

export default definePlugin({
  name: 'bench-noop',
  version: '1.0.0',
  hooks: { filters: ['bench_noop_payload'] },
  listeners: [filter('bench_noop_payload', () => (p) => ({ ...p, filtered: true }))],
  ajax: [{
    action: 'bench_noop',
    capability: null,
    nopriv: true,
    handler: async (_req, ctx) => ctx.hooks.applyFilters('bench_noop_payload', { ok: true }),
  }],
});
