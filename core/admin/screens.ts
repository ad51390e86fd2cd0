import { OwnedRegistry } from '../owned-registry.ts';
import type { ContributionSink } from '../plugins/contributions.ts';
import type { AdminScreen } from './types.ts';

export type { AdminScreen, ScreenContext } from './types.ts';

/** The screens of the loaded modules and plugins; a deactivated plugin's screens leave the menu on every instance. */
export class AdminScreens {
  private readonly screens = new OwnedRegistry<AdminScreen>('admin screen');

  /** Takes the `screens` units declare. */
  sink(): ContributionSink {
    return {
      name: 'screens',
      load: (r) => {
        for (const screen of r.screens) this.add(r.owner, screen);
      },
      unload: (owner) => this.removeOwner(owner),
    };
  }

  /** The screens in menu order, sorted once per change of the set (a plugin loaded or unloaded here). */
  private sorted: AdminScreen[] | null = null;

  add(owner: string, screen: AdminScreen): void {
    this.screens.add(owner, screen.slug, screen);
    this.sorted = null;
  }

  get(slug: string): AdminScreen | undefined {
    return this.screens.get(slug);
  }

  removeOwner(owner: string): void {
    this.screens.removeOwner(owner);
    this.sorted = null;
  }

  ordered(): readonly AdminScreen[] {
    this.sorted ??= this.screens.values().sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
    return this.sorted;
  }
}
