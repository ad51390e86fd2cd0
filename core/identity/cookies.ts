/** Reads a Cookie header into name → value (first occurrence wins, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (!name || name in out) continue;
    let value = part.slice(i + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

export interface CookieOptions {
  /** Seconds; absent for a cookie that ends with the browser session; 0 clears it. */
  maxAge?: number;
  secure: boolean;
  path?: string;
}

/** A Set-Cookie value: always HttpOnly and SameSite=Lax (contract §3); Secure when the site is https. */
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
