import type { AuthUser } from '../http/auth.ts';
import type { Html } from '../http/html.ts';

/**
 * What a screen is given to render itself: who is looking and what they may do. A screen that needs
 * services gets them from its declaring unit (`screens: (ctx) => [...]` closes over the unit's context).
 */
export interface ScreenContext {
  user: AuthUser;
  /** The `billing_admin` nonce of this page, for its AJAX calls (also in `<meta name="billing-admin-nonce">`). */
  adminNonce: string;
  /** The `wp_rest` nonce of this page, for its REST calls (also in `<meta name="billing-rest-nonce">`). */
  restNonce: string;
  /** The query string of the request. */
  query: Record<string, unknown>;
  can(capability: string): Promise<boolean>;
  /** Which of these capabilities the user holds, as `can` answers each, in one call. */
  capabilities(list: readonly string[]): Promise<string[]>;
}

/**
 * An admin screen at `/wp-admin/<slug>`, declared as data. The shell (layout, menu, nonces, logout link)
 * is the router's; a screen renders only its own body. Any signed-in user may open the admin area
 * (docs/identity.md); a screen with a capability answers 403 to whoever lacks it and is left out of their menu.
 */
export interface AdminScreen {
  /** `index.php` (the dashboard), `plugins.php`, … */
  slug: string;
  title: string;
  /** Position in the menu, lower first. */
  order: number;
  /** Null: any signed-in user. */
  capability: string | null;
  /** Left out of the menu (a builder opened from its list); the menu marks `parent` as current instead. */
  hidden?: boolean;
  parent?: string;
  /**
   * The options this screen edits, when it is a settings screen declared as data (`optionsScreen`): the
   * Settings actions let whoever holds the screen's capability read and change these, and only these.
   */
  options?: readonly string[];
  render(ctx: ScreenContext): Promise<Html>;
}
