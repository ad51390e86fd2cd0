/**
 * One cookie's value from a Cookie header (the first occurrence wins, as browsers send the most specific
 * first), decoded; the others are not decoded, as the session cookie is read on every admin request.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i >= 0 && part.slice(0, i).trim() === name) return cookieText(part.slice(i + 1));
  }
  return undefined;
}

function cookieText(text: string): string {
  let value = text.trim();
  if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  if (!value.includes('%')) return value; // nothing escaped: a session token never is
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export interface CookieOptions {
  /** Seconds; absent for a cookie that ends with the browser session; 0 clears it. */
  maxAge?: number;
  secure: boolean;
  path?: string;
}

/** A Set-Cookie value: always HttpOnly and SameSite=Lax (docs/identity.md); Secure when the site is https. */
export function serializeCookie(name: string, value: string, opts: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? '/'}`];
  if (opts.maxAge !== undefined) {
    parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAge))}`);
    parts.push(`Expires=${new Date(Date.now() + Math.max(0, opts.maxAge) * 1000).toUTCString()}`);
  }
  parts.push('HttpOnly', 'SameSite=Lax');
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}
