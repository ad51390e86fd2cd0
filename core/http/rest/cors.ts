import type { Request, Response } from 'express';
import type { SettingsDeclaration } from '../../options/option-map.ts';

declare module '../../options/option-map.ts' {
  interface OptionMap {
    rest_allowed_origins: string[];
  }
}

/** Declared by the kernel with the core's settings. */
export const CORS_SETTINGS = {
  rest_allowed_origins: {
    type: 'array',
    items: { type: 'string', pattern: '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$', maxLength: 300 },
    maxItems: 100,
    uniqueItems: true,
    default: [],
    description:
      "Origins (scheme://host[:port]) whose pages may call the REST API with the user's cookies; the site's own origin always may",
  },
} as const satisfies SettingsDeclaration;

/**
 * CORS on `/wp-json` (docs/security.md, CORS). WordPress answers every origin with credentials; here
 * only the site's own origin and `rest_allowed_origins` get `Access-Control-Allow-Credentials`, so
 * another site's page cannot act with a signed-in user's cookie. Other origins may still read what they
 * could read anyway (public routes, or with an application password they send themselves). The `null`
 * origin (sandboxed frames, files) gets nothing: anyone can produce it.
 */
export function corsHeaders(res: Response, origin: string, ownOrigin: string, allowed: readonly string[]): void {
  res.setHeader('Vary', 'Origin');
  if (origin === 'null') return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
  const normalized = origin.toLowerCase();
  if (normalized === ownOrigin.toLowerCase() || allowed.some((o) => o.toLowerCase() === normalized)) {
    res.setHeader('Access-Control-Allow-Credentials', 'true');
  }
}

/**
 * Whether a 401 should carry `WWW-Authenticate: Basic`: for a client that sent Basic credentials, and
 * for API clients, but not for a browser's own requests (a page's fetch, a typed address), where it
 * only opens the browser's password prompt over the page.
 */
export function wantsBasicChallenge(req: Request): boolean {
  if (/^basic\b/i.test(req.get('authorization') ?? '')) return true;
  const browser =
    req.get('origin') !== undefined ||
    // browsers send Sec-Fetch-Site/-Dest on every request (Node's fetch sends only Sec-Fetch-Mode)
    req.get('sec-fetch-site') !== undefined ||
    req.get('sec-fetch-dest') !== undefined ||
    req.get('x-wp-nonce') !== undefined ||
    req.get('x-requested-with') !== undefined ||
    req.get('cookie') !== undefined;
  return !browser;
}
