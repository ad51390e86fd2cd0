// Every bundled plugin's tables carry its name (`team-roles` → `team_roles_…`): what the plugin author's
// guide promises (docs/plugins.md, the read model), checked on what activation really creates.
import { describe, expect, it } from '@jest/globals';
import { BUNDLED_PLUGINS, useService } from '../../testing/index.ts';
import { pluginFolders } from '../helpers/kernel.ts';

const svc = useService();

const tables = async () =>
  new Set(
    (
      await svc.kernel.db.query<{ name: string }>(
        `select table_name as name from information_schema.tables where table_schema = current_schema()`,
      )
    ).map((r) => r.name),
  );

describe("a bundled plugin's tables", () => {
  it('start with its name, for every bundled plugin', async () => {
    const created: Record<string, string[]> = {};
    for (const name of pluginFolders(BUNDLED_PLUGINS).sort()) {
      const before = await tables();
      await svc.activate(name);
      created[name] = [...(await tables())].filter((t) => !before.has(t)).sort();
    }
    const misnamed = Object.entries(created).flatMap(([name, list]) => {
      const prefix = name.replaceAll('-', '_');
      return list.filter((t) => t !== prefix && !t.startsWith(`${prefix}_`)).map((t) => `${name}: ${t}`);
    });
    expect(misnamed).toEqual([]);
    // the plugins that keep data made tables at all (the check above is not vacuous)
    expect(created['recurring']).toEqual(['recurring_autopay_attempts', 'recurring_periods', 'recurring_profiles']);
    expect(created['webhooks']).toEqual(['webhooks_attempts', 'webhooks_events', 'webhooks_subscriptions']);
  });
});
