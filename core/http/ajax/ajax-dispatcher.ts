import type { Request, Response } from 'express';
import { BillingError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import { OwnedRegistry } from '../../owned-registry.ts';
import { NOBODY, type Authenticator } from '../auth.ts';
import { ajaxErrorBody } from '../error-bodies.ts';
import type { ObjectScope } from '../../scope/object-scope.ts';
import { objectRefs, undeclaredError, undeclaredObjectParams } from '../../scope/object-params.ts';
import { describeTextProblem, MAX_KEYS, textProblem } from '../../validation/text.ts';
import { AjaxText, type AjaxAction, type AjaxRequest, type WebhookAction } from './ajax-action.ts';

/** What an action name dispatches to; `legacy` marks an old alias (docs/ajax.md). */
export type AjaxEntry = { kind: 'ajax'; def: AjaxAction; legacy: boolean } | { kind: 'webhook'; def: WebhookAction };
type Entry = AjaxEntry;

/**
 * WordPress's admin-ajax.php: one URL, dispatched on `action`. Body `0`/400 for a missing or unknown
 * action (or a signed-in action called by a visitor), `-1`/403 for a bad nonce, `{success, data}` for
 * the rest. Webhook actions skip cookies and nonces and get the raw body.
 */
export class AjaxDispatcher {
  readonly actions = new OwnedRegistry<Entry>('AJAX action');
  /** Who is calling: the identity module's, once the kernel has built it. */
  auth: Authenticator = NOBODY;
  private readonly log: Logger;
  /** The scoped resolver every object an action names goes through. */
  private readonly scope: ObjectScope;

  constructor(log: Logger, scope: ObjectScope) {
    this.log = log;
    this.scope = scope;
  }

  /** Registers an action; refused, as a REST route is, when a field names an object it does not declare. */
  add(owner: string, def: AjaxAction): void {
    const name = `AJAX action ${def.action}`;
    const undeclared = undeclaredObjectParams({
      named: [],
      other: Object.keys(def.fields ?? {}),
      object: def.object,
      unscoped: def.unscoped,
    });
    if (undeclared.length) throw undeclaredError(owner, name, undeclared);
    this.scope.checkRefs(owner, name, def.object);
    this.actions.add(owner, def.action, { kind: 'ajax', def, legacy: false });
    for (const alias of def.aliases ?? []) this.actions.add(owner, alias, { kind: 'ajax', def, legacy: true });
  }

  addWebhook(owner: string, def: WebhookAction): void {
    for (const name of [def.action, ...(def.aliases ?? [])]) this.actions.add(owner, name, { kind: 'webhook', def });
  }

  removeOwner(owner: string): void {
    this.actions.removeOwner(owner);
  }

  handle = async (req: Request, res: Response): Promise<void> => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store, no-cache, must-revalidate');
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const queryAction = typeof req.query.action === 'string' ? req.query.action : undefined;
    const early = queryAction ? this.actions.get(queryAction) : undefined;
    if (early?.kind === 'webhook') return this.webhook(early.def, queryAction!, raw, req, res);

    // a large body is read only for a caller who may send one: a signed-in user, or a public action
    // (eight visitors sending a megabyte of 90,000 keys each must not keep the event loop parsing)
    if (raw.length > UNREAD_BODY_LIMIT) {
      const named = queryAction ?? peekFormAction(raw, req.get('content-type'));
      const entry = named === undefined ? undefined : this.actions.get(named);
      const isPublic = entry?.kind === 'ajax' && entry.def.nopriv === true;
      if (!isPublic && !(await this.auth.ajaxUser(req, undefined)).user) return sendText(res, 400, '0');
    }
    const tooMany = formFieldCount(raw, req.get('content-type')) > MAX_KEYS;
    if (tooMany)
      return sendJson(res, ajaxErrorBody(new BillingError('billing_bad_request', `The request has more than ${MAX_KEYS} fields.`)));

    let fields: Record<string, any>;
    try {
      fields = { ...(req.query as Record<string, unknown>), ...parseBody(raw, req.get('content-type')) };
    } catch {
      return sendJson(res, ajaxErrorBody(new BillingError('billing_bad_request', 'The request body could not be read.')));
    }
    const problem = textProblem(fields, 'request');
    if (problem) return sendJson(res, ajaxErrorBody(new BillingError('billing_bad_request', describeTextProblem(problem))));
    const action = typeof fields.action === 'string' ? fields.action : '';
    const entry = this.actions.get(action);
    if (!entry || entry.kind !== 'ajax') return sendText(res, 400, '0');

    const { user, nonceValid } = await this.auth.ajaxUser(req, typeof fields._wpnonce === 'string' ? fields._wpnonce : undefined);
    const def = entry.def;
    const areq: AjaxRequest = {
      action: def.action,
      params: fields,
      user,
      actor: user ? { id: user.id, name: user.login, ip: req.ip ?? null } : { id: null, name: 'visitor', ip: req.ip ?? null },
      ip: req.ip ?? '',
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 500),
    };
    try {
      if (!user) {
        if (!def.nopriv) return sendText(res, 400, '0');
      } else if (!def.nopriv) {
        if (def.nonce !== false && !nonceValid) return sendText(res, 403, '-1');
        const cap = capabilityFor(def, areq);
        const granted = cap === null ? null : await this.granting(def, cap, entry.legacy, areq);
        if (cap !== null && granted === null) throw new BillingError('billing_forbidden', 'Sorry, you are not allowed to do that.');
        // granted by the legacy table: the objects are checked against that grant, not the action's own
        const objects = granted !== cap ? objectRefs(def.object).map((o) => ({ ...o, capability: granted! })) : def.object;
        if (granted !== null) await this.scope.check(this.auth, user, granted, objects, fields);
      }
      const data = await def.handler(areq);
      if (data instanceof AjaxText) return sendText(res, data.status, data.text);
      sendJson(res, { status: 200, body: { success: true, data: data ?? null }, headers: {} });
    } catch (err) {
      if (!(err instanceof BillingError)) this.log.error({ err, action }, 'AJAX action failed');
      sendJson(res, ajaxErrorBody(err));
    }
  };

  /** The capability that lets the user call the action: its own, or the legacy table's under a legacy name; null if none. */
  private async granting(def: AjaxAction, cap: string, legacy: boolean, req: AjaxRequest): Promise<string | null> {
    if (await this.auth.can(req.user!, cap)) return cap;
    // a legacy name: an alias, or the action's own name when it kept the one it had before REST
    const legacyName = legacy || !def.aliases?.length;
    if (legacyName && def.legacyCapability !== undefined && (await this.auth.can(req.user!, def.legacyCapability)))
      return def.legacyCapability;
    return null;
  }

  private async webhook(def: WebhookAction, action: string, raw: Buffer, req: Request, res: Response): Promise<void> {
    try {
      const answer = await def.handler({
        action,
        raw,
        headers: req.headers,
        query: req.query as Record<string, unknown>,
        ip: req.ip ?? '',
      });
      sendJson(res, { status: answer.status, body: answer.body ?? { success: answer.status < 400 }, headers: {} });
    } catch (err) {
      if (!(err instanceof BillingError)) this.log.error({ err, action }, 'webhook failed');
      sendJson(res, ajaxErrorBody(err));
    }
  }
}

