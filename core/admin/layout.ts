import { html, raw, type Html } from '../http/html.ts';

export const ADMIN_SCRIPT_PATH = '/wp-admin/js/billing-admin.js';

const STYLE = raw(`<style>
body{font:14px/1.5 system-ui,sans-serif;margin:0;color:#1d2327;background:#f0f0f1}
header{display:flex;justify-content:space-between;align-items:center;background:#1d2327;color:#f0f0f1;padding:.4em 1em}
header a{color:#72aee6}
.layout{display:flex;min-height:calc(100vh - 2.6em)}
nav{background:#2c3338;min-width:12em}
nav ul{list-style:none;margin:0;padding:.5em 0}
nav a{display:block;color:#f0f0f1;padding:.4em 1em;text-decoration:none}
nav a[aria-current]{background:#2271b1}
main{flex:1;padding:1em 2em}
table{border-collapse:collapse;background:#fff;width:100%}
th,td{text-align:left;padding:.5em;border-bottom:1px solid #dcdcde}
.notice{background:#fff;border-left:4px solid #d63638;padding:.5em 1em}
.notice-ok{border-left-color:#00a32a}
.login{max-width:20em;margin:4em auto;background:#fff;padding:1.5em 2em}
.login label{display:block;margin-top:.8em}
.login input[type=text],.login input[type=password]{width:100%;box-sizing:border-box;padding:.4em}
</style>`);

export interface ShellPage {
  title: string;
  siteName: string;
  userName: string;
  adminNonce: string;
  restNonce: string;
  restRoot: string;
  logoutUrl: string;
  menu: Array<{ href: string; title: string; current: boolean }>;
  body: Html;
  /** The app's script and stylesheet (under /wp-admin/assets/), when built. */
  assets?: { js: string; css: string } | null;
}

/**
 * The admin shell every screen is rendered in. It embeds the two nonces for whoever is signed in
 * (docs/identity.md) where scripts find them, and links to the logout URL on every screen.
 */
export function shell(p: ShellPage): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<meta name="billing-admin-nonce" content="${p.adminNonce}">
<meta name="billing-rest-nonce" content="${p.restNonce}">
<meta name="billing-rest-root" content="${p.restRoot}">
<meta name="billing-ajax-url" content="/wp-admin/admin-ajax.php">
<title>${p.title} ‹ ${p.siteName}</title>
${STYLE}
<script src="${ADMIN_SCRIPT_PATH}" defer></script>
${
  p.assets
    ? html`<link rel="stylesheet" href="/wp-admin/assets/${p.assets.css}">
<script type="module" src="/wp-admin/assets/${p.assets.js}"></script>`
    : ''
}
</head>
<body>
<a class="skip-link" href="#billing-main">Skip to content</a>
<header><strong>${p.siteName}</strong><span>Howdy, ${p.userName} · <a id="billing-logout" href="${p.logoutUrl}">Log Out</a></span></header>
<div class="layout">
<nav aria-label="Main menu" id="billing-menu"><ul>
${p.menu.map((m) => html`<li><a href="${m.href}"${m.current ? raw(' aria-current="page"') : ''}>${m.title}</a></li>\n`)}</ul></nav>
<main id="billing-main" tabindex="-1">
<h1>${p.title}</h1>
<p id="billing-notice" role="alert" hidden></p>
${p.body}
</main>
</div>
</body>
</html>
`.value;
}

export interface LoginPage {
  siteName: string;
  /** The login name typed before, shown again. */
  login: string;
  /** true: the one generic failure; a text: that text instead (a throttled sign-in). */
  error: boolean | string;
  message: string | null;
  redirectTo: string;
}

/** WordPress's login form: fields `log`, `pwd`, `rememberme`, posted to /wp-login.php. */
export function loginPage(p: LoginPage): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Log In ‹ ${p.siteName}</title>
${STYLE}
</head>
<body>
<div class="login">
<h1>${p.siteName}</h1>
${p.error ? html`<div id="login_error" class="notice" role="alert"><strong>Error:</strong> ${typeof p.error === 'string' ? p.error : 'The username or password you entered is incorrect.'}</div>` : ''}
${p.message ? html`<p class="notice notice-ok">${p.message}</p>` : ''}
<form name="loginform" id="loginform" action="/wp-login.php" method="post">
<label for="user_login">Username or Email Address</label>
<input type="text" name="log" id="user_login" value="${p.login}" autocomplete="username" required>
<label for="user_pass">Password</label>
<input type="password" name="pwd" id="user_pass" value="" autocomplete="current-password" required>
<label><input name="rememberme" type="checkbox" id="rememberme" value="forever"> Remember Me</label>
<input type="hidden" name="redirect_to" value="${p.redirectTo}">
<p><button type="submit" name="wp-submit" id="wp-submit">Log In</button></p>
</form>
</div>
</body>
</html>
`.value;
}

/** A bare page for messages outside the shell (logout confirmation, 403 for a screen). */
export function messagePage(title: string, body: Html): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>${STYLE}</head>
<body><div class="login"><h1>${title}</h1>${body}</div></body>
</html>
`.value;
}
