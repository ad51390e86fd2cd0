/**
 * A browser, as far as the tests need one: it keeps cookies (honouring Max-Age=0) and does not follow
 * redirects, so each step of a flow can be checked.
 */
export class Session {
  readonly cookies = new Map<string, string>();
  lastSetCookie: string[] = [];
  readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, { ...init, headers, redirect: 'manual' });
    this.lastSetCookie = res.headers.getSetCookie();
    for (const c of this.lastSetCookie) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (/;\s*Max-Age=0/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Posts the login form; answers the response (302 on success). */
  signIn(log: string, pwd: string, remember = false): Promise<Response> {
    const body = new URLSearchParams({ log, pwd });
    if (remember) body.set('rememberme', 'forever');
    return this.fetch('/wp-login.php', { method: 'POST', body });
  }

  /** The admin shell's nonces, read from its meta tags. */
  async nonces(): Promise<{ admin: string; rest: string; logout: string }> {
    const page = await (await this.fetch('/wp-admin/')).text();
    return {
      admin: meta(page, 'billing-admin-nonce'),
      rest: meta(page, 'billing-rest-nonce'),
      logout: /href="\/wp-login\.php\?action=logout&amp;_wpnonce=([0-9a-f]{10})"/.exec(page)?.[1] ?? '',
    };
  }
}

/** A meta tag's content, written `<meta …>` or `<meta … />` (prettier writes the page templates' tags so). */
export function meta(page: string, name: string): string {
  return new RegExp(`<meta name="${name}" content="([^"]*)"\\s*/?>`).exec(page)?.[1] ?? '';
}

/** What admin-ajax answered: status, text, and the body parsed when it is JSON (`0` and `-1` stay text). */
export interface AjaxAnswer {
  status: number;
  text: string;
  body: any;
}

/**
 * admin-ajax as a signed-in user: the session's cookies and its `billing_admin` nonce, sent with every
 * call unless the fields bring their own `_wpnonce`. Every body received is kept in `seen`.
 */
export class AjaxClient {
  readonly seen: string[] = [];
  readonly session: Session;
  readonly nonce: string;

  constructor(session: Session, nonce: string) {
    this.session = session;
    this.nonce = nonce;
  }

  /** Signs `login` in through the login form and reads the nonce the admin shell gives them. */
  static async signIn(base: string, login: string, password: string): Promise<AjaxClient> {
    const session = new Session(base);
    const res = await session.signIn(login, password);
    if (res.status !== 302) throw new Error(`signing ${login} in answered ${res.status}, not 302`);
    return new AjaxClient(session, (await session.nonces()).admin);
  }

  async call(action: string, fields: Record<string, string> = {}): Promise<AjaxAnswer> {
    return this.post({ action, _wpnonce: this.nonce, ...fields });
  }

  /** Exactly these fields, no nonce added. */
  async post(fields: Record<string, string>): Promise<AjaxAnswer> {
    const res = await this.session.fetch('/wp-admin/admin-ajax.php', { method: 'POST', body: new URLSearchParams(fields) });
    const text = await res.text();
    this.seen.push(text);
    // `0` and `-1` stay text (JSON.parse would make numbers of them)
    let body: any = text;
    if (/^\s*[[{]/.test(text)) {
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON after all: kept as text */
      }
    }
    return { status: res.status, text, body };
  }
}