/** The capability an action asks of this request: a builder's save creates without an `id`, edits with one. */
function capabilityFor(def: AjaxAction, req: AjaxRequest): string | null {
  const c = def.capability;
  if (c === null || typeof c === 'string') return c;
  const id = req.params.id;
  return id === undefined || id === null || id === '' ? c.create : c.edit;
}

/** Bodies up to this size are parsed before the caller is known (every action's fields fit in it). */
export const UNREAD_BODY_LIMIT = 64 * 1024;

/** The `action` field of a form body, found without parsing the rest of it. */
function peekFormAction(raw: Buffer, contentType: string | undefined): string | undefined {
  if (contentType?.includes('application/json')) return undefined;
  const m = /(?:^|&)action=([^&]*)/.exec(raw.toString('latin1'));
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** How many fields a form body has, counted before it is parsed (JSON bodies are checked once parsed). */
function formFieldCount(raw: Buffer, contentType: string | undefined): number {
  if (!raw.length || contentType?.includes('application/json')) return 0;
  let n = 1;
  for (let i = raw.indexOf(38); i !== -1; i = raw.indexOf(38, i + 1)) n++;
  return n;
}

function parseBody(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (!raw.length) return {};
  const text = raw.toString('utf8');
  if (contentType?.includes('application/json')) {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function sendText(res: Response, status: number, text: string): void {
  res.status(status).type('text/html; charset=UTF-8').end(text);
}

function sendJson(res: Response, a: { status: number; body: unknown; headers: Record<string, string> }): void {
  for (const [k, v] of Object.entries(a.headers)) res.setHeader(k, v);
  res.status(a.status).type('application/json; charset=UTF-8').end(JSON.stringify(a.body));
}
