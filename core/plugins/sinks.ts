import type { Kernel } from '../kernel.ts';
import type { ContributionSink } from './plugin-manager.ts';

/**
 * How each part of a plugin's declaration reaches the part of the core that serves it. Every sink
 * registers under the plugin's name, so unloading is `removeOwner(name)` everywhere.
 */
export function pluginSinks(k: Kernel): ContributionSink[] {
  return [
    {
      load(def, ctx) {
        for (const l of def.listeners ?? []) {
          const fn = l.make(ctx);
          if (l.kind === 'action') k.hooks.addAction(l.hook as any, fn, l.priority, def.name);
          else k.hooks.addFilter(l.hook as any, fn as any, l.priority, def.name);
        }
      },
      unload: (name) => k.hooks.removeOwner(name),
    },
    {
      load(def, ctx) {
        for (const r of def.rest ?? []) k.rest.add(def.name, { ...r, handler: (req) => r.handler(req, ctx) });
      },
      unload: (name) => k.rest.removeOwner(name),
    },
    {
      load(def, ctx) {
        for (const a of def.ajax ?? []) k.ajax.add(def.name, { ...a, handler: (req) => a.handler(req, ctx) });
        for (const w of def.webhooks ?? []) k.ajax.addWebhook(def.name, { ...w, handler: (req) => w.handler(req, ctx) });
      },
      unload: (name) => k.ajax.removeOwner(name),
    },
    {
      load(def, ctx) {
        for (const j of def.jobs ?? []) k.jobs.add(def.name, { ...j, run: (run) => j.run(run, ctx) });
      },
      unload: (name) => k.jobs.removeOwner(name),
    },
  ];
}
