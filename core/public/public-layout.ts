import { html, raw, type Html } from '../http/html.ts';

/** The path of the public pages' one script (the quote page's Accept / Decline, sent without a reload). */
export const PUBLIC_SCRIPT_PATH = '/billing/assets/public.js';

/**
 * Every public page sends these: never cached, never leaking the keyed URL as a referrer, and a policy
 * that allows only this service's own script, styles inline, and forms posting back here.
 */
export const PUBLIC_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; img-src 'self' data: https:; base-uri 'none'; frame-ancestors 'none'",
};

const STYLE = raw(`<style>
body{font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f4f5f7;color:#1f2328}
.page{max-width:52em;margin:2em auto;background:#fff;padding:2.5em 3em;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
header{display:flex;justify-content:space-between;gap:2em;align-items:flex-start;border-bottom:1px solid #e5e7eb;padding-bottom:1em}
h1{margin:0;font-size:1.6em}
.logo{max-height:3.5em;max-width:12em;display:block;margin-bottom:.6em}
.muted{color:#656d76}
.status{display:inline-block;padding:.15em .6em;border-radius:1em;background:#eef1f5;font-size:.85em;text-transform:uppercase;letter-spacing:.04em}
.status-paid,.status-accepted{background:#dafbe1;color:#116329}
.status-overdue,.status-declined,.status-cancelled,.status-expired{background:#ffebe9;color:#a40e26}
.parties{display:flex;justify-content:space-between;gap:2em;margin:1.5em 0}
.parties div{white-space:pre-line}
table{width:100%;border-collapse:collapse;margin:1em 0}
th,td{padding:.55em .4em;border-bottom:1px solid #eaecef;text-align:left;vertical-align:top}
th.num,td.num{text-align:right;white-space:nowrap}
.totals{margin-left:auto;width:20em}
.totals td{border:0;padding:.25em .4em}
.totals tr.grand td{font-weight:600;font-size:1.1em;border-top:2px solid #1f2328}
.statement{background:#f6f8fa;padding:.6em .9em;border-radius:4px}
.actions{display:flex;gap:1em;flex-wrap:wrap;margin-top:1.5em}
.actions form{display:flex;gap:.5em;flex-direction:column}
button,.button{font:inherit;padding:.55em 1.2em;border-radius:4px;border:1px solid #1f6feb;background:#1f6feb;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:#1f6feb}
textarea{font:inherit;min-height:4em}
.notice{padding:.8em 1em;border-radius:4px;background:#dafbe1}
.notice.error{background:#ffebe9}
</style>`);

/** A whole page; `lang` is the language it is written in (the document's). */
export function publicPage(title: string, body: Html, lang: string): string {
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><title>${title}</title>${STYLE}</head>
<body><main class="page">${body}</main><script src="${PUBLIC_SCRIPT_PATH}" defer></script></body></html>`.value;
}

/** Sends a quote page's forms to admin-ajax and shows the answer in place; without it, the form posts plainly. */
export const PUBLIC_SCRIPT = `
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.billingAnswer) return;
  event.preventDefault();
  for (const b of document.querySelectorAll('.actions button')) b.disabled = true;
  // the texts come in the document's language, from the page (data-* of the answer box)
  const out = document.getElementById('quote-answer');
  let message = out.dataset.failed;
  let ok = false;
  try {
    // getAttribute: the hidden field named "action" shadows form.action
    const res = await fetch(form.getAttribute('action'), { method: 'POST', body: new URLSearchParams(new FormData(form)) });
    const body = await res.json();
    ok = body.success === true;
    if (ok) message = form.dataset.billingAnswer === 'accept' ? out.dataset.accepted : out.dataset.declined;
    else if (body.data && body.data.code === 'billing_invalid_token') message = out.dataset.expired;
    else if (body.data && body.data.message) message = body.data.message;
  } catch (e) { /* network failure: the generic message */ }
  out.textContent = message;
  out.className = ok ? 'notice' : 'notice error';
  out.hidden = false;
  if (ok) {
    document.querySelector('.actions').remove();
    const badge = document.querySelector('.status');
    const answer = form.dataset.billingAnswer === 'accept' ? 'accepted' : 'declined';
    badge.textContent = answer === 'accepted' ? out.dataset.acceptedStatus : out.dataset.declinedStatus;
    badge.className = 'status status-' + answer;
  }
  else for (const b of document.querySelectorAll('.actions button')) b.disabled = false;
});
`;
