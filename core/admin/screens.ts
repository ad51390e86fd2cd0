import type { AuthUser } from '../http/auth.ts';
import type { Kernel } from '../kernel.ts';
import type { Html } from '../http/html.ts';
import { OwnedRegistry } from '../owned-registry.ts';

/** What a screen is given to render itself. */
export interface ScreenContext {
  kernel: Kernel;
  user: AuthUser;
  /** The `billing_admin` nonce of this page, for its AJAX calls (also in `<meta name="billing-admin-nonce">`). */
  adminNonce: string;
  /** The query string of the request. */
  query: Record<string, unknown>;
  can(capability: string): Promise<boolean>;
}

/**
 * An admin screen at `/wp-admin/<slug>`, declared as data. The shell (layout, menu, nonces, logout link)
 * is the router's; a screen renders only its own body. Any signed-in user may open the admin area
 * (contract §3); a screen with a capability answers 403 to whoever lacks it and is left out of their menu.
 */
export interface AdminScreen {
  /** `index.php` (the dashboard), `plugins.php`, … */
  slug: string;
  title: string;
  /** Position in the menu, lower first. */
  order: number;
  /** Null: any signed-in user. */
  capability: string | null;
  render(ctx: ScreenContext): Promise<Html>;
}

export class AdminScreens {
  readonly screens = new OwnedRegistry<AdminScreen>('admin screen');

  add(owner: string, screen: AdminScreen): void {
    this.screens.add(owner, screen.slug, screen);
  }

  get(slug: string): AdminScreen | undefined {
    return this.screens.get(slug);
  }

  removeOwner(owner: string): void {
    this.screens.removeOwner(owner);
  }

  ordered(): AdminScreen[] {
    return this.screens.values().sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));
  }
}
