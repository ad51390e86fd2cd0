import type { Actor } from '../../audit/audit.ts';
import type { AuthUser, ObjectRef, UnscopedParams } from '../auth.ts';

export interface AjaxRequest {
  action: string;
  /** Query and form (or JSON) fields together, as text the way PHP's `$_REQUEST` has them. */
  params: Record<string, any>;
  user: AuthUser | null;
  actor: Actor;
  ip: string;
  /** The caller's User-Agent header ('' when none): kept with what a visitor signs. */
  userAgent?: string;
}

/**
 * An admin-ajax action, declared as data. Signed-in actions need the `billing_admin` nonce and their
 * capability; `nopriv` actions also answer visitors (their handler does its own token check).
 */
export interface AjaxAction {
  action: string;
  /** Older names that keep working (docs/ajax.md). */
  aliases?: string[];
  /**
   * Capability for signed-in callers. `{create, edit}`: a save that creates when its `id` field is absent
   * or empty and changes that document otherwise (the builders' save actions).
   */
  capability: string | { create: string; edit: string } | null;
  /** The objects the action names, each checked with the capability when present (see ObjectRef). */
  object?: ObjectRef | readonly ObjectRef[];
  /** Object-like fields that name nothing a scope governs, with why (see UnscopedParams). */
  unscoped?: UnscopedParams;
  /**
   * The legacy table's capability (`manage_options`, `edit_posts`), an alternative grant when the action
   * is called by a legacy name: one of its aliases, or its own name when it has no alias (the action
   * kept the name it had before the REST API).
   */
  legacyCapability?: string;
  nopriv?: boolean;
  /**
   * Signed-in actions check `_wpnonce` for `billing_admin` unless this is false (WordPress's
   * `rest-nonce`, which hands out a nonce and so cannot ask for one).
   */
  nonce?: boolean;
  /**
   * What the request carries, for docs/ajax.md. A field named `id` or `*_id` names an object: it must be
   * in `object` or `unscoped`, or the action is refused when it is registered.
   */
  fields?: Record<string, string>;
  /** Data for `{success: true, data}`, or an AjaxText to answer plain text (as admin-ajax's `exit(...)`). */
  handler(req: AjaxRequest): Promise<unknown>;
}

/** A plain-text answer from an AJAX action (WordPress actions that `exit()` a value, like `rest-nonce`). */
export class AjaxText {
  readonly text: string;
  readonly status: number;

  constructor(text: string, status = 200) {
    this.text = text;
    this.status = status;
  }
}

export interface WebhookRequest {
  action: string;
  /** The bytes as they arrived: signatures are checked over these, never over re-serialised JSON. */
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  ip: string;
}

export interface WebhookAnswer {
  status: number;
  body?: unknown;
}

/** A gateway webhook: a public admin-ajax action that gets the raw body and answers its own status. */
export interface WebhookAction {
  action: string;
  aliases?: string[];
  handler(req: WebhookRequest): Promise<WebhookAnswer>;
}
