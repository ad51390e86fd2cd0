import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { BillingError } from '../errors.ts';
import { BODY_LIMIT } from '../http/app.ts';
import type { AuthUser } from '../http/auth.ts';
import { NONCE_ADMIN, NONCE_LOGOUT, NONCE_REST } from '../identity/nonces.ts';
import type { Config } from '../config.ts';
import type { Identity } from '../identity/identity.ts';
import type { OptionsStore } from '../options/options.ts';
import { ADMIN_SCRIPT } from './admin-script.ts';
import { html } from '../http/html.ts';
import { textProblem } from '../validation/text.ts';
import { ADMIN_SCRIPT_PATH, loginPage, messagePage, shell } from './layout.ts';
import type { AdminScreens } from './screens.ts';
import { assetBytes, assetExists, type AdminManifest } from './build.ts';

const SCREEN_SLUG = /^[a-z0-9-]+\.php$/;

/**
 * The admin pages: `/wp-login.php` (form sign-in and logout) and `/wp-admin/…` (the shell and its
 * screens). Cookie sessions only. Pages are never cached, may not be framed, and run no inline script.
 */
export interface AdminRouterDeps {
  identity: Identity;
  options: OptionsStore;
  config: Config;
  screens: AdminScreens;
  /** The browser app's bundle (file names carry their content hash); null before it is built. */
  assets?: () => AdminManifest | null;
}

export function adminRouter({ identity, options, config, screens, assets }: AdminRouterDeps): Router {
  const router = express.Router({ strict: true });
  const siteName = () => options.get('company_name');

  router.use(['/wp-login.php', '/wp-admin'], (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store, no-cache, must-revalidate');
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'; form-action 'self'; base-uri 'none'",
    );
    next();
  });

  // the screens first: the route every page of the admin area takes, so it is matched before the others
  router.get('/wp-admin', (_req, res) => res.redirect(301, '/wp-admin/'));
  router.get(['/wp-admin/', '/wp-admin/:slug'], async (req, res) => {
    const slug = typeof req.params.slug === 'string' ? req.params.slug : 'index.php';
    const user = await identity.sessionUser(req);
    if (!user) return res.redirect(302, `/wp-login.php?redirect_to=${encodeURIComponent(req.originalUrl)}&reauth=1`);
    const screen = SCREEN_SLUG.test(slug) ? screens.get(slug) : undefined;
    if (!screen)
      return sendHtml(
        res,
        404,
        messagePage('Not Found', html`<p>There is no such page. <a href="/wp-admin/">Back to the dashboard</a>.</p>`),
      );
    if (screen.capability && !(await identity.userCan(user, screen.capability))) {
      return sendHtml(
        res,
        403,
        messagePage(
          'Forbidden',
          html`<p>Sorry, you are not allowed to access this page. <a href="/wp-admin/">Back to the dashboard</a>.</p>`,
        ),
      );
    }
    const can = (cap: string) => identity.userCan(user, cap);
    const capabilities = (list: readonly string[]) => identity.capabilitiesAmong(user, list);
    const adminNonce = identity.createNonce(NONCE_ADMIN, user);
    const restNonce = identity.createNonce(NONCE_REST, user);
    // the screen and the shell's own lookups at once: each is a round trip to the database at most (the
    // session's look-up brought the user's display name)
    const [body, profile, site] = await Promise.all([
      screen.render({ user, adminNonce, restNonce, query: req.query as Record<string, unknown>, can, capabilities }),
      user.displayName === undefined ? identity.users.byId(user.id) : { display_name: user.displayName },
      siteName(),
    ]);
    const listed = screens.ordered().filter((s) => !s.hidden);
    const held = new Set(await capabilities(listed.flatMap((s) => (s.capability ? [s.capability] : []))));
    const menu = listed
      .filter((s) => !s.capability || held.has(s.capability))
      .map((s) => ({
        href: s.slug === 'index.php' ? '/wp-admin/' : `/wp-admin/${s.slug}`,
        title: s.title,
        current: s.slug === screen.slug || s.slug === screen.parent,
      }));
    sendHtml(
      res,
      200,
      shell({
        title: screen.title,
        siteName: site,
        userName: profile?.display_name ?? user.login,
        adminNonce,
        restNonce,
        restRoot: `${config.baseUrl}/wp-json/`,
        logoutUrl: logoutUrl(identity, user),
        menu,
        body,
        assets: assets?.() ?? null,
      }),
    );
  });

  router.get('/wp-login.php', async (req, res) => {
    if (req.query.action === 'logout') return logout(req, res);
    sendHtml(
      res,
      200,
      loginPage({
        siteName: await siteName(),
        login: '',
        error: false,
        message: req.query.loggedout === 'true' ? 'You are now logged out.' : null,
        redirectTo: safeRedirect(req.query.redirect_to),
      }),
    );
  });

  router.post('/wp-login.php', express.urlencoded({ limit: BODY_LIMIT, extended: false }), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const log = typeof body.log === 'string' ? body.log.trim() : '';
    const pwd = typeof body.pwd === 'string' ? body.pwd : '';
    const redirectTo = safeRedirect(body.redirect_to);
    if (textProblem(body, 'form')) {
      // text no user name or password can hold: the same answer as any failed sign-in, nothing looked up
      return sendHtml(res, 400, loginPage({ siteName: await siteName(), login: '', error: true, message: null, redirectTo }));
    }
    let signedIn: Awaited<ReturnType<Identity['signIn']>> = null;
    try {
      signedIn =
        log && pwd
          ? await identity.signIn(log, pwd, {
              remember: Boolean(body.rememberme),
              ip: req.ip ?? null,
              userAgent: req.get('user-agent') ?? null,
              previousToken: identity.sessionToken(req),
            })
          : null;
    } catch (err) {
      if (!(err instanceof BillingError) || err.code !== 'billing_too_many_attempts') throw err;
      // throttled: the form again, saying why and for how long
      res.setHeader('Retry-After', String(err.data.retry_after));
      return sendHtml(res, 429, loginPage({ siteName: await siteName(), login: log, error: err.message, message: null, redirectTo }));
    }
    if (!signedIn) {
      // the same answer whether the user exists or not
      return sendHtml(res, 200, loginPage({ siteName: await siteName(), login: log, error: true, message: null, redirectTo }));
    }
    res.setHeader('Set-Cookie', identity.sessionCookie(signedIn.session));
    res.redirect(302, redirectTo);
  });

  router.get(ADMIN_SCRIPT_PATH, (_req, res) => {
    res.status(200).type('text/javascript; charset=UTF-8').end(ADMIN_SCRIPT);
  });

  // content-hashed names: a file never changes under its name, so browsers keep it for a year
  router.get('/wp-admin/assets/:file', (req, res) => {
    const file = req.params.file;
    if (!assetExists(file)) return res.status(404).type('text/plain').end('Not Found');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res
      .status(200)
      .type(file.endsWith('.js') ? 'text/javascript; charset=UTF-8' : 'text/css; charset=UTF-8')
      .end(assetBytes(file));
  });

  router.use(['/wp-login.php', '/wp-admin'], ((err, _req, res, next) => {
    if (res.headersSent || !(err?.status >= 400 && err?.status < 500)) return next(err);
    sendHtml(res, err.status, messagePage('Bad Request', html`<p>The request could not be read.</p>`));
  }) as ErrorRequestHandler);

  /** GET /wp-login.php?action=logout&_wpnonce=… (nonce action `log-out`; docs/identity.md). */
  async function logout(req: Request, res: Response): Promise<void> {
    const user = await identity.sessionUser(req);
    if (!user) {
      res.setHeader('Set-Cookie', identity.clearedSessionCookie());
      return res.redirect(302, '/wp-login.php?loggedout=true');
    }
    const nonce = typeof req.query._wpnonce === 'string' ? req.query._wpnonce : undefined;
    if (!identity.checkNonce(nonce, NONCE_LOGOUT, user)) {
      // as WordPress: a stale or missing nonce asks first instead of signing out on a forged link
      return sendHtml(
        res,
        403,
        messagePage('Log out?', html`<p>Do you really want to <a href="${logoutUrl(identity, user)}">log out</a>?</p>`),
      );
    }
    await identity.signOut(identity.sessionToken(req), req.ip ?? null);
    res.setHeader('Set-Cookie', identity.clearedSessionCookie());
    res.redirect(302, '/wp-login.php?loggedout=true');
  }

  return router;
}

export function logoutUrl(identity: Identity, user: AuthUser): string {
  return `/wp-login.php?action=logout&_wpnonce=${identity.createNonce(NONCE_LOGOUT, user)}`;
}

/** Only paths inside the admin area: anything else (another host, `//host`) goes to the dashboard. */
function safeRedirect(value: unknown): string {
  if (typeof value === 'string' && /^\/wp-admin\/[^\\]*$/.test(value) && !value.startsWith('//')) return value;
  return '/wp-admin/';
}

function sendHtml(res: Response, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=UTF-8');
  res.end(body);
}
